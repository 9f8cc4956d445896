"""The soul store: one SQLCipher 4 database per companion.

Every connection starts with `PRAGMA key`, then WAL, synchronous=FULL and
foreign keys. Writes go through short transactions that also record the edit
history (who, when, before, after). SQLite's errors are translated here into
the `KnownError` family where they are the user's or the disk's doing.
"""

import enum
import json
import logging
import re
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, overload

import sqlcipher3

from .. import paths
from ..errors import (
    DamagedSoul,
    DiskError,
    DiskFull,
    ForgottenMeanwhile,
    ForgottenWhileExporting,
    InvalidEdit,
    NoAccess,
    NotFound,
    ReadOnlyRecord,
    SoulBusy,
    SoulClosed,
    failing_disk,
    full_disk,
)
from . import clock, forget, ids, migrations, wal
from .forget import Forgotten
from .kinds import KINDS
from .kinds import kind as _kind_of
from .provenance import Provenance

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

log = logging.getLogger(__name__)


class Held(Protocol):
    """What a soul lets go when it closes: the home's presence lock (store/locks.py, which reads this module's
    wording, so the soul names it by what it does)."""

    def release(self) -> None: ...


def now() -> str:
    return clock.now().isoformat(timespec="microseconds")


def raw_key_pragma(key: bytes) -> str:
    # A raw 256-bit key: SQLCipher skips its own PBKDF2 (our key file did the stretching).
    return f"PRAGMA key = \"x'{key.hex()}'\""


def _keyed(con: sqlcipher3.Connection, key: bytes) -> None:
    """What every connection to a soul sets first: the key, quiet logs, temp tables in memory (nothing plaintext on
    disk), and the busy timeout."""
    # SQLCipher writes its own lines to stderr for a page that fails its check (a wrong key, damage); the error it
    # returns becomes one clear sentence (translate), and that is all a terminal should show.
    con.execute("PRAGMA cipher_log_level = NONE").fetchall()
    con.execute(raw_key_pragma(key))
    con.execute("PRAGMA temp_store = MEMORY")
    con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def translate(e: sqlcipher3.Error, path: Path | None = None) -> Exception:
    """Turn SQLite's error into the KnownError it stands for, or return it unchanged (a bug)."""
    text = str(e).lower()
    where = f" ({path})" if path else ""
    if "disk is full" in text or "database or disk is full" in text:
        return DiskFull(full_disk(f"{UNSAVED}{where}"))
    if _primary(e) in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return SoulBusy(
            f"Another program on this soul kept it busy for over {BUSY_TIMEOUT_MS // 1000} s{where}: "
            "nothing of this change was saved. Try again in a moment."
        )
    if _primary(e) in (_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_CANTOPEN):
        # A home on a read-only disk, or a file or folder not this user's to write: a traceback said so before.
        doing = "write" if _primary(e) == _SQLITE_READONLY else "open"
        return NoAccess(
            f"Anima cannot {doing} the soul file{where}: the disk holding it is read-only, or the file "
            "or its folder is not yours to read and write. Nothing was changed. Give this user access "
            "(or move the folder where it can write), then try again."
        )
    if path is not None and _primary(e) == _SQLITE_IOERR:
        # Writing the WAL or growing the -shm on a nearly full disk fails as a bare I/O error.
        return translate_disk(e, path, UNSAVED)
    # A bare DatabaseError (no subclass) is SQLite's CORRUPT or NOTADB: with a verified key, that is damage.
    if type(e) is sqlcipher3.DatabaseError or "malformed" in text or "not a database" in text:
        return DamagedSoul(
            f"The soul file{where} is damaged and fails its integrity check: {e}. "
            "It was not changed; restore it from an exported core."
        )
    if "append-only" in text:
        return ReadOnlyRecord(
            "The growth log is append-only: its entries cannot be changed or removed "
            "(only a user's forget removes one)."
        )
    if isinstance(e, sqlcipher3.IntegrityError):
        return InvalidEdit(f"That change breaks a rule of the store ({e}); the old value is kept.")
    return cast(Exception, e)  # a sqlcipher3.Error (the library has no types)


# Below this much free space, a disk that fails a read or write is taken to be full: SQLite reports a full disk
# as a bare I/O error when it makes the -shm file or truncates the WAL, which opening and closing do.
NEARLY_FULL = 64 * 1024 * 1024
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = (
    3,
    5,
    6,
    8,
    10,
    13,
    14,
)
# How long a write waits for another program's write to end. Longer than a forget on a large soul holds the write
# lock (it rebuilds the file, forget.rewrite_file: 8.6-9.4 s at 100,000 messages, its copy made beside the soul;
# about three years of talk at that pace): another program's turn waits for it rather than telling the person
# nothing was saved. Writes never run on the window's thread.
BUSY_TIMEOUT_MS = 30000
# How long closing, or the scrub after a forget, waits for another program's readers to let go of the WAL
# before leaving it as it is (at the full busy timeout, then 5 s, a forget kept the person waiting all of it, measured).
CLOSING_WAIT_MS = 250
UNSAVED = "nothing of this change was saved"
OPENING = "the soul was not opened, and nothing in it was changed"
# The key file opened with the passphrase, and the soul file's first page does not: restoring an old core over it,
# as for damage, would throw away a soul that may be whole (it may only sit beside another companion's key).
MISMATCHED = (
    "The soul file {path} does not open with the key beside it (soul.key): the two come from different "
    "companions (one copied from another home), or the start of the soul file is damaged. Nothing was "
    "changed. If files were copied, put the soul.key that came with this soul.db beside it; if not, "
    "restore the soul from an exported core."
)
CREATING = "no soul was made, and nothing half-made is left"
CLOSING = (
    "everything already saved is kept (in {name}-wal), and is folded into the soul the next time it opens "
    "with room to spare"
)


def free_bytes(folder: Path) -> int | None:
    """What the disk holding `folder` has free for this user, or None when it cannot be told. (shutil's, not
    os.statvfs: Windows has no statvfs, and every forget there raised AttributeError after committing.)"""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def translate_disk(e: sqlcipher3.Error, path: Path, outcome: str) -> Exception:
    """At open and at close: a full disk or a failing one as the KnownError it is (`outcome`: what that left);
    anything else as translate() has it."""
    if _primary(e) not in (_SQLITE_IOERR, _SQLITE_FULL):
        return translate(e, path)
    free = free_bytes(path.parent)
    if _primary(e) == _SQLITE_FULL or (free is not None and free < NEARLY_FULL):
        return DiskFull(full_disk(outcome, path.parent, free))
    return DiskError(failing_disk(path, e, outcome))


def _empty(path: Path) -> bool:
    """An empty database file with no write-ahead log beside it to fill it from."""
    try:
        wal = Path(f"{path}-wal")
        return path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0)
    except OSError:
        return False  # opening says what is wrong with it


def _check_log(path: Path, key: bytes) -> None:
    """A WAL beside the soul, read through a read-only connection first (store/wal.py): one that is not this
    soul's is refused before a connection that would fold it in is opened."""
    con = sqlcipher3.connect(
        path.absolute().as_uri() + "?mode=ro", uri=True, isolation_level=None, check_same_thread=False
    )
    try:
        _keyed(con, key)
        con.execute("BEGIN")  # a read transaction: no other program begins the log again while it is checked
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        foreign = wal.foreign_frames(path, key)
        con.execute("COMMIT")
    except sqlcipher3.Error as e:
        error = translate_disk(e, path, OPENING)
        if isinstance(error, DamagedSoul):
            error = DamagedSoul(
                f"The soul file {path}, or the write-ahead log beside it ({path.name}-wal), fails its "
                f"check: {e}. Nothing was changed. If {path.name}-wal came from elsewhere (another "
                "soul's, a copy, one left by an interrupted import) and no Anima program is running, "
                "move it out of the folder and open the companion again; if not, restore the soul "
                "from an exported core."
            )
        raise error from e
    finally:
        con.close()  # read-only: it folds nothing in
    if foreign:
        pages = "1 of its pages does" if foreign == 1 else f"{foreign} of its pages do"
        raise DamagedSoul(
            f"The write-ahead log beside the soul ({path.name}-wal) was not written for this soul file: "
            f"{pages} not open with its key (another soul's log: one an import replaced, or copied "
            "from elsewhere). Folded in, it would damage the soul, so nothing was changed. If no Anima "
            f"program is running, move {path.name}-wal and {path.name}-shm out of {path.parent}, then "
            "open the companion again."
        )


def _primary(e: sqlcipher3.Error) -> int | None:
    """SQLite's primary result code: an extended one (SQLITE_IOERR_WRITE is 778) keeps it in its low byte."""
    code = getattr(e, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


class Standing(enum.Enum):
    """Where the soul stands while its lock is held (Soul.held)."""

    CLOSED = "closed"
    IN_TRANSACTION = "in a transaction"  # the lock holder's own: its end is not known yet
    IDLE = "idle"  # open, between transactions: reads see only what is committed


# A row of the soul's database, by column name (Soul.query).
Row = dict[str, Any]
# What a statement's ? or :name stand for.
Params = Sequence[object] | Mapping[str, object]

# SQLite takes so many parameters in one statement (999 in builds before 3.32): longer lists go in chunks.
IN_CHUNK = 500
# The condition an item of a made-again kind (kinds.Kind.made_again) meets while it stands: not flagged by a forget.
STANDING = "needs_regeneration = 0 AND "


def by_kind(keys: Iterable[tuple[str, int]]) -> dict[str, list[int]]:
    """(kind, id) keys grouped as kind -> ids, in their order."""
    out: dict[str, list[int]] = {}
    for kind, item_id in keys:
        out.setdefault(kind, []).append(item_id)
    return out


class Soul:
    """An open, unlocked soul database. Thread-safe: one connection behind a lock."""

    def __init__(self, path: Path, key: bytes, *, create: bool = False, migrate_to: int | None = None):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise DamagedSoul(f"The soul file {self.path} is missing.")
        if not create and (other := paths.not_a_file(self.path)):
            # SQLite cannot open a folder ("unable to open database file"), and reads a device (/dev/zero) as empty.
            raise DamagedSoul(
                f"The soul file {self.path} is {other}, not a regular file, so the companion cannot be "
                "opened; nothing was changed. Put the soul file back, or restore it from an exported "
                "core."
            )
        if not create and _empty(self.path):
            # SQLite takes an empty file for a new database: opened, it would become a blank companion in place
            # of the one that was there.
            raise DamagedSoul(
                f"The soul file {self.path} is empty (0 bytes): it was cut short or overwritten, and "
                "is not the companion. It was not changed; restore it from an exported core."
            )
        self._lock = threading.RLock()
        self._key = key  # a long read (an export) opens a connection of its own: reading()
        self._readers: dict[int, int] = {}  # the threads reading through a connection of their own, how many each
        self._read = threading.Condition(self._lock)  # a reading() ended: close() waits for the last
        self._forget_listeners: list[Callable[[str, int], None]] = []
        self._scrub_pending = False  # a forget's scrub owed: just committed, or put off by a full disk (_scrub)
        self._wal_pending = False  # a forget's words still in the WAL, which a reader kept from being emptied
        self._rewrite_pending = False  # a forget's file not rebuilt yet, no room then (_scrub, forget.REWRITE_DUE)
        self._worked_since = threading.local()  # per thread: the forget count its work began at (unforgotten)
        # What waits for the open transaction to commit (a forget made inside a longer one: _forgotten), and is
        # dropped if it rolls back. Only the thread holding the lock, in its transaction, touches it.
        self._on_commit: list[Callable[[], None]] = []
        # Made by this open: a soul being built under a staging name (a create, an import), which its maker
        # removes if closing fails; nothing of it is "kept in its WAL" then.
        self._made = create
        if not create and (strange := wal.not_sqlites(self.path)):
            raise DamagedSoul(
                f"{strange} beside the soul is not a file SQLite made (a folder, a pipe, a link to "
                "nowhere or to a device), so the companion cannot be opened; nothing was changed. If no "
                "Anima program is running, move it out of the folder and open the companion again."
            )
        if not create and wal.logged(self.path):
            _check_log(self.path, key)
        try:
            self.con = sqlcipher3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        except sqlcipher3.Error as e:  # a file it cannot open (a read-only disk, permissions): said, not raised
            raise translate_disk(e, self.path, CREATING if create else OPENING) from e
        try:
            _keyed(self.con, key)
            # Reading the schema proves the key: SQLCipher decrypts and checks page 1's HMAC.
            self.con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            self.con.execute("PRAGMA foreign_keys = ON")
            self.con.execute("PRAGMA journal_mode = WAL").fetchone()
            self.con.execute("PRAGMA synchronous = FULL")
            self.con.execute("PRAGMA secure_delete = ON")  # freed pages zeroed
            migrations.migrate(self.con, migrations.SCHEMA_VERSION if migrate_to is None else migrate_to)
            # A forget's rebuild that a program put off for want of room and did not finish before it closed.
            self._rewrite_pending = (
                self.con.execute("SELECT 1 FROM meta WHERE key = ?", (forget.REWRITE_DUE,)).fetchone() is not None
            )
        except sqlcipher3.Error as e:
            self.con.close()
            if not create and "not a database" in str(e).lower():  # page 1 fails under a key its key file vouches for
                raise DamagedSoul(MISMATCHED.format(path=self.path)) from e
            raise translate_disk(e, self.path, CREATING if create else OPENING) from e
        except BaseException:
            self.con.close()
            raise

    # ---- plumbing -------------------------------------------------------

    # The home's presence lock (store/locks.py), when Home opened this soul: let go once the file is closed.
    presence: Held | None = None

    def close(self) -> None:
        with self._lock:
            if self.con is None:
                return
            # A long read (an export) on a connection of its own holds the WAL: it ends first, or the checkpoint
            # could not empty it and the presence lock would be let go with the file still open (another program
            # could then put another soul in its place, under this one's WAL).
            if threading.get_ident() in self._readers:
                raise RuntimeError("a soul closed from inside its own reading()")
            while self._readers:
                self._read.wait()
            if self.con is None:  # closed by another thread meanwhile
                return
            try:
                if self._scrub_due():  # inside: whatever it meets, the file is closed and the presence let go
                    self._scrub()
                # While another program reads the file, the checkpoint cannot finish: at the full busy timeout it
                # waited 5 s (measured) and then gave up anyway. What stays in the WAL is safe there, and is
                # folded in by the program that closes last; closing need not keep a person waiting for it.
                self.con.execute(f"PRAGMA busy_timeout = {CLOSING_WAIT_MS}")
                self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlcipher3.Error as e:
                raise translate_disk(
                    e, self.path, CREATING if self._made else CLOSING.format(name=self.path.name)
                ) from e
            finally:
                self.con.close()
                self.con = None
                if self.presence is not None:
                    self.presence.release()

    def _open(self) -> sqlcipher3.Connection:
        """The connection, under the lock; a clear error, not an AttributeError, once the soul is closed."""
        if self.con is None:
            raise SoulClosed()
        return self.con

    @contextmanager
    def held(self) -> Iterator[Standing]:
        """Its lock, for a few reads and writes that must see one state of the file with no other thread of
        this program between them (the vector index catching up); yields where the soul stands meanwhile."""
        with self._lock:
            if self.con is None:
                yield Standing.CLOSED
            else:
                yield Standing.IN_TRANSACTION if self.con.in_transaction else Standing.IDLE

    def writes(self) -> tuple[int, int]:
        """A mark of everything written to the file so far, by this program and by others: the same mark twice
        means nothing was written in between."""
        with self._lock:
            mine = self.con.total_changes if self.con is not None else -1
        return mine, self.data_version()

    def data_version(self) -> int:
        """SQLite's count that changes when another connection (another program) commits to the file."""
        return cast(int, self.query("PRAGMA data_version")[0]["data_version"])

    def __enter__(self) -> "Soul":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlcipher3.Connection]:
        """A short write transaction; SQLite errors come out as KnownErrors where they are one. Opened inside
        one of this thread's own transactions it is part of that one: all of it is written, or none."""
        with self._lock:
            con = self._open()
            if con.in_transaction:  # only this thread can be in one: the lock is held for its whole length
                yield con
                return
            try:
                con.execute("BEGIN IMMEDIATE")
            except sqlcipher3.Error as e:
                raise translate(e, self.path) from e
            try:
                since = getattr(self._worked_since, "forgets", None)
                if since is not None and forget.forgets(con) != since:  # read under the write lock: no forget
                    raise ForgottenMeanwhile()  # can commit between the look and the write
                yield con
                con.execute("COMMIT")
            except sqlcipher3.Error as e:
                self._on_commit = []
                self._rollback()
                raise translate(e, self.path) from e
            except BaseException:
                self._on_commit = []
                self._rollback()
                raise
            committed, self._on_commit = self._on_commit, []
            try:
                for then in committed:
                    then()
            finally:  # a forget's scrub, owed by what was committed, whatever a callback met
                if self._scrub_due():  # a write found room: so may the scrub a full disk put off
                    self._scrub()
                elif self._wal_pending:
                    self._empty_wal_now()

    @contextmanager
    def unforgotten(self) -> Iterator[None]:
        """Work that reads the soul, thinks, then writes what it made of it (learning, reflection, in one thread):
        each write transaction the thread opens meanwhile raises ForgottenMeanwhile, before anything is written,
        once a forget has committed since the work began, in this program or another. What it read may have held
        what went, and a line learned or an episode summed up from it would bring it back (this program's own
        forgets stop such work first; another program's cannot)."""
        before = getattr(self._worked_since, "forgets", None)
        self._worked_since.forgets = self.forgets()
        try:
            yield
        finally:
            self._worked_since.forgets = before

    def _rollback(self) -> None:
        # SQLite has already rolled back after some errors (a full disk, an I/O error); a ROLLBACK that fails
        # too must not hide the error that caused it: the journal undoes the rest at the next open.
        if self.con.in_transaction:
            try:
                self.con.execute("ROLLBACK")
            except sqlcipher3.Error:
                log.warning("rollback failed after a failed write; the WAL keeps only what was committed")

    def query(self, sql: str, params: Params = ()) -> list[Row]:
        with self._lock:
            try:
                cur = self._open().execute(sql, params)
                cols = [d[0] for d in cur.description or ()]
                return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]
            except sqlcipher3.Error as e:
                raise translate(e, self.path) from e

    @contextmanager
    def reading(self) -> Iterator[sqlcipher3.Connection]:
        """A connection of its own, in one read transaction: one snapshot of the file for a long read (the
        portable core, written as it is read), while this program's other threads go on reading and writing
        through the soul's own connection (WAL: a reader and a writer do not wait for each other). Closing the
        soul waits for it to end."""
        me = threading.get_ident()
        with self._lock:
            self._open()  # SoulClosed, once closed
            self._readers[me] = self._readers.get(me, 0) + 1
        try:
            con = sqlcipher3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            try:
                _keyed(con, self._key)
                con.execute("BEGIN")  # deferred: the snapshot is taken at the first read, and kept to the end
                con.execute("SELECT count(*) FROM sqlite_master").fetchone()
                yield con
            finally:
                con.close()  # a read transaction: nothing to commit
        except sqlcipher3.Error as e:
            raise translate(e, self.path) from e
        finally:
            with self._lock:
                self._readers[me] -= 1
                if not self._readers[me]:
                    del self._readers[me]
                self._read.notify_all()

    def schema_version(self) -> int:
        return cast(int, self.query("SELECT max(version) AS v FROM schema_migrations")[0]["v"])

    def check(self) -> None:
        """Full integrity check of the file (page HMACs and the b-trees); DamagedSoul if anything fails."""
        with self._lock:
            try:
                con = self._open()
                bad_pages = con.execute("PRAGMA cipher_integrity_check").fetchall()
                result = con.execute("PRAGMA integrity_check").fetchall()
            except sqlcipher3.Error as e:
                raise translate(e, self.path) from e
        if bad_pages or result != [("ok",)]:
            # The b-trees' "ok" is no part of what is wrong (pages past the soul's end fail only their HMACs).
            detail = "; ".join(str(r[0]) for r in (bad_pages + (result if result != [("ok",)] else []))[:5])
            raise DamagedSoul(f"The soul file {self.path} is damaged: {detail}. It was not changed.")

    # ---- meta -----------------------------------------------------------

    @overload
    def get_meta(self, key: str, default: str) -> str: ...
    @overload
    def get_meta(self, key: str, default: None = None) -> str | None: ...
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else default

    def get_int(self, key: str, default: int) -> int:
        """A setting or a mark kept as a whole number. One that is not (a core from elsewhere, an edit by hand) is
        read as `default` and said in the log: every command failed on it ("often" as how often to reflect)."""
        value = self.get_meta(key)
        if value is None:
            return default
        try:
            return int(value)
        except ValueError:
            log.warning("the soul's %s is not a whole number; %d is used instead", key, default)
            return default

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as con:
            con.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ---- records, with their edit history --------------------------------

    def add(self, kind: str, actor: str, /, provenance: Provenance | None = None, **fields: object) -> int:
        """Store a new item, with where it came from (store/provenance.py) when that is known."""
        table, allowed = _kind(kind)
        _check_fields(kind, fields, allowed)
        cols = list(fields)
        with self.transaction() as con:
            cur = con.execute(
                f"INSERT INTO {table}(id, {', '.join(cols)}) "
                f"VALUES ({ids.new_id(table)}, {', '.join('?' * len(cols))})",
                [fields[c] for c in cols],
            )
            item_id: int = cur.lastrowid
            if provenance is not None:
                con.execute(
                    "INSERT INTO provenance VALUES (?, ?, ?, ?, ?)",
                    (kind, item_id, provenance.source.value, provenance.message_id, provenance.detail),
                )
            # The messages table is itself the conversation's log; other kinds record their creation.
            if kind != "message":
                self._record(con, actor, kind, item_id, "create", None, fields)
        return item_id

    def get(self, kind: str, item_id: int) -> Row:
        table, _ = _kind(kind)
        rows = self.query(f"SELECT * FROM {table} WHERE id = ?", (item_id,))
        if not rows:
            raise NotFound(f"There is no {kind.replace('_', ' ')} #{item_id}.")
        return rows[0]

    def update(self, kind: str, item_id: int, actor: str, /, **fields: object) -> Row:
        """Change some fields of one item; returns the row as it was before."""
        table, allowed = _kind(kind)
        _check_fields(kind, fields, allowed)
        with self.transaction() as con:
            before = _row(con, table, item_id)
            if before is None:
                raise NotFound(f"There is no {kind.replace('_', ' ')} #{item_id}.")
            sets = ", ".join(f"{c} = ?" for c in fields)
            con.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*fields.values(), item_id])
            self._record(con, actor, kind, item_id, "update", {c: before[c] for c in fields}, fields)
        return before

    def provenance(self, kind: str, item_id: int) -> Row | None:
        rows = self.query(
            "SELECT source, message_id, detail FROM provenance WHERE item_kind = ? AND item_id = ?", (kind, item_id)
        )
        return rows[0] if rows else None

    def history(self, kind: str | None = None, item_id: int | None = None) -> list[Row]:
        sql, params = "SELECT * FROM edit_history", []
        if kind is not None:
            sql += " WHERE item_kind = ?" + (" AND item_id = ?" if item_id is not None else "")
            params = [kind] + ([item_id] if item_id is not None else [])
        return self.query(sql + " ORDER BY id", params)

    def _record(
        self,
        con: sqlcipher3.Connection,
        actor: str,
        kind: str,
        item_id: int,
        op: str,
        before: Mapping[str, object] | None,
        after: Mapping[str, object] | None,
    ) -> None:
        if actor not in ("user", "ai"):
            raise ValueError(f"actor must be 'user' or 'ai', not {actor!r}")
        con.execute(
            "INSERT INTO edit_history(id, at, actor, item_kind, item_id, op, before, after) "
            f"VALUES ({ids.new_id('edit_history')}, ?,?,?,?,?,?,?)",
            (now(), actor, kind, item_id, op, _json(before), _json(after)),
        )

    # ---- evidence links ---------------------------------------------------

    def cite(self, owner_kind: str, owner_id: int, item_kind: str, item_id: int, stance: str | None = None) -> None:
        """`stance`: 'for' or 'against', for a rule's evidence (migrations.m012_evidence_stance)."""
        _kind(owner_kind), _kind(item_kind)
        row = {"owner_kind": owner_kind, "owner_id": owner_id, "item_kind": item_kind, "item_id": item_id}
        if stance is not None:  # a soul upgraded part way (the tests' old schemas) has no such column
            row["stance"] = stance
        with self.transaction() as con:
            con.execute(
                f"INSERT OR IGNORE INTO evidence({', '.join(row)}) VALUES ({', '.join(':' + c for c in row)})", row
            )

    def citations(self, owner_kind: str, owner_id: int) -> list[tuple[str, int]]:
        rows = self.query(
            "SELECT item_kind, item_id FROM evidence WHERE owner_kind = ? AND owner_id = ?", (owner_kind, owner_id)
        )
        return [(r["item_kind"], r["item_id"]) for r in rows]

    # ---- embeddings -------------------------------------------------------

    def put_vector(self, kind: str, item_id: int, model: str, vector: "ArrayLike") -> None:
        self.put_vectors(kind, [item_id], model, [vector])

    def put_vectors(self, kind: str, item_ids: list[int], model: str, vectors: Iterable["ArrayLike"]) -> None:
        """Store (or replace) the embeddings of some items of one kind, in one transaction; only of items still
        stored: re-indexing embeds rows read seconds before, and another program may have forgotten one since
        (its vector, left behind, would be a trace of it that nothing removes)."""
        import numpy as np

        item_ids = list(item_ids)
        with self.transaction() as con:
            present = {i for _, i in self.present((kind, i) for i in item_ids)}  # read in this transaction
            rows = []
            for item_id, vector in zip(item_ids, vectors, strict=False):  # as before: no check of their lengths
                if item_id in present:
                    v = np.asarray(vector, dtype="<f4").ravel()
                    rows.append((kind, item_id, model, v.size, v.tobytes()))
            con.executemany(
                "INSERT INTO embeddings VALUES (?, ?, ?, ?, ?) ON CONFLICT(item_kind, item_id) "
                "DO UPDATE SET model = excluded.model, dim = excluded.dim, vector = excluded.vector",
                rows,
            )

    # ---- forgetting -------------------------------------------------------

    def on_forget(self, listener: Callable[[str, int], None]) -> None:
        """Called after an item is forgotten, so in-memory indexes drop it too."""
        self._forget_listeners.append(listener)

    def forget(self, kind: str, item_id: int) -> Forgotten:
        """Forget one item and what was derived from it alone; says what went. Inside a longer transaction of
        this thread (deep reflection making an episode again in place of one) it is part of it: the indexes drop
        the item and the file is scrubbed once that commits, and never if it rolls back."""
        gone = forget.Forgotten()
        with self.transaction() as con:
            blank = forget.blanked(con, kind, item_id)
            gone.items = forget.forget_item(con, kind, item_id, gone.lines, gone.flagged)
            gone.edits = gone.lines.pop("edit_history", 0)
            # A blanked item going (deep reflection made it again, or found nothing left) takes no words: the
            # forget that blanked it took them, its vector and its edits, and every program dropped it for that
            # one. Counted again, it would cost every live session its computed prompt; scrubbed again, a rebuild
            # of the whole file (8.7 s at 100,000 messages) with the write lock held.
            if not (blank and gone.total == 1 and not gone.flagged):
                self._count_forget(con, gone)
        return gone

    def forget_traces(self, pattern: re.Pattern[str]) -> Forgotten:
        """Forget what the companion wrote with words that only a forgotten message held (store/forget.py
        forget_traces); a forget when anything went."""
        with self.transaction() as con:
            gone = forget.forget_traces(con, pattern)
            if gone.total or gone.flagged:
                self._count_forget(con, gone)
        return gone

    def forget_person(self, name: str) -> Forgotten:
        """Forget everything whose own words name a person (store/forget.py); says what went, by kind."""
        with self.transaction() as con:
            gone = forget.forget_person(con, name)
            self._count_forget(con, gone)
        return gone

    def _count_forget(self, con: sqlcipher3.Connection, gone: Forgotten) -> None:
        """In the forget's transaction: it is counted (forget.counted), and once it commits the indexes and the
        file are rid of what went. Work under unforgotten() that made this forget itself knows what went: its
        next writes are not refused for it."""
        forget.counted(con, gone)
        mine = forget.forgets(con)
        working = getattr(self._worked_since, "forgets", None) is not None

        def then() -> None:
            if working:
                self._worked_since.forgets = mine
            self._forgotten(gone.taken)

        self._on_commit.append(then)

    def forgets(self) -> int:
        """How many forgets this soul has seen, by any program: a change means something held may be gone."""
        with self._lock:
            try:
                return forget.forgets(self._open())
            except sqlcipher3.Error as e:
                raise translate(e, self.path) from e

    def forgot_nothing_since(self, forgets: int) -> None:
        """ForgottenWhileExporting when a forget was committed (by any program) since the soul's count of them was
        `forgets`: what is being written from the soul as it was would still hold what went."""
        if self.forgets() != forgets:
            raise ForgottenWhileExporting()

    def flagged(self, kind: str) -> list[int]:
        """The items of a flaggable kind a forget flagged (something they cite went), oldest first."""
        table, _ = _kind(kind)
        return [r["id"] for r in self.query(f"SELECT id FROM {table} WHERE needs_regeneration = 1 ORDER BY id")]

    def present(self, keys: Iterable[tuple[str, int]], *, standing: bool = False) -> set[tuple[str, int]]:
        """Those of these (kind, id) keys whose item is still stored; `standing`: and not flagged to be made
        again (kinds.Kind.made_again), which stands for nothing until it is."""
        return {
            (kind, r["id"])
            for kind, item_ids in by_kind(keys).items()
            for r in self.query_in(
                f"SELECT id FROM {_kind(kind)[0]} WHERE "
                f"{STANDING if standing and KINDS[kind].made_again else ''}id IN ({{ids}})",
                item_ids,
            )
        }

    def query_in(self, sql: str, ids: Iterable[int], params: Sequence[object] = ()) -> list[Row]:
        """The rows of `sql` for any number of ids: its `{ids}` takes them IN_CHUNK at a time, after `params`."""
        ids, out = list(ids), []
        for i in range(0, len(ids), IN_CHUNK):
            chunk = ids[i : i + IN_CHUNK]
            out += self.query(sql.format(ids=",".join("?" * len(chunk))), [*params, *chunk])
        return out

    def _forgotten(self, keys: list[tuple[str, int]]) -> None:
        # The forget is committed: its scrub is owed, and the transaction that committed it runs it once, however
        # many forgets it held; the in-memory indexes drop it first.
        self._scrub_pending = True
        for kind, item_id in keys:
            for listener in self._forget_listeners:
                listener(kind, item_id)

    def scrub(self) -> None:
        """What a forget does once it is committed, for another change that took text out for good (a card's
        secret, interchange/card_kept.keep_stored): the full-text indexes merged, the file rebuilt, the WAL emptied."""
        self._scrub()

    def _scrub_due(self) -> bool:
        """A forget's scrub owed (just committed, or put off by a full disk), or its rebuild put off by a disk
        without room for it, that may run now."""
        return self._scrub_pending or (self._rewrite_pending and self._room_to_rewrite())

    def _room_to_rewrite(self) -> bool:
        free = free_bytes(self.path.parent)
        try:
            return free is not None and free > forget.room_to_rewrite(self.path.stat().st_size)
        except OSError:
            return False

    def _scrub(self) -> None:
        """Merge the full-text indexes, rebuild the file (forget.rewrite_file) and empty the WAL after a forget.
        On a full disk, or while another program keeps writing past the busy timeout, the forget stands (it was
        committed; saying "nothing was saved" would be untrue) and the scrub is tried again after the next write
        and at close, so the forgotten words do not linger in the index's old segments or in free space. While
        another program reads the soul the WAL cannot be emptied: the forget waits CLOSING_WAIT_MS for it, not the
        busy timeout, and the WAL is emptied after this program's next write (_empty_wal_now) or at the latest
        when the last program closes the soul."""
        with self._lock:
            try:
                forget.merge_segments(self.con)  # writes: they wait for another program's writes as any write does
                # The copies of forgotten rows that secure_delete leaves. Without room, the forget and the rest of
                # its scrub stand, and the rebuild waits until a write or closing finds room.
                self._rewrite_pending = not self._room_to_rewrite()
                if self._rewrite_pending:
                    log.warning(
                        "a forget is committed; the file is rebuilt without its leftovers once the disk "
                        "has room for a copy of it"
                    )
                else:
                    forget.rewrite_file(self.con, self.path)
                self.con.execute(f"PRAGMA busy_timeout = {CLOSING_WAIT_MS}")
                try:
                    emptied = forget.empty_wal(self.con)
                finally:
                    self.con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                self._scrub_pending = False
                self._wal_pending = not emptied
                if not emptied:
                    log.info(
                        "a forget is committed; the WAL that still holds its words is emptied once no other "
                        "program reads the soul"
                    )
            except sqlcipher3.Error as e:
                known = translate(e, self.path)
                busy = _primary(e) in (_SQLITE_BUSY, _SQLITE_LOCKED)  # another program writing a long while
                if not busy and not isinstance(known, (DiskFull, DiskError)):
                    raise known from e
                self._scrub_pending = True
                log.warning("a forget is committed but its scrub waits for room (%s)", type(known).__name__)

    def _empty_wal_now(self) -> None:
        """After a write, while a forget's words are still in the WAL (see _scrub): fold it in and empty it if no
        other program reads the soul now. Until then the soul file itself keeps the pages the forget replaced,
        for the reader's snapshot, and a soul smaller than the autocheckpoint (1,000 pages) was left so until
        the last program closed it. Without waiting (a write must not be kept waiting for another program's
        reader): held, or on a full disk, it is tried again after the next write; the write is committed."""
        with self._lock:
            try:
                self.con.execute("PRAGMA busy_timeout = 0")
                try:
                    self._wal_pending = not forget.empty_wal(self.con)
                finally:
                    self.con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            except sqlcipher3.Error as e:  # another program writing, or no room: the next write tries again
                if _primary(e) not in (_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_FULL):
                    raise translate(e, self.path) from e


def _kind(kind: str) -> tuple[str, tuple[str, ...]]:
    k = _kind_of(kind)
    return k.table, k.columns


def _check_fields(kind: str, fields: Mapping[str, object], allowed: tuple[str, ...]) -> None:
    unknown = set(fields) - set(allowed)
    if unknown:
        raise ValueError(f"{kind} has no field(s) {sorted(unknown)}")


def _row(con: sqlcipher3.Connection, table: str, item_id: int) -> Row | None:
    cur = con.execute(f"SELECT * FROM {table} WHERE id = ?", (item_id,))
    row = cur.fetchone()
    return None if row is None else dict(zip([d[0] for d in cur.description], row, strict=True))


def _json(d: Mapping[str, object] | None) -> str | None:
    if d is None:
        return None
    return json.dumps({k: (v.hex() if isinstance(v, bytes) else v) for k, v in d.items()}, ensure_ascii=False)
