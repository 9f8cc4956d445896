import hashlib
import os

import pytest

from anima.errors import DamagedSoul
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.records import fill


@pytest.mark.parametrize("where", ["first page", "middle", "last page"])
def test_a_flipped_byte_is_reported_and_the_file_is_left_alone(anima_home, where):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        fill(soul)
        for i in range(200):  # enough pages that "middle" is not page 1
            soul.add("message", "user", session="s", role="user", content=f"filler {i} " * 40, created_at="2026")
    data = bytearray(home.soul_path.read_bytes())
    offset = {"first page": 100, "middle": len(data) // 2 + 17, "last page": len(data) - 40}[where]
    data[offset] ^= 0x40
    home.soul_path.write_bytes(bytes(data))
    damaged = hashlib.sha256(bytes(data)).hexdigest()

    with pytest.raises(DamagedSoul, match="damaged"):
        soul = home.unlock(PASSPHRASE)  # page 1 damage fails at once
        try:
            soul.check()  # any other page fails the full check
            soul.query("SELECT * FROM messages")
        finally:
            soul.close()
    assert home.soul_path.exists()
    assert hashlib.sha256(home.soul_path.read_bytes()).hexdigest() == damaged


def test_reading_a_damaged_page_raises_instead_of_returning_wrong_data(anima_home):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        for i in range(300):
            soul.add("message", "user", session="s", role="user", content=f"message {i} " * 40, created_at="2026")
    data = bytearray(home.soul_path.read_bytes())
    data[len(data) // 2] ^= 0x01
    home.soul_path.write_bytes(bytes(data))
    with home.unlock(PASSPHRASE) as soul:
        with pytest.raises(DamagedSoul):
            rows = soul.query("SELECT content FROM messages")
            # Should the damaged page hold no message, every row must still be exactly right.
            assert all(r["content"].startswith("message ") for r in rows)
            soul.check()


def test_an_emptied_soul_file_is_damage_not_a_new_companion(anima_home, capsys, monkeypatch):
    """SQLite takes an empty file for a new database: opened as it is, a blank companion would replace the one
    that was there, and `anima check` would call it sound."""
    from anima import cli

    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
    home.soul_path.write_bytes(b"")
    with pytest.raises(DamagedSoul, match=r"is empty \(0 bytes\).*It was not changed"):
        home.unlock(PASSPHRASE)
    assert home.soul_path.stat().st_size == 0
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    assert cli.main(["--home", str(anima_home), "check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is empty (0 bytes)" in err[0], err
    assert home.soul_path.stat().st_size == 0 and not home.soul_path.with_name("soul.db-wal").exists()


def test_a_damaged_soul_is_one_line_in_the_terminal(anima_home, capfd, monkeypatch):
    """SQLCipher's own log lines ("ERROR CORE sqlite3Codec ...") are not shown beside the one clear line."""
    from anima import cli

    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    data = bytearray(home.soul_path.read_bytes())
    data[100] ^= 0x40  # page 1: opening fails at once
    home.soul_path.write_bytes(bytes(data))
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    assert cli.main(["--home", str(anima_home), "check"]) == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("anima: The soul file") and "damaged" in err[0], err


@pytest.mark.parametrize(
    "what, said",
    [("folder", "is a folder, not a regular file"), ("/dev/zero", "is a device or a pipe, not a regular file")],
)
def test_something_else_in_place_of_the_soul_file_is_said_to_be_so(anima_home, capsys, monkeypatch, what, said):
    """QA: a folder there was a traceback (OperationalError: unable to open database file), and a link to
    /dev/zero was said to be "empty (0 bytes)"."""
    from anima import cli

    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    home.soul_path.unlink()
    if what == "folder":
        home.soul_path.mkdir()
    else:
        home.soul_path.symlink_to(what)
    with pytest.raises(DamagedSoul, match=said):
        home.unlock(PASSPHRASE)
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    assert cli.main(["--home", str(anima_home), "check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and "nothing was changed" in err[0], err
    assert home.soul_path.is_dir() if what == "folder" else home.soul_path.is_symlink()


def test_a_page_of_garbage_after_the_end_is_said_without_an_ok(anima_home):
    """QA: one page of garbage appended gave "HMAC verification failed for page 101; ok. It was not changed.":
    the b-trees' "ok" read as part of what was wrong."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    with open(home.soul_path, "ab") as f:
        f.write(os.urandom(4096))
    with home.unlock(PASSPHRASE) as soul, pytest.raises(DamagedSoul, match="HMAC verification failed") as refused:
        soul.check()
    assert "; ok" not in str(refused.value) and "ok." not in str(refused.value)
