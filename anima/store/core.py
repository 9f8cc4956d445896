"""The portable core: the whole soul in one file, encrypted under an export passphrase.

Layout (all integers big-endian):

    MAGIC (12 bytes) | header length (u32) | header (JSON) | chunk* 
    chunk = ciphertext length (u32) | AES-256-GCM ciphertext of up to 1 MiB

The header carries the format, the schema version, and the scrypt salt and
cost (keys.Cost: a core written at an older cost still imports; a cost beyond
keys' bounds is refused before any work); it is authenticated as every chunk's associated data. Each chunk's nonce
is a random prefix, the chunk's index and a final-chunk flag, so a reordered,
truncated or extended file fails authentication. The payload is zlib-compressed
JSON of every soul table's rows. No vector index is ever carried: vectors are
rows, and the index is rebuilt from them after import.
"""

import base64
import json
import secrets
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

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
    payload = zlib.compress(json.dumps({"tables": tables}, ensure_ascii=False).encode("utf-8"), 6)
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


def read_core(path: Path, passphrase: str, progress: Progress | None = None) -> CoreContents:
    """Read and fully verify a core. Raises BadCore or WrongPassphrase; never returns part of one."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise BadCore(f"There is no file {path}.") from None
    except IsADirectoryError:
        raise BadCore(f"{path} is a folder, not a core file.") from None
    if not data.startswith(MAGIC[:10]):
        raise BadCore(f"{path} is not an Anima core file.")
    if not data.startswith(MAGIC):
        raise BadCore(f"{path} is a core from a newer version of Anima; update Anima to import it.")
    pos = len(MAGIC)
    header, pos = _take(data, pos, MAX_HEADER, path)
    try:
        h = json.loads(header)
        if h.get("format") != "anima-core":
            raise ValueError("not a core header")
        if h["format_version"] > FORMAT_VERSION or h["schema_version"] > SCHEMA_VERSION:
            raise BadCore(f"{path} was exported by a newer Anima (core format {h['format_version']}, "
                          f"schema {h['schema_version']}); update Anima to import it.")
        k = h["kdf"]
        if k.get("name") != "scrypt":
            raise ValueError(f"key derivation {k.get('name')!r} is not supported")
        salt = base64.b64decode(k["salt"], validate=True)
        prefix = base64.b64decode(h["nonce_prefix"], validate=True)
        # Bounded before any work: a header cannot make an import spend unbounded memory or time.
        cost = keys.Cost(int(k["n"]), int(k["r"]), int(k["p"])).bounded()
        check = base64.b64decode(h["check"], validate=True)
        if len(prefix) != 7:
            raise ValueError("bad nonce prefix")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise BadCore(f"{path} is damaged (its header cannot be read: {e}).") from None
    aead = AESGCM(keys.derive(passphrase, salt, cost))
    try:
        aead.decrypt(_check_nonce(prefix), check, None)
    except InvalidTag:
        raise WrongPassphrase(f"the core {path}") from None
    pieces, index = [], 0
    while True:
        if pos >= len(data):
            raise BadCore(f"{path} is truncated: its last part is missing.")
        sealed, pos = _take(data, pos, CHUNK + 16, path)
        final = pos == len(data)
        try:
            pieces.append(aead.decrypt(_nonce(prefix, index, final), sealed, header))
        except InvalidTag:
            raise BadCore(f"{path} is damaged or truncated (part {index + 1} fails its check).") from None
        if progress:
            progress(pos, len(data))
        index += 1
        if final:
            break
    try:
        body = json.loads(zlib.decompress(b"".join(pieces)))
        tables = body["tables"]
        for name, t in tables.items():
            t["rows"] = [[_decode(v) for v in row] for row in t["rows"]]
            if any(len(row) != len(t["columns"]) for row in t["rows"]):
                raise ValueError(f"table {name} has rows of the wrong width")
    except (ValueError, KeyError, TypeError, zlib.error) as e:
        raise BadCore(f"{path} passed its checks but its content cannot be read ({e}).") from None
    return CoreContents(int(h["schema_version"]), tables)


def _take(data: bytes, pos: int, limit: int, path) -> tuple[bytes, int]:
    if pos + 4 > len(data):
        raise BadCore(f"{path} is truncated.")
    (length,) = struct.unpack(">I", data[pos:pos + 4])
    if length > limit or pos + 4 + length > len(data):
        raise BadCore(f"{path} is damaged or truncated.")
    return data[pos + 4:pos + 4 + length], pos + 4 + length
