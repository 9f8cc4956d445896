"""Locks between programs on one home (anima/store/locks.py): no import swaps soul.db under a program that has it
open, and no key-file write undoes another program's change made since it read the file."""

import errno
import hashlib
import logging
import os
import re

import pytest

from anima import cli
from anima.errors import KeyFileChanged, SoulInUse, WrongPassphrase
from anima.store import Home, keys
from tests.conftest import PASSPHRASE
from tests.conftest import exported as exported_home
from tests.store.test_two_programs import OtherProgram

EXPORT = "export passphrase"
IN_USE = (
    "Another program has this companion open (the window or `anima chat`): close it and import again; "
    "nothing was changed."
)


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def said(soul) -> list[str]:
    return [r["content"] for r in soul.query("SELECT content FROM messages ORDER BY id")]


@pytest.fixture
def exported(anima_home, tmp_path):
    return exported_home(anima_home, tmp_path / "soul.core", "in the core", EXPORT), tmp_path / "soul.core"


def test_an_import_over_a_soul_another_program_has_open_is_refused_and_changes_nothing(exported, monkeypatch, capsys):
    home, path = exported
    other = OtherProgram(monkeypatch)  # a second process with the soul open, as `anima chat` or the window
    try:
        other("say said while the other program had it open")
        soul_before, key_before, inode = digest(home.soul_path), digest(home.key_path), home.soul_path.stat().st_ino
        with pytest.raises(SoulInUse) as refused:
            home.import_core(path, EXPORT, PASSPHRASE, replace=True)
        assert str(refused.value) == IN_USE
        monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
        monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", EXPORT)
        assert cli.main(["import", "--replace", str(path)]) == 2  # the terminal: one line, exit 2
        assert capsys.readouterr().err.strip().splitlines() == [f"anima: {IN_USE}"]
        assert (digest(home.soul_path), digest(home.key_path)) == (soul_before, key_before)
        assert home.soul_path.stat().st_ino == inode
        assert not list(home.dir.glob(".soul.importing.*"))  # its staging soul went
        other("say and it goes on writing to the one soul")  # still works, on the file still called soul.db
        other.quit()
    finally:
        other.end()
    with home.unlock(PASSPHRASE) as soul:
        soul.check()
        assert said(soul) == [
            "in the core",
            "said while the other program had it open",
            "and it goes on writing to the one soul",
        ]
    assert cli.main(["import", "--replace", str(path)]) == 0  # closed: the import works
    with home.unlock(PASSPHRASE) as soul:
        soul.check()
        assert said(soul) == ["in the core"]


def test_this_programs_own_open_soul_is_in_the_way_until_before_swap_closes_it(exported):
    home, path = exported
    soul = home.unlock(PASSPHRASE)
    with pytest.raises(SoulInUse):
        home.import_core(path, EXPORT, PASSPHRASE, replace=True)
    assert said(soul) == ["in the core"]  # still open, and working
    home.import_core(path, EXPORT, PASSPHRASE, replace=True, before_swap=soul.close)
    with home.unlock(PASSPHRASE) as again:
        again.check()


def passphrase_changed_meanwhile(monkeypatch, home: Home, new: str) -> None:
    """Between this program's read of the key file and its write (while its scrypt runs), another program changes
    the passphrase to `new`."""
    real_unwrap = keys.KeyFile.unwrap
    done = []

    def unwrap(keyfile, passphrase):
        key = real_unwrap(keyfile, passphrase)
        if not done:
            done.append(True)
            Home(home.dir).change_passphrase(PASSPHRASE, new)  # the other program's whole change
        return key

    monkeypatch.setattr(keys.KeyFile, "unwrap", unwrap)


def opens_with(home: Home) -> list[str]:
    found = []
    for passphrase in (PASSPHRASE, "the other program's new one", "this program's new one"):
        try:
            home.keyfile().unwrap(passphrase)
            found.append(passphrase)
        except WrongPassphrase:
            pass
    return found


def test_a_rewrap_at_unlock_never_undoes_a_passphrase_change_made_meanwhile(anima_home, monkeypatch, caplog):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    key = home.unlock_key(PASSPHRASE)
    # Wrapped more cheaply than today's (test) cost: the unlock re-wraps it.
    keys.KeyFile.wrap(key, PASSPHRASE, home.keyfile().companion_id, cost=keys.Cost(2**2, 8, 1)).write(home.key_path)
    assert home.keyfile().outdated()
    passphrase_changed_meanwhile(monkeypatch, home, "the other program's new one")
    with caplog.at_level(logging.WARNING, logger="anima"):
        with home.unlock(PASSPHRASE) as soul:  # it read the old file, whose passphrase it had: it opens
            soul.check()
    monkeypatch.undo()
    assert opens_with(home) == ["the other program's new one"]
    assert "another program changed it meanwhile" in caplog.text and "re-wrapped" not in caplog.text


def test_two_passphrase_changes_at_once_the_second_is_refused_and_changes_nothing(anima_home, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    passphrase_changed_meanwhile(monkeypatch, home, "the other program's new one")
    with pytest.raises(KeyFileChanged, match="Another program changed this companion's key file meanwhile"):
        home.change_passphrase(PASSPHRASE, "this program's new one")
    monkeypatch.undo()
    assert opens_with(home) == ["the other program's new one"]
    assert [p.name for p in anima_home.iterdir() if p.name.endswith(".new")] == []


def test_the_lock_files_stay_empty_and_private(anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    for name in (".soul.lock", ".soul.key.lock"):
        st = (anima_home / name).stat()
        assert st.st_size == 0 and st.st_mode & 0o777 == 0o600


def test_a_soul_whose_put_off_scrub_fails_at_close_is_still_closed_and_lets_an_import_in(anima_home, monkeypatch):
    """A forget's scrub put off (a full disk) is tried again at close; when it fails there, the file is closed all
    the same and this program's presence goes with it, or every import would be refused until the program ends."""
    import sqlcipher3

    from anima.errors import KnownError
    from anima.store import forget, locks

    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    soul = home.unlock(PASSPHRASE)
    soul._scrub_pending = True

    def damaged(con):
        raise sqlcipher3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(forget, "merge_segments", damaged)
    with pytest.raises(KnownError):
        soul.close()
    assert soul.con is None
    with locks.alone(home.dir):
        pass


@pytest.mark.parametrize("code", [errno.ENOLCK, errno.EOPNOTSUPP])
def test_a_filesystem_without_file_locks_is_one_clear_refusal_and_changes_nothing(
    anima_home, tmp_path, monkeypatch, capsys, code
):
    """flock(2) failing as it does on an NFS mount without its lock daemon (ENOLCK) or a FUSE or SMB mount
    (EOPNOTSUPP): opening the soul was a raw OSError (a traceback at the terminal). Now NoFileLocks, one line, for
    opening, an import over the soul and a passphrase change alike; nothing is opened, swapped or written."""
    from anima.store import locks

    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
        Home.export(soul, tmp_path / "soul.core", EXPORT)
    at_rest = {p.name: digest(p) for p in home.dir.iterdir()}

    def no_locks(fd, operation):
        raise OSError(code, os.strerror(code))

    without = rf"The folder {re.escape(str(home.dir))} is on a filesystem without file locks \({os.strerror(code)}\)"
    with monkeypatch.context() as mp:
        mp.setattr(locks.fcntl, "flock", no_locks)
        with pytest.raises(locks.NoFileLocks, match=without + r".*: the soul was not opened.*set ANIMA_HOME"):
            home.unlock(PASSPHRASE)
        with pytest.raises(locks.NoFileLocks, match=without + ".*: nothing was changed"):
            home.import_core(tmp_path / "soul.core", EXPORT, PASSPHRASE, replace=True)
        with pytest.raises(locks.NoFileLocks, match=without + ".*: the key file was not changed"):
            home.change_passphrase(PASSPHRASE, "a new passphrase for a new season")
        mp.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
        capsys.readouterr()
        assert cli.main(["check"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("anima: The folder ") and "Traceback" not in err[0]
    assert {p.name: digest(p) for p in home.dir.iterdir()} == at_rest
    with home.unlock(PASSPHRASE) as soul:
        assert said(soul) == ["kept"]


def not_a_file(what: str, path) -> None:
    """Something other than a regular file at `path`, as another tool or a slip by hand could leave there."""
    {
        "pipe": lambda: os.mkfifo(path),
        "folder": path.mkdir,
        "device": lambda: path.symlink_to("/dev/null"),
        "link to nowhere": lambda: path.symlink_to(path.parent / "nowhere" / path.name),
        # QA: opening the lock made the file the link named, outside the home.
        "link to a file not there": lambda: path.symlink_to(path.parent.parent / f"made{path.name}"),
    }[what]()


@pytest.mark.timeout(20)
@pytest.mark.parametrize("what", ["pipe", "folder", "device", "link to nowhere", "link to a file not there"])
def test_a_lock_file_that_is_not_a_regular_file_is_one_clear_refusal_without_waiting(
    anima_home, tmp_path, capsys, monkeypatch, what
):
    """QA: a pipe as .soul.lock hung every command that opens the soul (opening it waited for a writer); a folder
    or a link to nowhere was a bare OS error ("[Errno 21] Is a directory"). Now each is refused in one line that
    says what to do, for opening, an import over the soul and a passphrase change alike; nothing is opened,
    swapped or written, and once it is removed all is as it was."""
    from anima.store import locks
    from anima.store.soul import OPENING

    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
        Home.export(soul, tmp_path / "soul.core", EXPORT)
    at_rest = {p.name: digest(p) for p in home.dir.iterdir() if p.is_file()}

    def refused(name: str, outcome: str) -> str:
        return (
            rf"The lock file {re.escape(str(home.dir / name))} is not a regular file, and Anima can lock nothing "
            rf"with it: {re.escape(outcome)}\. If no Anima program is running, remove that lock file"
        )

    presence, key_writes = home.dir / locks.PRESENCE, home.dir / locks.KEY_WRITES
    presence.unlink()
    not_a_file(what, presence)
    with pytest.raises(locks.NotALockFile, match=refused(locks.PRESENCE, OPENING)):
        home.unlock(PASSPHRASE)
    with pytest.raises(locks.NotALockFile, match=refused(locks.PRESENCE, "nothing was changed")):
        home.import_core(tmp_path / "soul.core", EXPORT, PASSPHRASE, replace=True)
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    capsys.readouterr()
    assert cli.main(["check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("anima: The lock file ") and "Traceback" not in err[0]
    presence.rmdir() if what == "folder" else presence.unlink()
    key_writes.unlink()
    not_a_file(what, key_writes)
    with pytest.raises(locks.NotALockFile, match=refused(locks.KEY_WRITES, "the key file was not changed")):
        home.change_passphrase(PASSPHRASE, "a new passphrase for a new season")
    key_writes.rmdir() if what == "folder" else key_writes.unlink()
    assert not list(home.dir.parent.glob("made*"))  # nothing was made where a link pointed
    assert {p.name: digest(p) for p in home.dir.iterdir() if p.is_file() and p.name != locks.PRESENCE} == {
        name: d for name, d in at_rest.items() if name not in (locks.PRESENCE, locks.KEY_WRITES)
    }
    with home.unlock(PASSPHRASE) as soul:  # removed: Anima makes them again, and all is as it was
        assert said(soul) == ["kept"]
