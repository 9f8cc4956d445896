import hashlib
import multiprocessing
import os
import signal
import time

import pytest

from anima.errors import DamagedSoul, WrongPassphrase
from anima.store import Home
from tests.conftest import PASSPHRASE


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_wrong_passphrase_is_a_typed_error_and_changes_no_byte(anima_home):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="hello", created_at="2026")
    before = {p.name: digest(p) for p in anima_home.iterdir()}
    with pytest.raises(WrongPassphrase, match="Wrong passphrase"):
        home.unlock("not the passphrase")
    assert {p.name: digest(p) for p in anima_home.iterdir()} == before


def test_change_passphrase_then_only_the_new_one_opens(anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    home.change_passphrase(PASSPHRASE, "a new one")
    with pytest.raises(WrongPassphrase):
        home.unlock(PASSPHRASE)
    home.unlock("a new one").close()
    with pytest.raises(WrongPassphrase):
        home.change_passphrase("wrong", "x")


def _change_forever(home_dir, old, new):
    home = Home(home_dir)
    while True:
        home.change_passphrase(old, new)
        old, new = new, old


@pytest.mark.slow  # starts and kills 12 processes
def test_a_crash_while_changing_the_passphrase_leaves_the_old_or_the_new_one_working(anima_home):
    home = Home(anima_home)
    home.create("one").close()
    ctx = multiprocessing.get_context("spawn")
    for i in range(12):
        # Whichever passphrase currently opens it is "old" for the next writer.
        try:
            home.unlock_key("one")
            proc = ctx.Process(target=_change_forever, args=(str(anima_home), "one", "two"))
        except WrongPassphrase:
            proc = ctx.Process(target=_change_forever, args=(str(anima_home), "two", "one"))
        proc.start()
        time.sleep(0.3 + 0.05 * i)
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        opened = 0
        for p in ("one", "two"):
            try:
                home.unlock(p).close()
                opened += 1
            except WrongPassphrase:
                pass
        assert opened == 1


def test_a_missing_or_damaged_key_file_is_reported(anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    home.key_path.write_text("{not json")
    with pytest.raises(DamagedSoul, match="key file"):
        home.unlock(PASSPHRASE)
    home.key_path.unlink()
    with pytest.raises(DamagedSoul, match="missing"):
        home.unlock(PASSPHRASE)
    assert home.soul_path.exists()
