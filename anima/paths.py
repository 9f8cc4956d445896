"""Where a companion lives on disk."""

import logging
import os
import stat
from pathlib import Path

import platformdirs

log = logging.getLogger(__name__)

HOME_ENV = "ANIMA_HOME"


def home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: an explicit path, else $ANIMA_HOME, else the platform's user data dir."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("anima", appauthor=False))


def soul_path(home_dir: Path) -> Path:
    return home_dir / "soul.db"


def key_path(home_dir: Path) -> Path:
    return home_dir / "soul.key"


def own_file(name: str) -> bool:
    """Whether a file of this name in a home is the companion's own: its soul and key, SQLite's files beside the
    soul, and the locks and partial files, all named from ".soul". In any case: a Mac's disk takes SOUL.DB for
    soul.db."""
    name = name.casefold()
    return name in ("soul.db", "soul.key") or name.startswith(("soul.db-", "soul.key.", ".soul"))


def _same(a: Path, b: Path) -> bool:
    """One folder, however its name was typed (a Mac's disk ignores case; resolve() keeps the case typed)."""
    try:
        return a == b or os.path.samefile(a, b)
    except OSError:
        return False  # one of them is not there


CACHE_ENV = "ANIMA_CACHE"


def cache() -> Path:
    """Where derived files that can always be made again live (never the soul): $ANIMA_CACHE, else the platform's
    user cache dir."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("anima", appauthor=False))


def owner_only(folder: Path) -> None:
    """Take group and others' access away from a folder of the companion's (its home, its logs). mkdir's mode does
    nothing to a folder that exists, and one made by the person or by an older Anima may be 0755: anyone on the
    machine could list it. Only a folder this user owns is changed; one that cannot be is a warning, not a refusal
    (the soul in it is encrypted all the same)."""
    if os.name != "posix":
        return  # Windows: chmod only sets the read-only flag
    st = folder.stat()
    if not st.st_mode & 0o077 or st.st_uid != os.getuid():
        return
    try:
        os.chmod(folder, stat.S_IMODE(st.st_mode) & ~0o077)  # the owner's own bits as they were
    except OSError as e:
        log.warning("could not make a folder of the companion's readable by its owner only (%s)", type(e).__name__)


def export_target(target: str | os.PathLike[str], home_dir: Path, folder: bool = False) -> Path:
    """Where an export of the soul in `home_dir` is written: `target` with its symlinks followed (a link to a USB
    stick's backup writes the backup, not a file in the link's place). KnownError for a place it must not go: one
    of the companion's own files (an export onto soul.db or soul.key replaced the soul with its copy), or the home
    itself, or something that is not a file (a folder, a device, a pipe), or a folder that is not there.
    `folder`: the export is a folder of files (Markdown), made if missing."""
    from .errors import KnownError

    path = Path(os.path.abspath(Path(target).expanduser())).resolve()
    home_dir = Path(os.path.abspath(home_dir)).resolve()
    # Another companion's files too (store/companions.py: several live in one data folder): an export of this one
    # onto another's soul.db would replace that soul.
    if _same(path, home_dir) or (own_file(path.name) and (_same(path.parent, home_dir) or _a_home(path.parent))):
        raise KnownError(
            f"{target} is {'the' if _same(path.parent, home_dir) or path == home_dir else 'another'} "
            f"companion's own {'folder' if path == home_dir else 'file'}, where its "
            "soul lives: nothing was written. Export to another name or place."
        )
    try:
        path.stat()
    except FileNotFoundError:
        if not folder and not path.parent.is_dir():
            raise KnownError(f"There is no folder {path.parent} to export into: nothing was written.") from None
        return path
    except OSError as e:
        raise KnownError(f"{target} cannot be written ({e.strerror}): nothing was written.") from None
    what = not_a_file(path)
    if folder and what != "a folder":
        raise KnownError(f"{target} is a file, not a folder: nothing was written. Choose a folder for the files.")
    if not folder and what:
        raise KnownError(f"{target} is {what}, not a file: nothing was written. Choose a file name to export to.")
    return path


def _a_home(folder: Path) -> bool:
    """Whether a companion lives in `folder` (its soul or its key is there)."""
    return os.path.lexists(soul_path(folder)) or os.path.lexists(key_path(folder))


def not_a_file(path: Path) -> str | None:
    """What is at `path` (through any symlink) when it is not a regular file: "a folder", "a device or a pipe";
    None for a regular file, or where nothing can be looked at (opening it says what is wrong)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return "a folder" if stat.S_ISDIR(mode) else "a device or a pipe"
