"""Every page of a soul file, decrypted: what a thief with the key would see, free pages included.

SQLCipher 4 with a raw key: each 4,096-byte page is AES-256-CBC under the key itself, with the page's IV in
the 80 reserved bytes at its end (16 of IV, 64 of HMAC); page 1 begins with the 16-byte salt in the clear.
Reading the pages ourselves (not through SQLite) sees what SQLite no longer shows: deleted rows left in free
pages and free space inside pages, and old FTS segments.

A WAL (`soul.db-wal`) is read frame by frame: its 32-byte header, then each page behind a 24-byte frame header
that names it, old frames of an earlier round of the WAL included (they stay in the file until written over).
Read as if it were the soul file, its pages sat 32 bytes off and decrypted to noise, in which "Sam" turned up by
chance about once in fifty runs of tests/test_forgetting.py, while a real trace in it would never have been seen.
"""

import struct
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PAGE = 4096
RESERVE = 80
SALT = 16


WAL_HEADER = 32
FRAME_HEADER = 24
WAL_MAGIC = (0x377F0682, 0x377F0683)


def decrypted_pages(path: Path, key: bytes) -> bytes:
    data = Path(path).read_bytes()
    if path.name.endswith("-wal"):
        return b"".join(_decrypted(page, number, key) for number, page in wal_frames(data))
    return b"".join(_decrypted(data[n * PAGE : (n + 1) * PAGE], n + 1, key) for n in range(len(data) // PAGE))


def wal_frames(data: bytes) -> list[tuple[int, bytes]]:
    """Each frame's page number and page, every whole frame in the file (those of a WAL's earlier rounds too)."""
    if not data:
        return []
    magic, _, page_size = struct.unpack(">III", data[:12])
    assert magic in WAL_MAGIC and page_size == PAGE, f"not a WAL of {PAGE}-byte pages"
    step = FRAME_HEADER + PAGE
    return [
        (struct.unpack(">I", data[at : at + 4])[0], data[at + FRAME_HEADER : at + step])
        for at in range(WAL_HEADER, len(data) - step + 1, step)
    ]


def _decrypted(page: bytes, number: int, key: bytes) -> bytes:
    start = SALT if number == 1 else 0
    iv = page[PAGE - RESERVE : PAGE - RESERVE + 16]
    d = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return d.update(page[start : PAGE - RESERVE]) + d.finalize()


def holds(path: Path, key: bytes, text: str) -> bool:
    """Whether `text` is anywhere in the file's decrypted pages (as UTF-8, either case of its first letter)."""
    plain = decrypted_pages(path, key)
    return any(t.encode() in plain for t in {text, text.lower(), text.upper(), text[:1].upper() + text[1:]})
