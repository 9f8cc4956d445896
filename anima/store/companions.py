"""Several companions in one data folder, each its own soul: its own soul.db and soul.key, its own passphrase,
and its own keychain entry (keychain.py keys each entry by the soul's companion_id, which every soul is given
when it is made: two companions never share one, and the first companion's entry is where it always was).

The layout keeps what was there: a soul in the data folder itself is the first companion, MAIN, and opens from
where it lies (nothing of the person's is moved). Each one made after it lives in <data>/companions/<name>/.

The list is read without unlocking anything, and no index of names is kept beside the souls: a companion's name
is personal data, and lives only inside its encrypted soul. What the list shows is the folder's name, which is
what the person typed when they made it (kept as typed, so it reads as they wrote it); the soul's own name is
shown once it is unlocked.
"""

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import files, paths
from ..errors import CompanionExists, KnownError, NoCompanion
from . import keychain, locks
from .home import Home

MAIN = "main"  # the data folder's own soul: the first companion, where it always lived
FOLDER = "companions"  # where the others live, one folder each
# A name the person types becomes a folder's name: letters and digits of any script, spaces, and - _ . ' inside it.
_NAME = re.compile(r"[^\W_](?:[\w .'-]{0,62}[^\W_])?")


@dataclass(frozen=True)
class Listed:
    """One companion of the list: the name of its folder, and its home."""

    name: str
    home: Home

    @property
    def main(self) -> bool:
        return self.name == MAIN


def check_name(name: str) -> str:
    """The name as it will name the folder, or KnownError saying what a name may hold."""
    name = name.strip()
    if name.casefold() == MAIN:
        raise KnownError(f'"{MAIN}" is the name of the first companion, the one in the data folder: choose another.')
    if not _NAME.fullmatch(name) or ".." in name:
        raise KnownError(
            f"{name!r} cannot name a companion's folder: use letters, digits and spaces (and - _ . ' inside it), "
            "at most 64 characters."
        )
    return name


class Companions:
    """The companions of the data folder `data`."""

    def __init__(self, data: Path | str | None = None):
        self.data = paths.home(data)
        self.folder = self.data / FOLDER

    def list(self) -> list[Listed]:
        """Every companion here: the first one (in the data folder itself) first, the others by name."""
        found = [Listed(MAIN, Home(self.data))] if Home(self.data).exists() else []
        try:
            entries = sorted(os.listdir(self.folder), key=str.casefold)
        except (FileNotFoundError, NotADirectoryError):
            return found
        for entry in entries:
            home = Home(self.folder / entry)
            if home.dir.is_dir() and not entry.startswith(".") and home.soul_path.exists():
                found.append(Listed(entry, home))
        return found

    def home(self, name: str) -> Home:
        """The home of the companion called `name` (MAIN: the data folder's own), whether one lives there yet or
        not: a command that creates one (`anima chat`) makes it there. A name typed in another case finds the
        folder that is there (a Mac's disk takes them for one anyway)."""
        if name.strip().casefold() == MAIN:
            return Home(self.data)
        name = check_name(name)
        for listed in self.list():
            if listed.name.casefold() == name.casefold():
                return listed.home
        return Home(self.folder / name)

    def opening(self, chosen: str) -> Home:
        """The home that opens by default: the one `chosen` in the settings while it lives here (one removed by
        hand leaves its name in the settings), else the first, else the first of the others (the first was
        removed); with none at all, the data folder, where the first run makes the first."""
        if chosen:
            home = self.home(chosen)
            if home.exists():
                return home
        listed = self.list()
        return listed[0].home if listed else Home(self.data)

    def find(self, name: str) -> Listed:
        """The companion called `name`; NoCompanion when none is."""
        home = self.home(name)
        if not home.exists():
            raise NoCompanion(f"There is no companion called {name!r} in {self.data}. {self.say_names()}")
        return Listed(MAIN if home.dir == self.data else home.dir.name, home)

    def say_names(self) -> str:
        names = [listed.name for listed in self.list()]
        return f"The companions here: {', '.join(names)}." if names else "There is no companion here yet."

    def new_home(self, name: str) -> Home:
        """The home a new companion called `name` is made in (Home.create makes the soul); CompanionExists when
        one by that name lives here already."""
        home = self.home(check_name(name))
        if home.exists():
            raise CompanionExists(f"A companion called {name.strip()!r} lives here already: choose another name.")
        return home

    def free_name(self, wanted: str) -> str:
        """A name for a new companion, from `wanted` (a card's character's name, say): made fit for a folder,
        with a number after it when one by that name lives here."""
        base = re.sub(r"[^\w .'-]+", " ", wanted).strip(" .'-_")[:56].strip() or "Companion"
        if base.casefold() == MAIN:
            base = "Companion"
        taken = {listed.name.casefold() for listed in self.list()}
        name, n = base, 1
        while name.casefold() in taken or os.path.lexists(self.folder / name):
            n += 1
            name = f"{base} {n}"
        return check_name(name)

    def remove(self, name: str, passphrase: str) -> Listed:
        """Delete the companion called `name` for good, its passphrase proving it is the person's to delete.

        The key file goes first, overwritten then unlinked, and the keychain's copy of the key with it: the
        soul's database key lived only there, so from that moment what is left of soul.db cannot be read by
        anyone (the soul's own absolute deletion, as forgetting is for one item). Then the soul and SQLite's
        files beside it. Refused (SoulInUse) while a program has it open. The first companion's folder is the
        data folder: only its own files go; another's folder goes when nothing else is in it."""
        listed = self.find(name)
        home = listed.home
        keyfile = home.keyfile()
        keyfile.unwrap(passphrase)  # WrongPassphrase: nothing is touched
        with locks.alone(home.dir, "remove it again"):
            keychain.forget(keyfile.companion_id)
            _shred(home.key_path)
            files.fsync_dir(home.dir)
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{home.soul_path}{suffix}").unlink(missing_ok=True)
        for entry in os.listdir(home.dir):
            if paths.own_file(entry):
                (home.dir / entry).unlink(missing_ok=True)
        files.fsync_dir(home.dir)
        if not listed.main:
            try:
                home.dir.rmdir()
            except OSError:
                pass  # something of the person's is in it: theirs to keep
        return listed


def _shred(path: Path) -> None:
    """Overwrite a key file with zeros before unlinking it: where the disk writes in place, the wrapped key is
    gone from it too (the passphrase would otherwise still open a copy found on the disk)."""
    try:
        size = path.stat().st_size
        with open(path, "r+b") as f:
            f.write(b"\0" * size)
            f.flush()
            os.fsync(f.fileno())
    except FileNotFoundError:
        return
    path.unlink()
