"""A companion's home directory: create, unlock, change the passphrase, export, import.

The home holds `soul.db` (SQLCipher) and `soul.key` (the database key wrapped
under the passphrase). Files are only ever replaced by atomic renames of
complete, verified files; the app never deletes or overwrites a soul in place.
"""

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from .. import files, paths
from ..errors import (
    BadCore,
    CompanionExists,
    DamagedSoul,
    DiskError,
    DiskFull,
    InvalidEdit,
    KeyFileChanged,
    KeyWithoutSoul,
    KnownError,
    NoAccess,
    NoCompanion,
    ReadOnlyRecord,
    SoulInUse,
)
from . import core, core_content, documents, forget, keychain, keys, locks, migrations, wal
from .kinds import CONVERSATIONS, SOUL_TABLES
from .soul import Soul

log = logging.getLogger(__name__)
DEFAULT_NAME = "Anima"  # a new companion's name when it is given none
# Called with the names a core holds (the companion's, the person's); raises to refuse the new passphrase.
JudgeNew = Callable[[tuple[str, ...]], object]


class PassphraseNeeded(KnownError):
    def __init__(self) -> None:
        super().__init__("This companion is locked: enter its passphrase (or set ANIMA_PASSPHRASE).")


class Home:
    def __init__(self, directory: Path | str | None = None):
        self.dir = paths.home(directory)
        self.soul_path = paths.soul_path(self.dir)
        self.key_path = paths.key_path(self.dir)

    def exists(self) -> bool:
        """Whether a companion lives here. KnownError when the home's path leads to something that is not a folder
        (a file, a pipe, a link round in a circle): no companion can live there, and none is made there."""
        if os.path.lexists(self.dir) and not self.dir.is_dir():
            raise KnownError(
                f"{self.dir} is not a folder, so no companion can live there; nothing was changed. "
                "Choose a folder as the companion's home (--home, ANIMA_HOME, or the data folder in "
                "Settings)."
            )
        return self.soul_path.exists()

    def ensure_vacant(self) -> None:
        """Refuse to make a companion here unless none is: no soul file, and no key file without one (the only key
        to a soul the person moved away; a new companion would write its own key over it)."""
        if self.exists():
            raise CompanionExists(f"A companion already lives in {self.dir}.")
        if os.path.lexists(self.key_path):
            raise KeyWithoutSoul(
                f"A companion's key file ({self.key_path.name}) is in {self.dir} without its soul "
                f"file ({self.soul_path.name}): move the key file away, or put the soul file back; "
                "nothing was changed."
            )
        if wal.logged(self.soul_path):
            # The last writes of a soul moved away after a crash: a new soul here would have them removed.
            raise KeyWithoutSoul(
                f"A write-ahead log ({self.soul_path.name}-wal) is in {self.dir} without its soul "
                f"file: it holds the last writes of a soul moved away. Move it to that soul's folder "
                "(beside its soul.db), or put the soul file back; nothing was changed."
            )

    # ---- lifecycle ---------------------------------------------------------

    def create(self, passphrase: str, name: str = DEFAULT_NAME, remember: bool = False) -> Soul:
        self.ensure_vacant()
        _private_folder(self.dir)
        key = keys.new_database_key()
        keyfile = keys.KeyFile.wrap(key, passphrase)
        # Build the database under a temporary name; it takes its real name last,
        # so a crash mid-create leaves no half-made companion.
        staging = self._staging("creating")
        try:
            with Soul(staging, key, create=True) as soul:
                soul.set_meta("name", name)
                soul.set_meta("companion_id", keyfile.companion_id)
            self._install_new(staging, keyfile, "try again")
        except BaseException:
            _remove_db(staging)  # a full disk, say: nothing half-made is left
            raise
        if remember:
            keychain.remember(keyfile.companion_id, key)
        return self._open(key)

    def keyfile(self) -> keys.KeyFile:
        if not self.exists():
            raise NoCompanion(f"No companion lives in {self.dir} yet.")
        return keys.KeyFile.read(self.key_path)

    def unlock_key(self, passphrase: str | None = None) -> bytes:
        """The database key: from the passphrase, or else from the keychain."""
        keyfile = self.keyfile()
        if passphrase:
            return self._unwrap(keyfile, passphrase)
        key = keychain.recall(keyfile.companion_id)
        if key is not None and keys.key_check(key) == keyfile.key_check:
            return key
        raise PassphraseNeeded()

    def _unwrap(self, keyfile: keys.KeyFile, passphrase: str) -> bytes:
        """The database key; a key file wrapped more cheaply than new ones is re-wrapped at today's cost
        (atomically: the old or the new file is in place, and the same passphrase opens either). When it cannot
        be written (a full disk, a read-only home) the old file stays, opens as before, and is tried again next time."""
        key = keyfile.unwrap(passphrase)
        if keyfile.outdated():
            upgraded = keys.KeyFile.wrap(key, passphrase, keyfile.companion_id)
            try:
                written = self._write_key(keyfile, upgraded)
            except (DiskFull, DiskError, NoAccess, OSError) as e:  # (write_atomically's words for OSError)
                log.warning(
                    "could not re-wrap the key file of companion %s at %s (%s); it keeps %s until the next unlock",
                    keyfile.companion_id,
                    upgraded.cost,
                    type(e).__name__,
                    keyfile.cost,
                )
            else:
                if not written:  # its new passphrase must stand: the re-wrap of the old one would undo it
                    log.warning(
                        "did not re-wrap the key file of companion %s: another program changed it meanwhile",
                        keyfile.companion_id,
                    )
                    return key
                # A notice worth keeping (the log never holds the passphrase or the key).
                log.warning(
                    "re-wrapped the key file of companion %s: %s, was %s",
                    keyfile.companion_id,
                    upgraded.cost,
                    keyfile.cost,
                )
        return key

    def unlock(self, passphrase: str | None = None) -> Soul:
        soul = self._open(self.unlock_key(passphrase))
        self.tidy()
        paths.owner_only(self.dir)
        return soul

    def _open(self, key: bytes) -> Soul:
        """The soul, open, with this program's presence held from before it opens until it closes (locks.py): no
        import swaps the file under it meanwhile."""
        presence = locks.Presence(self.dir)
        made = [p for p in _sidecars(self.soul_path) if not p.exists()]
        try:
            soul = Soul(self.soul_path, key)
        except BaseException:
            try:
                _unmake(made, presence)
            finally:
                presence.release()
            raise
        soul.presence = presence
        return soul

    def tidy(self) -> list[Path]:
        """Remove what a killed program left half-written in the home: a staging soul of a create or an import,
        a key file's new copy, a core's partial file. Only files whose writer (the pid in their name) is gone:
        another program at work on this home keeps its own. Returns what went."""
        gone = files.remove_leftovers(self.key_path)  # the key file's new copies, this version's or an older one's
        for path in [*self.dir.glob(".soul.*.*.db*"), *self.dir.glob(".*.*.anima.new")]:
            writer = files.partial_writer(path)  # a core's partial file; else a staging soul (.soul.importing.<pid>.db)
            if _dead_writer(str(writer) if writer is not None else path.name.split(".")[3]):
                path.unlink(missing_ok=True)
                gone.append(path)
        if gone:
            log.warning("removed %d partial files left by an interrupted write", len(gone))
        return gone

    def remember(self, passphrase: str) -> bool:
        """Keep the key in the OS keychain. False (and nothing kept) when there is no usable one."""
        keyfile = self.keyfile()
        return keychain.remember(keyfile.companion_id, self._unwrap(keyfile, passphrase))

    def forget_remembered(self) -> None:
        keychain.forget(self.keyfile().companion_id)

    def change_passphrase(self, old: str, new: str) -> None:
        """Only the small key file changes, by write-new, fsync, atomic rename (files.write_atomically): a program
        killed at any moment leaves the old file (the old passphrase opens) until the rename, and the new one
        (the new passphrase opens) from the rename on; a full disk leaves the old one and says so."""
        keyfile = self.keyfile()
        key = keyfile.unwrap(old)
        if new == old:  # (it said "Passphrase changed." and wrote the key file again: QA)
            raise InvalidEdit("The new passphrase is the one it has now; nothing was changed.")
        if not self._write_key(keyfile, keys.KeyFile.wrap(key, new, keyfile.companion_id)):
            raise KeyFileChanged()

    def _write_key(self, read: keys.KeyFile, new: keys.KeyFile) -> bool:
        """Write `new` over the key file if it is still `read`, the one whose passphrase was checked; False, nothing
        written, when another program changed it since (else the last writer would undo the other's change). Under
        the key lock, so no write comes between the check and this one."""
        with locks.key_writes(self.dir):
            try:
                if keys.KeyFile.read(self.key_path) != read:
                    return False
            except DamagedSoul:  # gone or damaged since: not the file that was read
                return False
            new.write(self.key_path)
            return True

    # ---- the portable core ---------------------------------------------------

    @staticmethod
    def export(soul: Soul, path: Path | str, export_passphrase: str, progress: core.Progress | None = None) -> None:
        # Written as it is read, from one snapshot: the soul is never whole in memory (740 MB read whole, for
        # 100,000 messages), and this program's turns go on meanwhile (soul.reading). A forget committed since
        # the snapshot, here or in another program, would leave what it forgot in the core: none is written then.
        path = paths.export_target(path, soul.path.parent)
        with soul.reading() as con:
            version = con.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
            forgets = forget.forgets(con)
            core.write_core(
                path,
                core.Tables.read(con, SOUL_TABLES),
                version,
                export_passphrase,
                progress,
                lambda: soul.forgot_nothing_since(forgets),
            )

    def import_core(
        self,
        path: Path | str,
        export_passphrase: str,
        passphrase: str,
        replace: bool = False,
        progress: core.Progress | None = None,
        before_swap: Callable[[], object] | None = None,
        judge_new: JudgeNew | None = None,
    ) -> None:
        """Verify the whole core, build a new soul from it beside the old, then swap it in atomically.

        `before_swap` is called once everything is verified and built, just before the swap: the
        place to close the old soul's connection (no connection may be open on a file being replaced).
        `judge_new(names)`: for a new home, called with the names the core holds (the companion's, the
        person's) once its settings are read (they come first) and before the rest is built; it raises to refuse
        the new passphrase (a thief tries the names first, and they are encrypted inside the core)."""
        try:
            self._import(path, export_passphrase, passphrase, replace, progress, before_swap, judge_new)
        except (DiskFull, DiskError) as e:
            # The same mistake in more words, not a second one: chained, the terminal said it twice (cli._first_said).
            raise type(e)(f"{e} Nothing was imported; the companion here, if any, is as it was.") from None

    def _import(
        self,
        path: Path | str,
        export_passphrase: str,
        passphrase: str,
        replace: bool,
        progress: core.Progress | None,
        before_swap: Callable[[], object] | None,
        judge_new: JudgeNew | None,
    ) -> None:
        if not self.exists():
            self.ensure_vacant()  # a key file without its soul: refused before the core is read
        # The core is read once, as the new soul is built from it: what is held is a batch of rows, not the
        # soul (a 100,000-message core's import peaked at 1.5 GB read whole). Nothing is put in place until all
        # of it has passed its checks.
        with core.Reader(Path(path), export_passphrase, progress) as reader:
            # Decided once: another program may make a companion here meanwhile, and a new one's soul must then
            # be refused at the swap (_install_new), never renamed over theirs.
            new = not self.exists()
            if not new:
                if not replace:
                    raise CompanionExists(
                        f"A companion already lives in {self.dir}; import refused "
                        "(ask to replace it to import over it)."
                    )
                # Replacing proves ownership of the old soul, and keeps its key: then
                # one rename of the database is the whole switch.
                keyfile = self.keyfile()
                key, companion_id = self._unwrap(keyfile, passphrase), keyfile.companion_id
            else:
                key, companion_id = keys.new_database_key(), keys.new_companion_id()
            made = not self.dir.exists()  # a folder this import makes is removed again if the content is refused
            _private_folder(self.dir)
            staging = self._staging("importing")
            try:
                tables = reader.tables()
                if judge_new is not None and new:
                    tables = _judged(tables, judge_new, path)
                self._restore(staging, key, reader.schema_version, tables, companion_id)
                new_keyfile = keys.KeyFile.wrap(key, passphrase, companion_id) if new else None
            except BaseException:
                _remove_db(staging)
                if made:
                    _remove_if_empty(self.dir)
                raise
        if before_swap is not None:
            before_swap()
        try:
            if new_keyfile is not None:
                self._install_new(staging, new_keyfile, "import again")
            else:
                with locks.alone(self.dir):
                    self._install(staging)
        except BaseException:
            _remove_db(staging)
            raise

    @staticmethod
    def _restore(
        staging: Path, key: bytes, schema_version: int, tables: Iterable[core_content.Table], companion_id: str
    ) -> None:
        """Build a soul at `staging` from a core's tables (core.Reader.tables), in one transaction."""
        import sqlcipher3

        with Soul(staging, key, create=True, migrate_to=schema_version) as soul:
            try:
                with soul.transaction() as con:
                    present = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                    for table in SOUL_TABLES:
                        if table in present:  # the core's schema may predate some tables
                            con.execute(f"DELETE FROM {table}")
                    with migrations.messages_indexed_after(con):
                        for table, columns, rows in tables:
                            if table not in SOUL_TABLES:
                                raise BadCore(f"The core holds a table this Anima does not know ({table}).")
                            # Names core.Reader checked against this schema's own; quoted all the same.
                            cols = ", ".join(_quoted(c) for c in columns)
                            marks = ", ".join("?" * len(columns))
                            verb = "INSERT OR REPLACE" if table == CONVERSATIONS else "INSERT"
                            con.executemany(f"{verb} INTO {_quoted(table)}({cols}) VALUES ({marks})", rows)
                    if (why := documents.misfit(con)) is not None:
                        # What reads it takes its fields as given: every turn failed on a part of another shape.
                        raise BadCore(f"The core's {why}: it is not what Anima writes. Nothing was imported.")
                    if con.execute("SELECT 1 FROM meta WHERE key = 'name'").fetchone() is None:
                        # Every soul is named when it is made (create), so every core Anima writes names it: one
                        # that does not, though its passphrase opened it, would import as an empty companion.
                        raise BadCore(
                            "The core holds no companion (not even its name): it is not one Anima "
                            "exported. Nothing was imported."
                        )
                    con.execute(
                        "INSERT INTO meta VALUES ('companion_id', ?) ON CONFLICT(key) DO UPDATE "
                        "SET value = excluded.value",
                        (companion_id,),
                    )
            # OverflowError, UnicodeEncodeError: a value SQLite cannot take (core.Reader refuses those it knows of).
            except (sqlcipher3.Error, InvalidEdit, ReadOnlyRecord, OverflowError, UnicodeEncodeError) as e:
                # SQLite's own words: the edit's sentence ("the old value is kept") is about an edit, not an import.
                cause = e.__cause__ if isinstance(e, (InvalidEdit, ReadOnlyRecord)) and e.__cause__ else e
                raise BadCore(
                    f"The core's content does not fit the soul's rules ({cause}); nothing was imported."
                ) from None
            from .soul import translate

            try:
                migrations.migrate(soul.con)
            except sqlcipher3.Error as e:
                raise translate(e, staging) from e
            soul.check()

    def _staging(self, what: str) -> Path:
        # This program's own name: two programs never build into one file, and tidy() knows a dead writer's.
        staging = self.dir / f".soul.{what}.{os.getpid()}.db"
        _remove_db(staging)
        self.tidy()  # leftovers of a create or an import that was killed
        return staging

    def _install_new(self, staging: Path, keyfile: keys.KeyFile, again: str) -> None:
        """A new companion's key file, then its soul, put in place: alone on the home (no program has a soul open
        here, not even one moved away) and the only key writer; refused if another program made one meanwhile."""
        with locks.alone(self.dir, again), locks.key_writes(self.dir):
            self.ensure_vacant()
            keyfile.write(self.key_path)
            try:
                self._install(staging)
            except BaseException:
                self.key_path.unlink(missing_ok=True)  # this key was written a moment ago, for this soul only
                raise

    def _install(self, staging: Path) -> None:
        """Rename a built soul over soul.db; only with locks.alone() held (no other program has the old one open)."""
        os.chmod(staging, 0o600)  # SQLite gives its -wal and -shm the database's mode
        try:
            os.replace(staging, self.soul_path)
        except PermissionError:
            if locks.SHARED:
                raise
            # Windows (no shared locks, locks.py) refuses to rename over a file another program has open.
            raise SoulInUse() from None
        # The old soul's -wal and -shm would be taken for the new one's (store/wal.py): with no program on the soul
        # (alone) they hold nothing anyone needs (a new home's hold none: ensure_vacant). Killed before they go, the
        # next open refuses them, and says so.
        for path in _sidecars(self.soul_path):
            try:
                path.unlink(missing_ok=True)
            except OSError as e:  # a folder in its place: the next open refuses it, and says what to do
                log.warning("the replaced soul's %s could not be removed (%s)", path.name, e)
        files.fsync_dir(self.dir)


def _private_folder(folder: Path) -> None:
    """Make the home, readable by its owner only; or tighten one that is there."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    paths.owner_only(folder)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # something is in it (another program's now): not this import's to remove


def _quoted(name: str) -> str:
    """A table's or a column's name as an SQL identifier (for _restore)."""
    return '"' + name.replace('"', '""') + '"'


def _judged(
    tables: Iterator[core_content.Table], judge_new: JudgeNew, path: Path | str
) -> Iterator[core_content.Table]:
    """The core's tables as read, `judge_new` called with its names once its settings (meta) are read: Anima
    writes them first, so a refused passphrase stops the import before the rest is built."""
    meta: dict[str, list[Any]] | None = None  # {"columns": [...], "rows": [...]}
    judged = False
    for table in tables:
        name, columns, rows = table
        if name == "meta":
            meta = meta or {"columns": columns, "rows": []}
            meta["rows"].extend(rows)
        elif meta is not None and not judged:
            judge_new(_names(meta, path))
            judged = True
        yield table
    if not judged:
        judge_new(_names(meta, path))


def _names(meta: dict[str, list[Any]] | None, path: Path | str) -> tuple[str, ...]:
    """The companion's name and the person's, as the core's meta holds them (a meta of another shape is a
    damaged core, not a traceback)."""
    meta = meta or {"columns": ["key", "value"], "rows": []}
    try:
        key, value = meta["columns"].index("key"), meta["columns"].index("value")
        found = {row[key]: row[value] for row in meta["rows"] if isinstance(row[key], str)}
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        raise BadCore(
            f"{path} is damaged: its settings are not in the shape Anima writes. Nothing was imported."
        ) from None
    return tuple(str(found[k]) for k in ("name", "user_name") if found.get(k))


def _dead_writer(pid: str) -> bool:
    return pid.isdigit() and not files.alive(int(pid))


def _sidecars(path: Path) -> list[Path]:
    """The files SQLite keeps beside a database in WAL mode."""
    return [Path(f"{path}-wal"), Path(f"{path}-shm")]


def _unmake(made: list[Path], presence: locks.Presence) -> None:
    """After an open that failed: remove the -wal and -shm it made. SQLite makes both as it reads the file, and
    when opening fails after that (on a full disk, growing the -shm fails) it leaves them, an empty WAL and a
    3-byte -shm, until some later close. Only where no other program has the soul open since (presence.alone: its
    connection would be using them now; the files are SQLite's to remove then) and only a WAL with nothing in it (a
    frame there may be committed, and is folded in at the next open). Whatever stands in the way leaves them: the
    failed open's own error is what the person hears."""
    left = [p for p in made if p.exists()]
    if not left or not presence.alone():
        return
    for path in left:
        try:
            if path.name.endswith("-wal") and path.stat().st_size:
                continue
            path.unlink()
        except OSError:
            pass


def _remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
