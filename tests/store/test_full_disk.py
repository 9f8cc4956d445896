"""A full disk when the soul opens and when it closes: one KnownError with a message for people, nothing lost.

Most tests here run on a genuinely small filesystem: an 8 MiB tmpfs, mounted for the test (this needs root, as in
the project's containers). Where no mount is possible they are skipped, saying so, and the simulated tests at the
end, which fail SQLite's own calls the way a full disk does, cover the same translation."""

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sqlcipher3

from anima import cli
from anima.errors import DiskError, DiskFull
from anima.store import Home
from anima.store import soul as soul_module
from tests.conftest import PASSPHRASE

ROOT = Path(__file__).resolve().parent.parent.parent


def fill(disk: Path, leave: int = 0) -> Path:
    """Take every free byte of the disk but `leave`; returns the filler file (delete it to free the space)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for block in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, b"\0" * block)
            except OSError as e:
                assert e.errno == errno.ENOSPC
    finally:
        os.close(fd)
    assert shutil.disk_usage(disk).free < 4096
    if leave:
        os.truncate(filler, filler.stat().st_size - leave)
    return filler


def digests(home: Home) -> dict:
    return {p.name: p.read_bytes() for p in (home.soul_path, home.key_path)}


def test_opening_on_a_full_disk_is_disk_full_and_changes_nothing(small_disk):
    home = Home(small_disk / "home")
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
    before = digests(home)
    filler = fill(small_disk)
    with pytest.raises(DiskFull, match=r"is full, 0 KiB free: the soul was not opened, and nothing in it was"):
        home.unlock(PASSPHRASE)
    assert digests(home) == before
    filler.unlink()
    with home.unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT content FROM messages")[0]["content"] == "kept"
        soul.check()


def test_opening_on_a_full_disk_leaves_no_file_it_made(small_disk):
    """SQLite makes the -wal and -shm as it reads the file, then fails to grow the -shm: they were left beside the
    soul (an empty WAL, a 3-byte -shm) until some later close."""
    home = Home(small_disk / "home")
    home.create(PASSPHRASE).close()
    at_rest = sorted(p.name for p in home.dir.iterdir())
    filler = fill(small_disk)
    with pytest.raises(DiskFull, match="the soul was not opened"):
        home.unlock(PASSPHRASE)
    assert sorted(p.name for p in home.dir.iterdir()) == at_rest
    filler.unlink()
    home.unlock(PASSPHRASE).close()


def test_closing_on_a_full_disk_keeps_what_was_saved(small_disk):
    """The checkpoint at close cannot write the soul file: what was committed stays in the WAL, and is there
    at the next open."""
    home = Home(small_disk / "home")
    home.create(PASSPHRASE).close()
    soul = home.unlock(PASSPHRASE)
    soul.con.execute("PRAGMA wal_autocheckpoint = 0")  # everything stays in the WAL until close
    with soul.transaction():
        for i in range(150):
            soul.add(
                "message", "user", session="s", role="user", content=f"{i} " + os.urandom(1500).hex(), created_at="2026"
            )
    filler = fill(small_disk)
    with pytest.raises(DiskFull, match=r"is full.*everything already saved is kept \(in soul.db-wal\)"):
        soul.close()
    assert soul.con is None  # closed all the same
    filler.unlink()
    with home.unlock(PASSPHRASE) as again:
        assert again.query("SELECT count(*) AS n FROM messages")[0]["n"] == 150
        again.check()


def test_creating_on_a_full_disk_leaves_nothing_half_made(small_disk):
    fill(small_disk)
    home = Home(small_disk / "home")
    with pytest.raises(DiskFull, match="no soul was made"):
        home.create(PASSPHRASE)
    assert not home.exists() and list(home.dir.iterdir()) == []


@pytest.mark.parametrize("room", [64 << 10, 300 << 10])
def test_creating_and_importing_on_a_nearly_full_disk_say_the_disk_is_full(small_disk, tmp_path, room):
    """With some room left, SQLite fails mid-way through the schema and has rolled back already: the full disk
    is what the person hears, not the ROLLBACK that followed it."""
    with Home(tmp_path / "elsewhere").create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="carried " * 4000, created_at="2026")
        Home.export(soul, tmp_path / "core.anima", PASSPHRASE)
    fill(small_disk, leave=room)
    home = Home(small_disk / "home")
    with pytest.raises(DiskFull, match="no soul was made"):
        home.create(PASSPHRASE)
    with pytest.raises(DiskFull):
        home.import_core(tmp_path / "core.anima", PASSPHRASE, PASSPHRASE)
    assert not home.exists() and [p.name for p in home.dir.iterdir()] == []


def test_the_command_line_on_a_full_disk_says_one_line_and_exits_2(small_disk, monkeypatch, capsys):
    home = Home(small_disk / "home")
    home.create(PASSPHRASE).close()
    fill(small_disk)
    monkeypatch.setenv("ANIMA_HOME", str(home.dir))
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    for command in (["chat"], ["check"]):
        assert cli.main(command) == 2
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"anima: The disk holding {home.dir} is full"), lines


@pytest.mark.slow  # runs `python -m anima`
def test_python_m_anima_chat_at_start_on_a_full_disk(small_disk):
    """The issue's case, as a person meets it: no traceback, one line, exit 2."""
    home = Home(small_disk / "home")
    home.create(PASSPHRASE).close()
    fill(small_disk)
    env = {**os.environ, "ANIMA_HOME": str(home.dir), "ANIMA_PASSPHRASE": PASSPHRASE}
    r = subprocess.run(
        [sys.executable, "-m", "anima", "chat"],
        input="hello\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "is full" in r.stderr


# ---- simulated: SQLite's calls fail as they do on a full (or failing) disk -------------------------------------


class _Failing(sqlcipher3.Connection):
    """A real connection whose one chosen statement fails with SQLite's own I/O error (SQLITE_IOERR, 10), as
    making the -shm file or writing the soul file does when the disk is full."""

    fail_on: str = ""
    skip = 0
    code = 10
    message = "disk I/O error"

    def execute(self, sql, *args):
        self._fail(sql)
        return super().execute(sql, *args)

    def executemany(self, sql, *args):
        self._fail(sql)
        return super().executemany(sql, *args)

    def _fail(self, sql):
        if sql.startswith(self.fail_on):
            if _Failing.skip > 0:  # this many of them succeed first
                _Failing.skip -= 1
                return
            e = sqlcipher3.OperationalError(self.message)
            e.sqlite_errorcode = self.code
            raise e


def simulate(monkeypatch, fail_on: str, free: int, code: int = 10, message: str = "disk I/O error", skip: int = 0):
    real = sqlcipher3.connect
    _Failing.fail_on, _Failing.code, _Failing.message, _Failing.skip = fail_on, code, message, skip
    monkeypatch.setattr(soul_module.sqlcipher3, "connect", lambda *a, **k: real(*a, factory=_Failing, **k))
    real_usage = shutil.disk_usage
    monkeypatch.setattr(soul_module.shutil, "disk_usage", lambda path: real_usage(path)._replace(free=free))


def test_simulated_an_io_error_at_open_on_a_nearly_full_disk_is_disk_full(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    simulate(monkeypatch, "SELECT count(*) FROM sqlite_master", free=12 * 1024)
    with pytest.raises(DiskFull, match="12 KiB free: the soul was not opened"):
        home.unlock(PASSPHRASE)


def test_simulated_an_io_error_on_a_disk_with_room_is_a_disk_error_not_a_bug(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    simulate(monkeypatch, "SELECT count(*) FROM sqlite_master", free=50 * 2**30)
    with pytest.raises(
        DiskError,
        match=r"The disk failed to read or write .*soul.db \(disk I/O error\): the soul "
        "was not opened",
    ):
        home.unlock(PASSPHRASE)


def test_simulated_a_full_disk_at_the_checkpoint_on_close(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    with monkeypatch.context() as mp:
        simulate(mp, "PRAGMA wal_checkpoint", free=50 * 2**30, code=13, message="database or disk is full")
        soul = home.unlock(PASSPHRASE)
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
        with pytest.raises(DiskFull, match="everything already saved is kept"):
            soul.close()
        assert soul.con is None
        soul.close()  # closing twice is harmless
    with home.unlock(PASSPHRASE) as again:
        assert again.query("SELECT content FROM messages")[0]["content"] == "kept"


def test_simulated_a_full_disk_closing_a_soul_being_made_says_none_was_made(anima_home, tmp_path, monkeypatch):
    """A create's (or an import's) soul is built under a staging name and removed when closing it fails: closing's
    own "everything already saved is kept (in .soul.creating.N.db-wal)" was said of a file just removed."""
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        Home.export(soul, tmp_path / "core.anima", "an export passphrase")
    into = Home(tmp_path / "new")
    for make in (
        lambda: into.create(PASSPHRASE),
        lambda: into.import_core(tmp_path / "core.anima", "an export passphrase", PASSPHRASE),
    ):
        with monkeypatch.context() as mp:
            simulate(mp, "PRAGMA wal_checkpoint", free=8 * 1024, code=13, message="database or disk is full")
            with pytest.raises(DiskFull, match="no soul was made, and nothing half-made is left") as said:
                make()
        assert "kept" not in str(said.value).split("Nothing was imported")[0]
        assert not into.exists() and not [p for p in into.dir.glob("*") if ".soul." in p.name and "lock" not in p.name]


def leaves_sidecars(monkeypatch, then=None):
    """The simulated failure leaves what SQLite leaves on a full disk: an empty -wal and a 3-byte -shm (after
    `then()`, which may stand for another program opening the soul meanwhile)."""
    real = _Failing._fail

    def failing(self, sql):
        if sql.startswith(_Failing.fail_on):
            soul_db = Path(os.environ["ANIMA_HOME"]) / "soul.db"
            Path(f"{soul_db}-wal").touch()
            Path(f"{soul_db}-shm").write_bytes(b"\0" * 3)
            if then is not None:
                then()
        real(self, sql)

    monkeypatch.setattr(_Failing, "_fail", failing)


def test_simulated_an_open_that_fails_removes_the_wal_and_shm_it_made(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    at_rest = sorted(p.name for p in home.dir.iterdir())
    simulate(monkeypatch, "SELECT count(*) FROM sqlite_master", free=12 * 1024)
    leaves_sidecars(monkeypatch)
    with pytest.raises(DiskFull, match="the soul was not opened"):
        home.unlock(PASSPHRASE)
    assert sorted(p.name for p in home.dir.iterdir()) == at_rest


def test_simulated_an_open_that_fails_leaves_the_files_of_a_program_that_opened_the_soul_meanwhile(
    anima_home, monkeypatch
):
    """Another program opening the soul while this one fails: the -wal and -shm are that program's now, and it
    goes on writing to them."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    others = []

    def the_other_program_opens_it():
        failing, _Failing.fail_on = _Failing.fail_on, "nothing fails there"
        try:
            others.append(Home(anima_home).unlock(PASSPHRASE))
        finally:
            _Failing.fail_on = failing

    simulate(monkeypatch, "SELECT count(*) FROM sqlite_master", free=12 * 1024)
    leaves_sidecars(monkeypatch, then=the_other_program_opens_it)
    with pytest.raises(DiskFull, match="the soul was not opened"):
        home.unlock(PASSPHRASE)
    monkeypatch.undo()
    (other,) = others
    assert (home.dir / "soul.db-wal").exists() and (home.dir / "soul.db-shm").exists()
    other.add("message", "user", session="s", role="user", content="kept", created_at="2026")
    other.close()
    with home.unlock(PASSPHRASE) as again:
        assert again.query("SELECT content FROM messages")[0]["content"] == "kept"
        again.check()


def test_other_errors_at_open_keep_their_translation(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    simulate(monkeypatch, "SELECT count(*) FROM sqlite_master", free=0, code=1, message="no such table: x")
    with pytest.raises(sqlcipher3.OperationalError):  # a bug stays a bug
        home.unlock(PASSPHRASE)


def test_a_forget_without_room_to_rebuild_the_file_stands_and_rebuilds_once_there_is(small_disk, caplog, monkeypatch):
    """A forget rebuilds the file (forget.rewrite_file, VACUUM), which needs about the file's size again on the
    disk. Without it, the forget stands at once and the rest of its scrub runs; the rebuild is not tried (it
    would fail after writing for seconds on a large soul, and again after each write). It is owed in the soul:
    the program that next finds room does it, after this one has closed."""
    from anima.store import forget
    from tests.store.pages import holds

    rebuilt = []
    rewrite = forget.rewrite_file
    monkeypatch.setattr(forget, "rewrite_file", lambda con, path: (rebuilt.append(1), rewrite(con, path)))
    home = Home(small_disk / "home")
    with home.create(PASSPHRASE) as soul, soul.transaction():
        for i in range(300):
            soul.add(
                "message",
                "user",
                session="s",
                role="user",
                content=f"note {i} " + os.urandom(400).hex(),
                created_at="2026",
            )
        gone = soul.add("message", "user", session="s", role="user", content="forgotten sparrowhawk", created_at="2026")
    size = home.soul_path.stat().st_size
    assert size > 1 << 20, size
    filler = fill(small_disk, leave=size // 2)
    with home.unlock(PASSPHRASE) as soul:
        with caplog.at_level("WARNING", logger="anima"):
            soul.forget("message", gone)
        assert "rebuilt without its leftovers once the disk has room" in caplog.text
        assert soul.query("SELECT count(*) AS n FROM messages WHERE id = ?", (gone,))[0]["n"] == 0
        assert (home.dir / "soul.db-wal").stat().st_size == 0  # the rest of the scrub ran; no failed rebuild in it
        with soul.transaction():  # a write with no room yet: not tried
            soul.add("message", "user", session="s", role="user", content="no room yet", created_at="2026")
    assert rebuilt == []  # nor at close
    filler.unlink()
    with home.unlock(PASSPHRASE) as soul:  # another run of the program, with room
        soul.add("message", "user", session="s", role="user", content="room again", created_at="2026")
        assert rebuilt == [1]
        assert soul.get_meta(forget.REWRITE_DUE) is None
    assert not holds(home.soul_path, home.unlock_key(PASSPHRASE), "sparrowhawk")
    with home.unlock(PASSPHRASE) as soul:
        soul.check()
        soul.add("message", "user", session="s", role="user", content="nothing owed", created_at="2026")
    assert rebuilt == [1]
