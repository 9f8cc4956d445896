"""A plain-text view of the mind, for a person to read: SELF.md and world/*.md.

This copy is NOT encrypted; the command that writes it says so. Its files are
its owner's only (0600, as the JSON export and the core are), and so are the
folders it makes (0700; a folder already there keeps its own). It is written
whole or not at all: every file is first written (and fsynced) in a folder of
this program's own, then moved in by renames, which need no room. A full disk is
a DiskFull naming the folder, and any failure leaves the folder as it was (or
absent) with nothing of this export beside or in it.
"""

import errno
import glob
import os
import re
import shutil
from collections.abc import Collection
from pathlib import Path

from ..errors import DiskFull, full_disk
from ..files import alive, fsync_dir
from ..knowledge import memories, world
from ..paths import export_target
from ..self.growth import GrowthLog
from ..self.selfmodel import SelfModel
from ..store.sections import SECTIONS
from ..store.soul import Soul

WARNING = (
    "This folder is a plain-text copy of the companion's mind. It is NOT encrypted: "
    "anyone who can read these files can read it."
)


def _slug(title: str, used: set[str]) -> str:
    base = re.sub(r"[^\w-]+", "-", title.lower()).strip("-")[:60] or "card"
    slug, n = base, 2
    while slug in used:
        slug, n = f"{base}-{n}", n + 1
    used.add(slug)
    return slug


def texts(soul: Soul) -> dict[str, str]:
    """What the export holds: each file's path inside the folder, and its text."""
    f = SelfModel(soul).read()
    name = soul.get_meta("name", "Anima")
    sections = [f"# {name}\n\n> {WARNING}"]
    for s in SECTIONS.values():  # as the Open Mind shows them (the rules in force: in the JSON export)
        if s.shown is not None:
            sections.append(f"## {s.shown}\n\n{getattr(f, s.name).strip() or '_(empty)_'}")
    growth = GrowthLog(soul).dated()
    sections.append("## Growth log\n\n" + ("\n".join(f"- {at[:10]}: {entry}" for at, entry in growth) or "_(empty)_"))
    facts = memories.in_time_order(soul)
    lines = [
        f"- {m['content']} ({m['source'].replace('_', ' ')}; {m['valid_from'][:10]} to {(m['valid_to'] or 'now')[:10]})"
        for m in facts
    ]
    sections.append("## Memories\n\n" + ("\n".join(lines) or "_(none)_"))
    out = {"SELF.md": "\n\n".join(sections) + "\n"}
    used: set[str] = set()
    for card in world.as_stored(soul):
        out[f"world/{_slug(card['title'], used)}.md"] = (
            f"# {card['title']}\n\n_{card['kind']}_ · keywords: {card['keywords']}\n\n{card['body']}\n"
        )
    return out


def write_markdown(soul: Soul, directory: str | os.PathLike[str]) -> list[Path]:
    """Write SELF.md and world/*.md into `directory` (made if missing; files of the person's own there are left
    alone), all or none; returns the files written."""
    directory = export_target(directory, soul.path.parent, folder=True)  # absolute: "." has a folder beside it too
    files = texts(soul)  # read all before writing anything
    made = _missing_parents(directory)
    # A folder already there is built into from inside it (a mount point, a USB stick's root, has no "beside" on
    # its own disk to rename from); a new one is built beside, and renamed into being whole.
    existing = directory.is_dir()
    building = (
        directory / f".markdown.{os.getpid()}.partial"
        if existing
        else directory.with_name(f".{directory.name}.{os.getpid()}.partial")
    )
    _remove_dead(building)
    try:
        for path, text in files.items():
            _write(building / path, text)
        if existing:
            _move_each(building, directory, files)
        else:
            os.rename(building, directory)
        fsync_dir(directory if existing else directory.parent)
    except BaseException as e:
        shutil.rmtree(building, ignore_errors=True)
        for folder in made:  # deepest first; only those this export made, and only while empty
            _rmdir(folder)
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull(full_disk(f"nothing was written to {directory}")) from e
        raise
    return [directory / path for path in files]


def _write(path: Path, text: str) -> None:
    _private_folder(path.parent)
    # Private, as the JSON export and the core are: only its owner reads a plain-text copy of the mind.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
    with open(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())  # on the disk before the rename makes it the export


def _move_each(built: Path, into: Path, files: Collection[str]) -> None:
    """Into a folder already there: its subfolders made first (the one step here that may need room), then
    each file renamed over its old copy."""
    for folder in sorted({(into / path).parent for path in files}):
        folder.mkdir(exist_ok=True, mode=0o700)
    for path in files:
        os.replace(built / path, into / path)
    shutil.rmtree(built)


def _private_folder(folder: Path) -> None:
    """Make `folder` and any folder missing above it, each only its owner's (mkdir's mode is not given to the
    parents it makes); folders already there keep theirs."""
    for missing in [*reversed([p for p in folder.parents if not p.exists()]), folder]:
        missing.mkdir(exist_ok=True, mode=0o700)


def _missing_parents(directory: Path) -> list[Path]:
    """The folders above `directory` that are not there yet, deepest first."""
    return [p for p in directory.parents if not p.exists()]


def _rmdir(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty (another program's now) or gone: not ours to remove


def _remove_dead(building: Path) -> None:
    """Folders that a killed export left half-built beside or in the folder (their writer is gone): a
    plain-text copy of the mind is not left lying about."""
    stem = building.name[: -len(f".{os.getpid()}.partial")]
    for leftover in building.parent.glob(f"{glob.escape(stem)}.*.partial"):
        pid = leftover.name[len(stem) + 1 : -len(".partial")]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)
