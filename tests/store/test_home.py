"""The home folder is readable by its owner only, even one that was there before Anima (mkdir's mode does
nothing to a folder that exists)."""

import logging
import os
import stat

import pytest

from anima.store import Home
from tests.conftest import PASSPHRASE, exported

pytestmark = pytest.mark.skipif(os.name != "posix", reason="folder modes are POSIX's")


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_creating_in_a_folder_others_can_read_makes_it_private(anima_home):
    anima_home.mkdir()
    os.chmod(anima_home, 0o755)  # made by the person, or by an older Anima
    Home(anima_home).create(PASSPHRASE).close()
    assert mode(anima_home) == 0o700


def test_unlocking_a_home_others_can_read_makes_it_private(anima_home):
    Home(anima_home).create(PASSPHRASE).close()
    os.chmod(anima_home, 0o755)
    Home(anima_home).unlock(PASSPHRASE).close()
    assert mode(anima_home) == 0o700


def test_importing_into_a_folder_others_can_read_makes_it_private(anima_home, tmp_path):
    exported(anima_home, tmp_path / "backup.core", "hello", "export passphrase")
    new = tmp_path / "new"
    new.mkdir()
    os.chmod(new, 0o755)
    Home(new).import_core(tmp_path / "backup.core", "export passphrase", PASSPHRASE)
    assert mode(new) == 0o700


def test_a_folder_another_user_owns_is_left_as_it_is(anima_home, monkeypatch):
    Home(anima_home).create(PASSPHRASE).close()
    os.chmod(anima_home, 0o755)
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)  # as if the folder were someone else's
    Home(anima_home).unlock(PASSPHRASE).close()
    monkeypatch.undo()
    assert mode(anima_home) == 0o755


def test_a_folder_that_cannot_be_made_private_still_opens_with_a_warning(anima_home, monkeypatch, caplog):
    Home(anima_home).create(PASSPHRASE).close()
    os.chmod(anima_home, 0o755)

    def refused(*args, **kwargs):
        raise PermissionError("not allowed")

    monkeypatch.setattr(os, "chmod", refused)
    with caplog.at_level(logging.WARNING, logger="anima.paths"):
        Home(anima_home).unlock(PASSPHRASE).close()
    monkeypatch.undo()
    assert mode(anima_home) == 0o755
    assert "could not make a folder of the companion's readable by its owner only (PermissionError)" in caplog.text
