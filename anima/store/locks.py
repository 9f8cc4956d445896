"""Locks between programs on one home: who has the soul open, and who writes its key file.

Two programs may have one soul open at once (the window and `anima chat`); SQLite keeps their writes apart. What
SQLite cannot see is the file itself being swapped: an import renaming a new soul.db over the old while another
program has the old open leaves that program writing to a file no longer called soul.db, and the -wal and -shm it
keeps (they keep their names) are then read as the new file's, which damages it. So, beside the soul:

* `.soul.lock`, presence: each program holds it shared from before it opens the soul until it has closed it;
  whatever puts a soul.db in place holds it exclusively, without waiting, and refuses if anyone else is present.
* `.soul.key.lock`, key writes: whatever writes soul.key holds it exclusively (waiting its turn: each write is a
  moment) and first checks the file is still the one it read. A file of its own, so a program that has the soul
  open never stands in the way of a passphrase change.

flock(2) locks belong to the open file, not the process, and the system drops them when their program ends, even
killed: none outlives its holder, and nothing is left to clean up. The lock files stay empty and are never removed
(a removed one that is still held would let the next program lock a new file beside it). On a filesystem where
flock fails, nothing is opened, swapped or written there: NoFileLocks says why it is a refusal, not a fallback.

Windows has no shared locks (msvcrt.locking is exclusive only), so presence is not taken there, and says so in the
log. Windows itself refuses to rename over a file another program has open (SQLite opens it without
FILE_SHARE_DELETE): Home._install reports that as the same refusal. The key lock is msvcrt's exclusive lock.
"""

import errno
import logging
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import DiskFull, KnownError, SoulInUse, full_disk
from .soul import OPENING

# By platform, as the type checker reads it (Windows has no fcntl, and only Windows has msvcrt).
if sys.platform == "win32":
    import msvcrt

    fcntl = None
else:
    import fcntl

log = logging.getLogger(__name__)


class NoFileLocks(KnownError):
    """The home is on a filesystem whose flock(2) fails (an NFS mount without its lock daemon, some FUSE and SMB
    mounts): the soul is not opened (nor swapped, nor its key written) there.

    A refusal, not a logged fallback that goes on unlocked. Presence is what keeps an import from renaming a new
    soul.db under a program that has the old one open, which damages it (above), and it holds only if every
    program takes it: one that went on without it would be invisible to an import whose exclusive lock did
    succeed, and a program cannot tell a filesystem that never locks from one that failed once (ENOLCK is also
    the kernel out of lock records). And where flock fails the filesystem is, in practice, a network one (Linux
    emulates flock on NFS with the same fcntl locks SQLite needs), on which SQLite's WAL and its shared-memory
    -shm are not safe either (sqlite.org/wal.html). The soul is the person's and cannot be remade: one clear
    sentence and a folder on a local disk, rather than a companion that opens and may be damaged later."""

    def __init__(self, directory: Path, error: OSError, outcome: str):
        super().__init__(
            f"The folder {directory} is on a filesystem without file locks ({error.strerror or error}),"
            f" which Anima needs to keep two programs from damaging the companion: {outcome}. Keep the "
            "companion on a local disk (set ANIMA_HOME to a folder there)."
        )


class NotALockFile(KnownError):
    """Something other than a file where a lock file goes (a folder, a pipe, a device, a link), put there
    by hand or by another tool: Anima never makes one. Nothing can be locked with it, so nothing is opened, swapped
    or written, and the person is told what to remove."""

    def __init__(self, path: Path, outcome: str):
        super().__init__(
            f"The lock file {path} is not a regular file, and Anima can lock nothing with it: "
            f"{outcome}. If no Anima program is running, remove that lock file (Anima makes a new one) "
            "and try again."
        )


# What opening says of something other than a file where a lock file goes (see _open).
_NOT_FILES = {errno.EISDIR, errno.ENOENT, errno.ELOOP, errno.ENXIO, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP)}
# What flock(2) says on a filesystem that has no such locks. EINVAL too: the operations here are always valid.
_NO_LOCKS = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EINVAL}


def _flock(fd: int, operation: int, directory: Path, outcome: str) -> None:
    """flock(2), with a filesystem that has no locks as NoFileLocks (`outcome`: what that left undone);
    BlockingIOError (LOCK_NB, held by another) and other errors as they are."""
    try:
        fcntl.flock(fd, operation)
    except OSError as e:
        if e.errno in _NO_LOCKS:
            raise NoFileLocks(directory, e, outcome) from None
        raise


PRESENCE = ".soul.lock"
KEY_WRITES = ".soul.key.lock"
# Whether presence is shared between programs here (False on Windows: see above).
SHARED = fcntl is not None
_told = False


class Presence:
    """This program's shared hold on a home while it has the soul open (Home.unlock and Home.create take it,
    Soul.close lets it go). Waits out a swap in progress, which takes a moment."""

    def __init__(self, directory: Path):
        self._fd = None
        if not SHARED:
            _say_unshared()
            return
        try:
            fd = _open(directory / PRESENCE, OPENING)
        except OSError as e:
            if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            # A home this program may not write to: an import with the same rights could not rename a soul in.
            log.warning(
                "cannot make %s (%s): this program's open soul is not locked against an import",
                PRESENCE,
                e.strerror or e,
            )
            return
        try:
            _flock(fd, fcntl.LOCK_SH, directory, OPENING)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def alone(self) -> bool:
        """Whether no other program (nor another soul of this one) has the soul open: this hold made exclusive,
        without waiting. Only on the way out of a failed open: flock(2) lets go of a shared hold before it takes
        the exclusive one, so after a refusal this presence may hold nothing (release it next)."""
        if self._fd is None:
            return False  # no shared locks here, or a home this program may not write to: not known
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held by another, or (NFS) not on a file opened read-only: not known either
            return False
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # the lock goes with it

    # A soul dropped without close() must not keep every import out until the program ends.
    __del__ = release


@contextmanager
def alone(directory: Path, again: str = "import again") -> Iterator[None]:
    """Held while a soul.db is put in place: SoulInUse at once, nothing waited for, when another program (or another
    soul of this one) has the soul open. `again`: what the person does once it is closed."""
    if not SHARED:
        _say_unshared()
        yield
        return
    fd = _open(directory / PRESENCE, "nothing was changed", write=True)
    try:
        try:
            _flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, directory, "nothing was changed")
        except BlockingIOError:
            raise SoulInUse(again) from None
        yield
    finally:
        os.close(fd)


@contextmanager
def key_writes(directory: Path) -> Iterator[None]:
    """Held while soul.key is checked and written: one writer at a time, across programs."""
    fd = _open(directory / KEY_WRITES, "the key file was not changed", write=True)
    try:
        if SHARED:
            _flock(fd, fcntl.LOCK_EX, directory, "the key file was not changed")
        elif sys.platform == "win32":  # always, where presence is not shared
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # tries for 10 s, then OSError: the caller says it was not written
        try:
            yield
        finally:
            if not SHARED and sys.platform == "win32":
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    finally:
        os.close(fd)


def _open(path: Path, outcome: str, write: bool = False) -> int:
    # Read-only is enough for a shared flock, and opens a lock file that a read-only home already holds; an
    # exclusive one is opened for writing, which NFS (flock emulated by byte-range locks) requires. O_NONBLOCK:
    # a pipe put where the lock file goes opens at once (to be refused below) instead of waiting for a writer
    # forever; it changes nothing else here (flock waits, or not, by LOCK_NB alone). O_NOFOLLOW: Anima never
    # makes a lock file a link, and following one made the file it named, outside the home (refused below; Windows
    # has no such flag, and a link there needs rights a person seldom has).
    flags = (
        (os.O_RDWR if write or not SHARED else os.O_RDONLY)
        | os.O_CREAT
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOFOLLOW", 0)
    )
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull(full_disk(outcome, path.parent)) from e
        # A folder (EISDIR), a link (ELOOP; EMLINK or EFTYPE on the BSDs; ENOENT where a system without
        # O_NOFOLLOW follows it to nowhere), a socket (ENXIO).
        if e.errno in _NOT_FILES and os.path.lexists(path):
            raise NotALockFile(path, outcome) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a pipe or a device: nothing to lock with
        os.close(fd)
        raise NotALockFile(path, outcome)
    return fd


def _say_unshared() -> None:
    global _told
    if not _told:
        _told = True
        log.warning(
            "no shared file locks on this system: another program's open soul is not locked against an "
            "import here; the system's own refusal to replace an open file is what guards it"
        )
