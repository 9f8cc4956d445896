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
The content is read as it inflates (core_content.py), a batch of rows at a
time, each held to what a soul of the core's schema version holds before
anything is made from it: tables it has, named columns of theirs, and values of
SQLite's own types within SQLite's ranges (text that is UTF-8, integers of 64
bits), so no name or value from the file reaches SQL unchecked. An import builds
the new soul beside the old as it reads, and puts it in place only once the
whole file has passed (store/home.py).
"""

import base64
import functools
import itertools
import json
import math
import os
import re
import secrets
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import sqlcipher3
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .. import __version__, files
from ..errors import BadCore, WrongPassphrase
from . import core_content, keys, migrations
from .kinds import SOUL_TABLES
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


def _encode(value: object) -> object:
    if isinstance(value, bytes):
        return {"$b64": base64.b64encode(value).decode("ascii")}
    return value


def _decode(value: Any) -> Any:  # a value of the content's JSON
    if isinstance(value, dict):
        if len(value) != 1 or type(value.get("$b64")) is not str:
            raise _Unfit("a value is an object that is not bytes as Anima writes them")
        return base64.b64decode(value["$b64"], validate=True)
    return value


# A table a core carries: (name, columns, its rows); the rows as they are read, or a list.
TableRows = tuple[str, list[str], Iterable[list[Any]]]
# Tables as {name: {"columns": [...], "rows": [...]}}, as dump_tables and read_core give them.
TablesDict = dict[str, dict[str, Any]]


class Tables:
    """The tables a core carries, each as (name, columns, its rows), as often as they are asked for (a core too
    compressible is written again, stored); `rows`: how many rows in all (an export's progress counts them)."""

    def __init__(self, read: Callable[[], Iterable[TableRows]], rows: int) -> None:
        self._read, self.rows = read, rows

    def __iter__(self) -> Iterator[TableRows]:
        return iter(self._read())

    @classmethod
    def of(cls, tables: TablesDict) -> "Tables":
        """From {name: {"columns": [...], "rows": [...]}}, as dump_tables and read_core give them."""
        return cls(
            lambda: ((name, t["columns"], t["rows"]) for name, t in tables.items()),
            sum(len(t["rows"]) for t in tables.values()),
        )

    @classmethod
    def read(cls, con: sqlcipher3.Connection, names: Iterable[str]) -> "Tables":
        """These tables (those the file has), read from `con` a thousand rows at a time: the connection holds one
        read transaction while the core is written, so every read sees the same soul."""
        present = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        names = [t for t in names if t in present]  # an older schema lacks the newer tables
        rows = sum(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in names)

        def read() -> Iterator[TableRows]:
            for table in names:
                cur = con.execute(f"SELECT * FROM {table} ORDER BY rowid")
                yield table, [d[0] for d in cur.description], _fetched(cur)

        return cls(read, rows)


def _fetched(cur: sqlcipher3.Cursor) -> Iterator[list[object]]:
    while rows := cur.fetchmany(_ROWS_AT_ONCE):
        for row in rows:
            yield [_encode(v) for v in row]


def dump_tables(con: sqlcipher3.Connection, tables: Iterable[str]) -> TablesDict:
    return {name: {"columns": columns, "rows": list(rows)} for name, columns, rows in Tables.read(con, tables)}


def write_core(
    path: Path,
    tables: TablesDict | Tables,
    schema_version: int,
    passphrase: str,
    progress: Progress | None = None,
    still: Callable[[], None] = lambda: None,
) -> None:
    """Write the core to `path` atomically: a partial file never takes the name.

    The rows are read, encoded, compressed, sealed and written a piece at a time: none of it is whole in memory
    (a 100,000-message soul's export peaked at 1.7 GB holding the text, the payload and the sealed file, then at
    740 MB holding its rows). `progress(rows done, rows in all)`. `still()` is called once the file is written
    and synced, just before it takes the name: whatever it raises lets the file go."""
    tables = tables if isinstance(tables, Tables) else Tables.of(tables)
    try:
        files.write_pieces_atomically(
            path, _sealed(_compressed(tables, 6, progress), schema_version, passphrase), still
        )
    except _TooCompressible:
        # Content this repetitive would be refused on import as a bomb: store it (zlib level 0, read the same
        # way), a bigger file that imports rather than a small one that never does.
        files.write_pieces_atomically(
            path, _sealed(_compressed(tables, 0, progress), schema_version, passphrase), still
        )


class _TooCompressible(Exception):
    """Raised before the last chunk is sealed: the file being written is let go, and written again stored."""


def _compressed(tables: Tables, level: int, progress: Progress | None) -> Iterator[bytes]:
    """zlib of json.dumps({"tables": ...}) as UTF-8, a piece at a time; _TooCompressible, at the end, for content
    longer than content_limit of what it compressed to."""
    deflate, length, packed, done = zlib.compressobj(level), 0, 0, 0
    for piece, rows in _json_pieces(tables):
        data = piece.encode("utf-8")
        length += len(data)
        out = deflate.compress(data)
        packed += len(out)
        yield out
        if rows and progress:
            done += rows
            progress(done, tables.rows)
    out = deflate.flush()
    if level and length > content_limit(packed + len(out)):
        raise _TooCompressible()
    yield out


_ROWS_AT_ONCE = 1000


def _json_pieces(tables: Tables) -> Iterator[tuple[str, int]]:
    """json.dumps({"tables": tables}, ensure_ascii=False), a thousand rows at a time: (text, rows in it)."""
    yield '{"tables": {', 0
    for n, (name, columns, rows) in enumerate(tables):
        yield (
            (", " if n else "")
            + f'{json.dumps(name, ensure_ascii=False)}: {{"columns": '
            + json.dumps(columns, ensure_ascii=False)
            + ', "rows": [',
            0,
        )
        rows, first = iter(rows), True
        while batch := list(itertools.islice(rows, _ROWS_AT_ONCE)):
            yield ("" if first else ", ") + json.dumps(batch, ensure_ascii=False)[1:-1], len(batch)
            first = False
        yield "]}", 0
    yield "}}", 0


def _seal(path: Path, payload: bytes, schema_version: int, passphrase: str) -> None:
    """A core of this payload (tests seal content of their own making)."""
    files.write_pieces_atomically(path, _sealed(iter([payload]), schema_version, passphrase))


def _sealed(payload: Iterator[bytes], schema_version: int, passphrase: str) -> Iterator[bytes]:
    """The core file's bytes: the header, then each chunk as it is sealed. A chunk is sealed once more of the
    payload follows it, or the payload has ended: only then is it known to be the last."""
    salt, prefix, cost = secrets.token_bytes(16), secrets.token_bytes(7), keys.wrap_cost()
    aead = AESGCM(keys.derive(passphrase, salt, cost))
    header = json.dumps(
        {
            "format": "anima-core",
            "format_version": FORMAT_VERSION,
            "schema_version": schema_version,
            "anima_version": __version__,
            "kdf": {
                "name": "scrypt",
                "n": cost.n,
                "r": cost.r,
                "p": cost.p,
                "salt": base64.b64encode(salt).decode("ascii"),
            },
            "nonce_prefix": base64.b64encode(prefix).decode("ascii"),
            # Tells a wrong passphrase apart from a damaged file.
            "check": base64.b64encode(aead.encrypt(_check_nonce(prefix), CHECK, None)).decode("ascii"),
        }
    ).encode("ascii")
    yield MAGIC + struct.pack(">I", len(header)) + header
    held, index = bytearray(), 0
    for piece in payload:
        held += piece
        while len(held) > CHUNK:
            sealed = aead.encrypt(_nonce(prefix, index, False), bytes(held[:CHUNK]), header)
            del held[:CHUNK]
            index += 1
            yield struct.pack(">I", len(sealed)) + sealed
    sealed = aead.encrypt(_nonce(prefix, index, True), bytes(held), header)
    yield struct.pack(">I", len(sealed)) + sealed


@dataclass
class CoreContents:
    schema_version: int
    tables: TablesDict


class _Header(NamedTuple):
    raw: bytes  # every chunk's associated data
    schema_version: int
    cost: keys.Cost
    salt: bytes
    prefix: bytes
    check: bytes


class Reader:
    """An open core, its header read and the passphrase checked (WrongPassphrase, BadCore); then `tables()`
    reads its content once, as it inflates. Use it as a context manager.

    What it holds is bounded by the file's size: only a regular file is read, its magic and header are checked
    from its first bytes, and each chunk is read, checked and inflated in turn, within content_limit."""

    def __init__(self, path: Path, passphrase: str, progress: Progress | None = None) -> None:
        self.path, self._progress = Path(path), progress
        self._f = _open(self.path)
        try:
            self._size = os.fstat(self._f.fileno()).st_size
            self._head = _header(self._f, self._size, self.path)
            self._aead = _unlock(passphrase, self._head, self.path)
        except BaseException as e:
            self._f.close()
            if isinstance(e, OSError):
                raise BadCore(f"{self.path} cannot be read ({e.strerror or e}).") from None
            raise
        self.schema_version = self._head.schema_version

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()

    def tables(self) -> Iterator[core_content.Table]:
        """Each table as (name, columns, rows), its rows a batch at a time (core_content.py), every name and value
        held to what a soul of the core's schema version holds before it is given. The content is checked to its
        end only as the last batch is taken: read it all before trusting what it gave (BadCore otherwise)."""
        has, path = columns_at(self.schema_version), self.path
        try:
            yield from core_content.tables(
                _inflated(self._f, self._size, self._aead, self._head, path, self._progress),
                lambda name, columns: _fit_columns(name, columns, has, self.schema_version),
                _fit_row,
            )
        except _Unfit as e:
            raise BadCore(
                f"{path} passed its checks but its content does not fit the soul's rules ({e}); nothing was imported."
            ) from None
        except OSError as e:
            raise BadCore(f"{path} cannot be read ({e.strerror or e}).") from None
        # ValueError: not JSON, or not UTF-8 (UnicodeDecodeError). RecursionError: JSON nested thousands deep.
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
            raise BadCore(f"{path} passed its checks but its content cannot be read ({_why(e)}).") from None


def read_core(path: Path, passphrase: str, progress: Progress | None = None) -> CoreContents:
    """Read and fully verify a core, whole (what it holds, in memory: a small core's, or a test's). Raises BadCore
    or WrongPassphrase; never returns part of one. An import reads it a batch at a time (Reader)."""
    with Reader(path, passphrase, progress) as reader:
        tables: TablesDict = {}
        for name, columns, rows in reader.tables():
            tables.setdefault(name, {"columns": columns, "rows": []})["rows"].extend(rows)
    return CoreContents(reader.schema_version, tables)


def _open(path: Path) -> BinaryIO:
    try:
        return files.open_regular(path)
    except FileNotFoundError:
        raise BadCore(f"There is no file {path}.") from None
    except files.NotRegularFile as e:
        raise BadCore(f"{path} is {e}, not a core file.") from None
    except OSError as e:
        raise BadCore(f"{path} cannot be read ({e.strerror or e}).") from None


def _header(f: BinaryIO, size: int, path: Path) -> _Header:
    magic = f.read(len(MAGIC))
    if magic[:10] != MAGIC[:10]:
        raise BadCore(f"{path} is not an Anima core file.")
    if len(magic) < len(MAGIC):  # cut inside the version the magic ends with: no newer version, a short file
        raise BadCore(f"{path} is truncated.")
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
            raise BadCore(
                f"{path} was exported by a newer Anima (core format {versions[0]}, "
                f"schema {versions[1]}); update Anima to import it."
            )
        # Bounded before any work: a header cannot make an import spend unbounded memory or time.
        cost = keys.Cost.read(h["kdf"])
        head = _Header(
            raw,
            versions[1],
            cost,
            base64.b64decode(h["kdf"]["salt"], validate=True),
            base64.b64decode(h["nonce_prefix"], validate=True),
            base64.b64decode(h["check"], validate=True),
        )
        if len(head.prefix) != 7:
            raise ValueError("bad nonce prefix")
        return head
    # RecursionError: JSON nested thousands deep.
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise BadCore(f"{path} is damaged (its header cannot be read: {_why(e)}).") from None


def _why(e: Exception) -> str:
    """Why a core's header or content could not be read, in words for the person rather than Python's."""
    if isinstance(e, KeyError):
        return f"{e.args[0]!s} is missing from it" if e.args else "something is missing from it"
    if isinstance(e, (TypeError, AttributeError)):
        return "a field in it holds a value of the wrong kind"
    if isinstance(e, RecursionError):
        return "it is nested thousands deep"
    if isinstance(e, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(e, ValueError) and "digits" in str(e):  # int() past Python's limit on a number's length
        return "a number in it is thousands of digits long"
    return str(e)


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


def _inflated(
    f: BinaryIO, size: int, aead: AESGCM, head: _Header, path: Path, progress: Progress | None
) -> Iterator[bytes]:
    """The inflated content, at most INFLATE_STEP at a time, each chunk checked before it is inflated; within
    content_limit(size)."""
    inflate, limit, index, total = zlib.decompressobj(), content_limit(size), 0, 0
    while True:
        if f.tell() >= size:
            raise BadCore(f"{path} is truncated: its last part is missing.")
        sealed = _take(f, size, CHUNK + 16, path)
        final = f.tell() == size
        try:
            piece = aead.decrypt(_nonce(head.prefix, index, final), sealed, head.raw)
        except InvalidTag:
            raise BadCore(f"{path} is damaged or truncated (part {index + 1} fails its check).") from None
        for out in _inflate(inflate, piece, limit - total, limit, path):
            total += len(out)
            yield out
        if progress:
            progress(f.tell(), size)
        index += 1
        if final:
            break
    if not inflate.eof or inflate.unused_data:
        raise BadCore(f"{path} passed its checks but its content cannot be read (it does not end where it should).")


def _inflate(inflate: "zlib._Decompress", piece: bytes, room: int, limit: int, path: Path) -> Iterator[bytes]:
    """One chunk inflated, at most INFLATE_STEP a step and never past the `room` left: no step is unbounded,
    and what is held is one step, not all it might inflate to."""
    try:
        while True:
            step = min(INFLATE_STEP, room + 1)
            out = inflate.decompress(piece, step)
            room -= len(out)
            if room < 0:
                raise BadCore(
                    f"{path} is damaged or hostile: its content inflates past {limit >> 20} MiB, "
                    "far more than any soul compresses into a core of its size."
                )
            if out:
                yield out
            piece = inflate.unconsumed_tail
            # A full step may leave output inside zlib even with no input left: ask again until one falls short.
            if not piece and len(out) < step:
                return
    except zlib.error as e:
        raise BadCore(f"{path} passed its checks but its content cannot be read ({e}).") from None


class _Unfit(Exception):
    """Content of the shape Anima writes holding a name or a value no soul of its schema version holds."""


@functools.cache
def columns_at(schema_version: int) -> dict[str, frozenset[str]]:
    """The soul tables a soul of this schema version has, each with its columns: read from a blank one built in
    memory by the same migrations (a core's names are checked against these before any reaches SQL)."""
    import sqlcipher3

    con = sqlcipher3.connect(":memory:", isolation_level=None)
    try:
        migrations.migrate(con, schema_version)
        present = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {t: frozenset(r[1] for r in con.execute(f"PRAGMA table_info({t})")) for t in SOUL_TABLES if t in present}
    finally:
        con.close()


def _fit_columns(table: str, columns: list[Any], has: dict[str, frozenset[str]], schema_version: int) -> None:
    if table not in has:
        raise _Unfit(
            f"it holds a table {core_content.shown(table)}, which a soul of schema {schema_version} does not have"
        )
    for column in columns:
        if type(column) is not str or column not in has[table]:
            raise _Unfit(f"table {table} names a column {core_content.shown(column)}, which it does not have")
    if len(set(columns)) != len(columns):
        raise _Unfit(f"table {table} names a column twice")
    if not columns:
        raise _Unfit(f"table {table} names no columns")


# What SQLite's INTEGER holds: a signed 64-bit number.
_INTEGER_RANGE = range(-(2**63), 2**63)
# A lone surrogate (JSON's "\ud800") is no character: it cannot be written as UTF-8, nor kept as text.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _fit_row(row: object, width: int, table: str) -> list[Any]:
    if type(row) is not list or len(row) != width:
        raise _Unfit(f"table {table} has a row that is not one value for each of its {width} columns")
    row = [_decode(v) for v in row]
    for v in row:
        kind = type(v)
        if kind is str:
            if _SURROGATE.search(v):
                raise _Unfit(f"table {table} holds text that is not valid UTF-8")
        elif kind is int:
            if v not in _INTEGER_RANGE:
                raise _Unfit(f"table {table} holds a number too large for SQLite's 64-bit integers")
        elif kind is float:
            if math.isnan(v):
                raise _Unfit(f"table {table} holds a number that is not a number (NaN)")
        elif v is not None and kind is not bytes:
            raise _Unfit(f"table {table} holds a value of a kind SQLite does not keep ({kind.__name__})")
    return row


def _take(f: BinaryIO, size: int, limit: int, path: Path) -> bytes:
    """One length-prefixed part; its length is checked against `limit` and the file's size before it is read."""
    length = struct.unpack(">I", _read(f, 4, path))[0]
    if length > limit or f.tell() + length > size:
        raise BadCore(f"{path} is damaged or truncated.")
    return _read(f, length, path)


def _read(f: BinaryIO, n: int, path: Path) -> bytes:
    data = f.read(n)
    if len(data) < n:
        raise BadCore(f"{path} is truncated.")
    return data
