"""Where a companion lives on disk: the home chosen, the files that are its own, and where an export may not go."""

import os
import stat
from pathlib import Path

import pytest

from anima import paths
from anima.errors import KnownError


def test_the_home_is_the_path_given_else_anima_home_else_the_platforms(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "from-env"))
    assert paths.home(tmp_path / "given") == tmp_path / "given"
    assert paths.home() == tmp_path / "from-env"
    monkeypatch.delenv(paths.HOME_ENV)
    assert paths.home().name == "anima" and paths.home() != tmp_path / "from-env"
    assert paths.soul_path(tmp_path) == tmp_path / "soul.db" and paths.key_path(tmp_path) == tmp_path / "soul.key"


def test_the_cache_is_anima_cache_else_the_platforms(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.CACHE_ENV, str(tmp_path / "cache"))
    assert paths.cache() == tmp_path / "cache"
    monkeypatch.delenv(paths.CACHE_ENV)
    assert paths.cache() != tmp_path / "cache" and paths.cache().name in ("anima", "cache")


@pytest.mark.parametrize(
    "name",
    ["soul.db", "SOUL.DB", "soul.key", "soul.db-wal", "soul.db-shm", "soul.key.new", ".soul.lock", ".soul-export.part"],
)
def test_the_soul_its_key_and_the_files_beside_them_are_its_own(name):
    assert paths.own_file(name)


@pytest.mark.parametrize("name", ["notes.txt", "soul.db.backup.animacore", "my-soul.db", "models", "settings.json"])
def test_other_files_in_the_home_are_not(name):
    assert not paths.own_file(name)


def test_an_export_onto_the_soul_its_key_or_the_home_is_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for target in (home / "soul.db", home / "soul.key", home / "SOUL.DB", home, home / "."):
        with pytest.raises(KnownError, match=r"the companion's own .*nothing was written"):
            paths.export_target(target, home)


def test_an_export_onto_another_companions_soul_is_refused(tmp_path):
    """Several companions live in one data folder (store/companions.py): one's export never replaces another's
    soul or key; a file of another name beside them is written."""
    home, other = tmp_path / "home", tmp_path / "home" / "companions" / "Bea"
    other.mkdir(parents=True)
    (other / "soul.db").write_bytes(b"Bea's soul")
    for target in (other / "soul.db", other / "soul.key", other / "soul.db-wal"):
        with pytest.raises(KnownError, match=r"another companion's own file.*nothing was written"):
            paths.export_target(target, home)
    assert paths.export_target(other / "backup.animacore", home) == other / "backup.animacore"
    assert paths.export_target(tmp_path / "soul.db", home) == tmp_path / "soul.db"  # no companion lives there


def test_an_export_follows_a_link_to_where_it_points(tmp_path):
    home, stick = tmp_path / "home", tmp_path / "stick"
    home.mkdir()
    stick.mkdir()
    (tmp_path / "backup").symlink_to(stick / "backup.animacore")
    assert paths.export_target(tmp_path / "backup", home) == stick / "backup.animacore"
    (tmp_path / "into-home").symlink_to(home / "soul.db")
    with pytest.raises(KnownError, match="own file"):
        paths.export_target(tmp_path / "into-home", home)  # a link cannot lead an export onto the soul


def test_an_export_into_a_missing_folder_or_onto_a_folder_or_device_is_refused(tmp_path):
    home = tmp_path / "home"
    with pytest.raises(KnownError, match="There is no folder"):
        paths.export_target(tmp_path / "nowhere" / "out.animacore", home)
    with pytest.raises(KnownError, match="is a folder, not a file"):
        paths.export_target(tmp_path, home)
    with pytest.raises(KnownError, match="is a device or a pipe, not a file"):
        paths.export_target("/dev/null", home)
    (tmp_path / "file.md").write_text("x")
    with pytest.raises(KnownError, match="is a file, not a folder"):
        paths.export_target(tmp_path / "file.md", home, folder=True)
    assert paths.export_target(tmp_path / "new-folder", home, folder=True) == tmp_path / "new-folder"
    assert paths.export_target(tmp_path / "file.md", home) == tmp_path / "file.md"  # a file there is overwritten


def test_what_is_not_a_file_is_named(tmp_path):
    (tmp_path / "f").write_text("x")
    assert paths.not_a_file(tmp_path / "f") is None
    assert paths.not_a_file(tmp_path) == "a folder"
    assert paths.not_a_file(Path("/dev/null")) == "a device or a pipe"
    assert paths.not_a_file(tmp_path / "missing") is None  # opening it says what is wrong


@pytest.mark.skipif(os.name != "posix", reason="permissions of a POSIX folder")
def test_a_folder_of_the_companions_is_made_its_owners_only(tmp_path):
    folder = tmp_path / "home"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    paths.owner_only(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    os.chmod(folder, 0o500)
    paths.owner_only(folder)  # nothing for others: left as it is
    assert stat.S_IMODE(folder.stat().st_mode) == 0o500
    os.chmod(folder, 0o700)
