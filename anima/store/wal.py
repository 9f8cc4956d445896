"""The write-ahead log beside a soul, checked before a connection that could fold it into the soul is opened.

SQLite names a database's WAL by its file name alone: a soul.db-wal left beside soul.db by another soul (one an
import replaced, a home copied together from two machines) is taken for this soul's. Opening then fails on a page
the log holds, and closing that failed connection folds the log in all the same (the checkpoint on close copies its
frames as they are, encrypted under another key): the soul is damaged for good, after "it was not changed".

So when a log is there, the soul is first opened read-only, which never folds anything in: page 1 is read through
the log (SQLCipher checks its HMAC, which proves the key), then every frame SQLite takes for committed (the log's
index in the -shm, built by that read) has its HMAC checked here, as SQLCipher would check it once read. Only a
log that passes is opened read-write. The check reads the log once, ~4 KB a frame: a few ms for the 1,000 frames
at which SQLite folds a log in, longer for one a forget's rebuild or a long export grew (every page of the soul).

SQLCipher 4's page (its defaults, which every soul is made with): the page's ciphertext (page 1's after its
16-byte salt), then 16 bytes of IV and a 64-byte HMAC-SHA512 of the ciphertext, the IV and the page number
(4 bytes, little-endian), keyed by PBKDF2-HMAC-SHA512 of the key, over the salt with each byte XOR 0x3a, 2
rounds. The computation is trusted only once it passes on page 1 of the file, which SQLite has just read: a soul
made otherwise is opened as before, unchecked.
"""

import hashlib
import hmac
import logging
import os
import struct
import sys
from pathlib import Path

from .. import paths

log = logging.getLogger(__name__)

SALT = 16
IV = 16
MAC = 64
RESERVE = 80  # IV and HMAC, rounded up to the cipher's block
WAL_HEADER = 32
FRAME_HEADER = 24
SHM_HEADER = 48  # the WAL index header, kept twice at the start of the -shm (SQLite's walformat.html)


def logged(db: Path) -> bool:
    """Whether a WAL with frames in it is beside `db`."""
    try:
        return Path(f"{db}-wal").stat().st_size > WAL_HEADER
    except OSError:
        return False


def not_sqlites(db: Path) -> Path | None:
    """A -wal or -shm beside `db` that SQLite did not make: something other than a regular file (a folder, a
    pipe, a link to nowhere or to a device), which it cannot open, or would read as a log without end."""
    for path in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        # exists() is False for a link to nowhere, or round in a circle.
        if os.path.lexists(path) and (not path.exists() or paths.not_a_file(path)):
            return path
    return None


def foreign_frames(db: Path, key: bytes) -> int | None:
    """How many committed frames of `db`'s WAL fail their HMAC under `key` (0: the log is the soul's), or None
    when it cannot be told (a soul not made with SQLCipher 4's defaults, a log another program changed meanwhile).
    Call inside a read transaction of a read-only connection on `db` that has read it: the -shm's index is then
    current, and no other program can begin the log again (write over its frames) until the transaction ends."""
    try:
        with open(db, "rb") as f:
            first = f.read(4096)
        with open(f"{db}-wal", "rb") as wal:
            header = wal.read(WAL_HEADER)
            index = _index(Path(f"{db}-shm"))
            if len(header) < WAL_HEADER or index is None:
                return None
            committed = int.from_bytes(index[16:20], sys.byteorder)  # mxFrame, in the machine's own byte order
            size = struct.unpack(">I", header[8:12])[0]
            if size != len(first):
                return None  # the page size the log says is not the file's (or the file is shorter than a page)
            mac_key = _mac_key(key, first[:SALT])
            if not _page_ok(first, 1, mac_key):
                return None  # this computation is not SQLCipher's for this soul: nothing can be told
            bad = 0
            for _ in range(committed):
                frame = wal.read(FRAME_HEADER + size)
                if len(frame) < FRAME_HEADER + size:
                    return None  # the index counts frames the file does not hold: being rewritten
                page = struct.unpack(">I", frame[:4])[0]
                bad += not _page_ok(frame[FRAME_HEADER:], page, mac_key)
        # Another program may have folded the log in and begun it again meanwhile (new salts, frames written over
        # from the first): SQLite changes the index before it writes a frame, so an unchanged index is a log read
        # as it stood. (The caller's read transaction keeps it from being begun again; this is the proof.)
        return bad if _index(Path(f"{db}-shm")) == index else None
    except OSError as e:
        log.info("the write-ahead log beside %s could not be checked (%s)", db.name, e)
        return None


def _index(shm: Path) -> bytes | None:
    """The header of SQLite's index of the log (its count of committed frames, mxFrame, and the log's salts), from
    the -shm's two copies of it; None while a writer is changing it (the copies differ)."""
    with open(shm, "rb") as f:
        head = f.read(2 * SHM_HEADER)
    if len(head) < 2 * SHM_HEADER or head[:SHM_HEADER] != head[SHM_HEADER:]:
        return None
    return head[:SHM_HEADER]


def _mac_key(key: bytes, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha512", key, bytes(b ^ 0x3A for b in salt), 2, 32)


def _page_ok(page: bytes, number: int, mac_key: bytes) -> bool:
    end = len(page) - RESERVE
    body = page[SALT if number == 1 else 0 : end]
    iv, mac = page[end : end + IV], page[end + IV : end + IV + MAC]
    return hmac.compare_digest(hmac.new(mac_key, body + iv + struct.pack("<I", number), hashlib.sha512).digest(), mac)
