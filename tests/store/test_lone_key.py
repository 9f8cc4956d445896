"""A home holding a companion's key file without its soul file (the person moved soul.db away): the key file is the
only key to the moved soul, so nothing makes a new companion over it; each way in says so in one sentence."""

import hashlib
import re

import pytest

from anima import cli
from anima.errors import KeyWithoutSoul
from anima.store import Home
from tests.conftest import PASSPHRASE, exported

EXPORT = "export passphrase"
SAID = "without its soul file (soul.db): move the key file away, or put the soul file back; nothing was changed."


@pytest.fixture
def moved(anima_home, tmp_path):
    """The home with only its key file left, the soul moved to `away`, and a core to import."""
    home = exported(anima_home, tmp_path / "soul.core", "in the moved soul", EXPORT)
    away = tmp_path / "away.db"
    home.soul_path.rename(away)
    return home, away, tmp_path / "soul.core"


def state(home: Home) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in home.dir.iterdir()}


def test_creating_or_importing_over_a_key_without_its_soul_is_refused(moved):
    home, away, core = moved
    before = state(home)
    with pytest.raises(KeyWithoutSoul, match=re.escape(SAID)):
        home.create("another good passphrase")
    with pytest.raises(KeyWithoutSoul, match=re.escape(SAID)):
        home.import_core(core, EXPORT, "another good passphrase")
    assert state(home) == before and not home.exists()
    away.rename(home.soul_path)  # put back, the kept key opens it
    with home.unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT content FROM messages")[0]["content"] == "in the moved soul"


@pytest.mark.parametrize("command", [["chat"], ["import", "CORE"], ["recall", "moved"]])
def test_the_terminal_says_so_in_one_line_before_asking_anything(moved, monkeypatch, capsys, command):
    home, _away, core = moved
    before = state(home)
    monkeypatch.setenv("ANIMA_PASSPHRASE", "another good passphrase")
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", EXPORT)
    assert cli.main([str(core) if c == "CORE" else c for c in command]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("anima: A companion's key file (soul.key) is in ") and SAID in err[0]
    assert state(home) == before and not home.exists()
