"""A soul on a read-only disk, or a file SQLite may not open: one sentence that says so (exit 2), nothing changed.

QA found a home on a read-only filesystem ended `anima check` and `anima chat` in a traceback of
"OperationalError: unable to open database file" (and the window in its bug dialog)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlcipher3

from anima.errors import NoAccess
from anima.store import Home
from anima.store import soul as soul_module
from tests.conftest import PASSPHRASE

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_home_on_a_read_only_disk_is_one_line_and_stays_as_it_was(small_disk):
    home = Home(small_disk / "home")
    with home.create(PASSPHRASE) as soul:
        soul.set_meta("kept", "yes")
    before = {p.name: p.read_bytes() for p in home.dir.iterdir()}
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        with pytest.raises(NoAccess, match=r"cannot open the soul file .*read-only.*Nothing was changed"):
            home.unlock(PASSPHRASE)
        env = {
            "ANIMA_HOME": str(home.dir),
            "ANIMA_PASSPHRASE": PASSPHRASE,
            "ANIMA_SETTINGS": str(small_disk.parent / "settings.json"),
        }
        for command in (["check"], ["chat"]):
            r = subprocess.run(
                [sys.executable, "-m", "anima", *command],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env={**os.environ, **env},
                input="hello\n",
                timeout=300,
            )
            assert r.returncode == 2 and r.stderr.count("\n") == 1 and "read-only" in r.stderr, r.stderr
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert {p.name: p.read_bytes() for p in home.dir.iterdir()} == before
    with home.unlock(PASSPHRASE) as soul:
        assert soul.get_meta("kept") == "yes"


@pytest.mark.parametrize("code, doing", [(14, "open"), (8, "write"), (3, "open")])
def test_simulated_a_soul_sqlite_may_not_open_or_write_is_no_access(anima_home, monkeypatch, code, doing):
    """Where no mount is possible: SQLite's CANTOPEN, READONLY and PERM, as SQLite raises them."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()

    def refused(*args, **kwargs):
        e = sqlcipher3.OperationalError("unable to open database file")
        e.sqlite_errorcode = code
        raise e

    monkeypatch.setattr(soul_module.sqlcipher3, "connect", refused)
    with pytest.raises(NoAccess, match=f"Anima cannot {doing} the soul file"):
        home.unlock(PASSPHRASE)
