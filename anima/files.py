"""Files read and written safely: the key file, the portable core, exports, settings, what a person attaches.

Files that a person or another program may have put in place (the key file, a core to import, a card, the
settings) are opened only if they are regular files, and read in bounded amounts, so a device or a FIFO in
their place is refused, not waited on. What Anima writes is written whole or not at all: to a new file of this
process's own beside it, fsynced, then renamed over it, so after a crash either the old or the new content is
in place, and a full disk is a DiskFull that leaves nothing behind.
"""

import errno
import glob
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from .errors import DiskError, DiskFull, NoAccess, failing_disk, full_disk


class NotRegularFile(OSError):
    """A path that names a folder, a device, a FIFO or a socket where a file was expected; its text says which."""


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for binary reading if it is a regular file; else NotRegularFile.

    A device (/dev/zero) or a FIFO may never end, so it is never read; O_NONBLOCK keeps the open itself of a
    FIFO from waiting for a writer that may never come. A regular file's size is known, so its reader can bound
    what it reads before reading it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile("a folder" if stat.S_ISDIR(mode) else "a device or a pipe")
        if getattr(os, "O_NONBLOCK", 0):  # only where it was asked for (os.set_blocking is POSIX's)
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class TooLarge(OSError):
    """A regular file larger than its reader takes: `size` bytes when it was measured, or more once it grew."""

    def __init__(self, size: int, grew: bool = False):
        super().__init__(f"{size} bytes")
        self.size, self.grew = size, grew


def read_regular(path: Path, most: int) -> bytes:
    """The bytes of a regular file of at most `most` bytes, never reading more than one byte past them:
    NotRegularFile for a folder, a device or a pipe (/dev/zero would fill the memory, a FIFO never end), TooLarge
    for a larger file, or one that grew past `most` while it was read."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > most:
            raise TooLarge(size)
        raw = f.read(size + 1)  # (a read allocates all it may read, first)
        if len(raw) > size:  # it grew since it was measured
            raw += f.read(most + 1 - len(raw))
            if len(raw) > most:
                raise TooLarge(len(raw), grew=True)
    return raw


def write_atomically(path: Path, data: bytes) -> None:
    """Write-new, fsync, rename, fsync the directory: the old or the new content survives a crash.

    The new file's name is this process's own, so two programs re-wrapping the same key file at once
    never write into each other's half-written file; a full disk is a DiskFull and leaves nothing behind."""
    write_pieces_atomically(path, (data,))


def write_pieces_atomically(path: Path, pieces: Iterable[bytes], still: Callable[[], None] = lambda: None) -> None:
    """write_atomically, the content given a piece at a time (an export of a large soul is never whole in
    memory); an error raised while making the pieces leaves nothing behind either. `still()` is called once the
    file is written and synced, just before it takes the name: what it raises lets the file go."""
    tmp = partial(path, os.getpid())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            for data in pieces:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        still()
        os.replace(tmp, path)
        fsync_dir(path.parent)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull(full_disk(f"{path} was not changed")) from e
        if e.errno == errno.EIO:
            raise DiskError(failing_disk(path, e.strerror, "it was not changed", "write")) from e
        # A read-only disk, /proc, a folder not this user's: the window showed its bug dialog for an export there.
        advice = (
            " Choose a place this user can write to."
            if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT)
            else ""
        )
        raise NoAccess(f"{path} cannot be written ({e.strerror or e}): it was not changed.{advice}") from e
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    remove_leftovers(path)


# A new file's name while it is written: hidden, its writer's pid, and a mark of Anima's. Any "*.<digits>.new"
# was once taken for one, and tidy() deleted the person's own "novel.2024.new" from the home at every unlock (QA).
PARTIAL = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.anima\.new")


def partial(path: Path, pid: int) -> Path:
    """Where process `pid` writes the new content of `path` before it takes the name."""
    return path.with_name(f".{path.name}.{pid}.anima.new")


def partial_writer(path: Path) -> int | None:
    """The pid that writes the partial file `path`; None when `path` is none of Anima's."""
    found = PARTIAL.fullmatch(path.name)
    return int(found["pid"]) if found else None


def remove_leftovers(path: Path) -> list[Path]:
    """New files that a killed program left half-written beside `path` (their writer is gone); returns them. Those
    of an older version ("<name>.<pid>.new") too: beside a file Anima writes, under its very name, they are its."""
    gone = []
    for leftover in [
        *path.parent.glob(f".{glob.escape(path.name)}.*.anima.new"),
        *path.parent.glob(f"{glob.escape(path.name)}.*.new"),
    ]:
        mine = PARTIAL.fullmatch(leftover.name)
        pid = mine["pid"] if mine and mine["name"] == path.name else leftover.name[len(path.name) + 1 : -len(".new")]
        if pid.isdigit() and not alive(int(pid)):
            leftover.unlink(missing_ok=True)
            gone.append(leftover)
    return gone


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
