"""The portable core: the whole soul in one file, encrypted under an export passphrase.

Layout (all integers big-endian):

    MAGIC (12 bytes) | header length (u32) | header (JSON) | chunk* 
    chunk = ciphertext length (u32) | AES-256-GCM ciphertext of up to 1 MiB

The header carries the format, the schema version, and the scrypt salt and
cost (keys.Cost: a core written at an older cost still imports; a cost beyond
keys' bounds is refused before any work); it is authenticated as every chunk's associated data. Each chunk's nonce
is a random prefix, the chunk's index and a final-chunk flag, so a reordered,
truncated or extended file fails authentication. The payload is zlib-compressed
JSON of every soul table's rows, one zlib stream cut into the chunks. No vector
index is ever carried: vectors are rows, and the index is rebuilt from them
after import.

A core to import may be anything a person was handed, so reading it is bounded
by its size: only a regular file is read (never a device or a FIFO, which may
not end), its magic and header are checked from the first bytes before the rest
is read, each chunk is checked and inflated in turn, and the content may not
inflate past content_limit (a compression bomb is refused, not unpacked).
"""

import base64
import json
import os
import secrets
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .. import __version__
from ..errors import BadCore, WrongPassphrase
from . import keys
from .migrations import SCHEMA_VERSION

MAGIC = b"ANIMA-CORE\x00\x01"
FORMAT_VERSION = 1
CHUNK = 1 << 20
MAX_HEADER = 64 * 1024

Progress = Callable[[int, int], None]  # (done, total) in bytes


CHECK = b"anima-core-passphrase-check"


def _check_nonce(prefix: bytes) -> bytes:
    # Never equal to a chunk's nonce: no chunk has index 2**32-1 with flag 255.
    return prefix + b"\xff" * 5


def _nonce(prefix: bytes, index: int, final: bool) -> bytes:
    return prefix + struct.pack(">IB", index, 1 if final else 0)


def _encode(value):
    if isinstance(value, bytes):
        return {"$b64": base64.b64encode(value).decode("ascii")}
    return value


def _decode(value):
    if isinstance(value, dict):
        return base64.b64decode(value["$b64"], validate=True)
    return value


def dump_tables(con, tables) -> dict:
    out = {}
    present = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in (t for t in tables if t in present):  # an older schema lacks the newer tables
        cur = con.execute(f"SELECT * FROM {table} ORDER BY rowid")
        out[table] = {"columns": [d[0] for d in cur.description],
                      "rows": [[_encode(v) for v in row] for row in cur.fetchall()]}
    return out


def write_core(path: Path, tables: dict, schema_version: int, passphrase: str, progress: Progress | None = None) -> None:
    """Write the core to `path` atomically: a partial file never takes the name."""
    content = json.dumps({"tables": tables}, ensure_ascii=False).encode("utf-8")
    _seal(path, _compress(content), schema_version, passphrase, progress)


def _compress(content: bytes) -> bytes:
    payload = zlib.compress(content, 6)
    if len(content) > content_limit(len(payload)):
        # Content this repetitive would be refused on import as a bomb: store it (zlib level 0, read the same
        # way), a bigger file that imports rather than a small one that never does.
        payload = zlib.compress(content, 0)
    return payload


def _seal(path: Path, payload: bytes, schema_version: int, passphrase: str, progress: Progress | None) -> None:
    salt, prefix, cost = secrets.token_bytes(16), secrets.token_bytes(7), keys.wrap_cost()
    aead = AESGCM(keys.derive(passphrase, salt, cost))
    header = json.dumps({
        "format": "anima-core", "format_version": FORMAT_VERSION, "schema_version": schema_version,
        "anima_version": __version__,
        "kdf": {"name": "scrypt", "n": cost.n, "r": cost.r, "p": cost.p,
                "salt": base64.b64encode(salt).decode("ascii")},
        "nonce_prefix": base64.b64encode(prefix).decode("ascii"),
        # Tells a wrong passphrase apart from a damaged file.
        "check": base64.b64encode(aead.encrypt(_check_nonce(prefix), CHECK, None)).decode("ascii"),
    }).encode("ascii")
    out = bytearray(MAGIC + struct.pack(">I", len(header)) + header)
    count = max(1, -(-len(payload) // CHUNK))
    for i in range(count):
        piece = payload[i * CHUNK:(i + 1) * CHUNK]
        sealed = aead.encrypt(_nonce(prefix, i, i == count - 1), piece, header)
        out += struct.pack(">I", len(sealed)) + sealed
        if progress:
            progress(min((i + 1) * CHUNK, len(payload)), len(payload))
    # Write-new (named for this program), fsync, rename: a killed export leaves the old file or none, and its
    # partial file is removed by the next write beside it; a full disk is a DiskFull and leaves nothing.
    keys.write_atomically(path, bytes(out))


@dataclass
class CoreContents:
    schema_version: int
    tables: dict


class _Header(NamedTuple):
    raw: bytes  # every chunk's associated data
    schema_version: int
    cost: keys.Cost
    salt: bytes
    prefix: bytes
    check: bytes


def read_core(path: Path, passphrase: str, progress: Progress | None = None) -> CoreContents:
    """Read and fully verify a core. Raises BadCore or WrongPassphrase; never returns part of one.

    What it holds is bounded by the file's size: only a regular file is read, its magic and header are checked
    from its first bytes, and each chunk is read, checked and inflated in turn, within content_limit."""
    path = Path(path)
    with _open(path) as f:
        try:
            size = os.fstat(f.fileno()).st_size
            head = _header(f, size, path)
            aead = _unlock(passphrase, head, path)
            # Passed straight on, so _tables can let go of the bytes once they are parsed.
            tables = _tables(_content(f, size, aead, head, path, progress), path)
        except OSError as e:
            raise BadCore(f"{path} cannot be read ({e.strerror or e}).") from None
    return CoreContents(head.schema_version, tables)


def _open(path: Path):
    try:
        return keys.open_regular(path)
    except FileNotFoundError:
        raise BadCore(f"There is no file {path}.") from None
    except keys.NotRegularFile as e:
        raise BadCore(f"{path} is {e}, not a core file.") from None
    except OSError as e:
        raise BadCore(f"{path} cannot be read ({e.strerror or e}).") from None


def _header(f, size: int, path: Path) -> _Header:
    magic = f.read(len(MAGIC))
    if magic[:10] != MAGIC[:10]:
        raise BadCore(f"{path} is not an Anima core file.")
    if magic != MAGIC:
        raise BadCore(f"{path} is a core from a newer version of Anima; update Anima to import it.")
    raw = _take(f, size, MAX_HEADER, path)
    try:
        h = json.loads(raw)
        if h.get("format") != "anima-core":
            raise ValueError("not a core header")
        versions = (h["format_version"], h["schema_version"])
        if any(type(v) is not int or not 0 < v < 2**31 for v in versions):
            raise ValueError("its versions are not whole numbers")
        if versions[0] > FORMAT_VERSION or versions[1] > SCHEMA_VERSION:
            raise BadCore(f"{path} was exported by a newer Anima (core format {versions[0]}, "
                          f"schema {versions[1]}); update Anima to import it.")
        # Bounded before any work: a header cannot make an import spend unbounded memory or time.
        cost = keys.Cost.read(h["kdf"])
        head = _Header(raw, versions[1], cost, base64.b64decode(h["kdf"]["salt"], validate=True),
                       base64.b64decode(h["nonce_prefix"], validate=True),
                       base64.b64decode(h["check"], validate=True))
        if len(head.prefix) != 7:
            raise ValueError("bad nonce prefix")
        return head
    # RecursionError: JSON nested thousands deep.
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise BadCore(f"{path} is damaged (its header cannot be read: {e}).") from None


def _unlock(passphrase: str, head: _Header, path: Path) -> AESGCM:
    try:
        aead = AESGCM(keys.derive(passphrase, head.salt, head.cost))
    except keys.UnusableCost as e:
        raise BadCore(f"{path} is damaged (its header cannot be read: {e}).") from None
    try:
        aead.decrypt(_check_nonce(head.prefix), head.check, None)
    except InvalidTag:
        raise WrongPassphrase(f"the core {path}") from None
    return aead


# What a core's content may inflate to: CONTENT_FLOOR plus CONTENT_RATIO times the core file's size. Measured: a
# real soul (3,000 messages with their vectors, from `bench scale`) compresses 1.46:1, its messages alone 3.7:1,
# as vectors barely compress; a real 100,000-message soul's core is ~154 MB. zlib reaches ~1000:1 on repeated
# bytes, so without a bound a 2 MB core could inflate to 2 GB. 16:1 is four times the most compressible real
# content measured; the floor lets a small soul compress as it will. A size written in the header would be the
# file's maker's to choose; the file's size is what they must actually supply. write_core stores content too
# repetitive for this bound uncompressed, so every core it writes imports.
CONTENT_RATIO = 16
CONTENT_FLOOR = 64 << 20
# The most one inflate step produces (tests make it small, to fall across zlib's blocks).
INFLATE_STEP = CHUNK


def content_limit(core_bytes: int) -> int:
    return CONTENT_FLOOR + CONTENT_RATIO * core_bytes


def _content(f, size: int, aead: AESGCM, head: _Header, path: Path, progress: Progress | None) -> bytearray:
    """The inflated content of every chunk, each checked before it is inflated; within content_limit(size)."""
    inflate, content, limit, index = zlib.decompressobj(), bytearray(), content_limit(size), 0
    while True:
        if f.tell() >= size:
            raise BadCore(f"{path} is truncated: its last part is missing.")
        sealed = _take(f, size, CHUNK + 16, path)
        final = f.tell() == size
        try:
            piece = aead.decrypt(_nonce(head.prefix, index, final), sealed, head.raw)
        except InvalidTag:
            raise BadCore(f"{path} is damaged or truncated (part {index + 1} fails its check).") from None
        _inflate(inflate, piece, content, limit, path)
        if progress:
            progress(f.tell(), size)
        index += 1
        if final:
            break
    if not inflate.eof or inflate.unused_data:
        raise BadCore(f"{path} passed its checks but its content cannot be read (it does not end where it should).")
    return content


def _inflate(inflate, piece: bytes, content: bytearray, limit: int, path: Path) -> None:
    """Inflate one chunk onto `content`, at most INFLATE_STEP a step and never past the room left: no step is
    unbounded, and what is held beside the content is one step, not all it might inflate to."""
    try:
        while True:
            step = min(INFLATE_STEP, limit - len(content) + 1)
            out = inflate.decompress(piece, step)
            content += out
            if len(content) > limit:
                raise BadCore(f"{path} is damaged or hostile: its content inflates past {limit >> 20} MiB, "
                              "far more than any soul compresses into a core of its size.")
            piece = inflate.unconsumed_tail
            # A full step may leave output inside zlib even with no input left: ask again until one falls short.
            if not piece and len(out) < step:
                return
    except zlib.error as e:
        raise BadCore(f"{path} passed its checks but its content cannot be read ({e}).") from None


def _tables(content: bytearray, path: Path) -> dict:
    try:
        body = json.loads(content)
        del content  # its rows are objects now; the bytes need not be held beside them
        tables = body["tables"]
        for name, t in tables.items():
            t["rows"] = [[_decode(v) for v in row] for row in t["rows"]]
            if any(len(row) != len(t["columns"]) for row in t["rows"]):
                raise ValueError(f"table {name} has rows of the wrong width")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise BadCore(f"{path} passed its checks but its content cannot be read ({e}).") from None
    return tables


def _take(f, size: int, limit: int, path: Path) -> bytes:
    """One length-prefixed part; its length is checked against `limit` and the file's size before it is read."""
    length = struct.unpack(">I", _read(f, 4, path))[0]
    if length > limit or f.tell() + length > size:
        raise BadCore(f"{path} is damaged or truncated.")
    return _read(f, length, path)


def _read(f, n: int, path: Path) -> bytes:
    data = f.read(n)
    if len(data) < n:
        raise BadCore(f"{path} is truncated.")
    return data
