"""A write-ahead log beside a soul that is not its own (store/wal.py).

QA found two ways to lose a soul through its soul.db-wal: another soul's log beside a healthy soul damaged it
for good, while the person read "It was not changed"; and an import that replaced a soul a crash had left with
its log gave a soul that would not open (the old log was folded into the new file).
"""

import hashlib
import shutil

import pytest

from anima.errors import DamagedSoul, KeyWithoutSoul
from anima.store import Home
from tests.conftest import PASSPHRASE, exported

EXPORT = "an export passphrase of some length"


def closed_home(folder, texts) -> Home:
    """A home whose soul holds `texts`, closed (its log folded in)."""
    home = Home(folder)
    with home.create(PASSPHRASE) as soul:
        for text in texts:
            soul.add("message", "user", session="s", role="user", content=text, created_at="2026")
    return home


def killed_copy(home: Home, into, texts) -> Home:
    """`home` as a program killed after writing `texts` leaves it: its soul.db, and the log holding the writes
    (copied while the soul is open, before any close folds the log in)."""
    soul = home.unlock(PASSPHRASE)
    try:
        for text in texts:
            soul.add("message", "user", session="s", role="user", content=text, created_at="2026")
        shutil.copytree(home.dir, into)
    finally:
        soul.close()
    assert (into / "soul.db-wal").stat().st_size > 32
    return Home(into)


def said(home: Home) -> list[str]:
    with home.unlock(PASSPHRASE) as soul:
        soul.check()
        return [m["content"] for m in soul.query("SELECT content FROM messages ORDER BY id")]


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_souls_own_log_left_by_a_kill_is_folded_in(tmp_path):
    """The check refuses nothing of the soul's own: a few hundred pages' writes, all there after the restart."""
    home = closed_home(tmp_path / "a", ["before"])
    texts = [f"written before the kill {i} " + "words " * 100 for i in range(300)]
    copy = killed_copy(home, tmp_path / "killed", texts)
    assert said(copy) == ["before", *texts]


def test_another_souls_log_beside_a_soul_is_refused_and_the_soul_is_left_as_it_was(tmp_path):
    home = closed_home(tmp_path / "a", ["mine", "also mine"])
    other = killed_copy(closed_home(tmp_path / "b", ["theirs"]), tmp_path / "b-killed", ["theirs, in the log"])
    for name in ("soul.db-wal", "soul.db-shm"):
        shutil.copy(other.dir / name, home.dir / name)
    before = digest(home.soul_path)
    with pytest.raises(DamagedSoul, match="was not written for this soul file") as refused:
        home.unlock(PASSPHRASE)
    assert "nothing was changed" in str(refused.value) and "move soul.db-wal and soul.db-shm" in str(refused.value)
    assert digest(home.soul_path) == before and (home.dir / "soul.db-wal").stat().st_size > 32
    # Done as it says, the soul opens whole.
    for name in ("soul.db-wal", "soul.db-shm"):
        (home.dir / name).rename(tmp_path / name)
    assert said(home) == ["mine", "also mine"]


def test_another_souls_file_beside_this_souls_log_is_left_as_it_was(tmp_path):
    """The other way round: soul.db from another companion beside this one's log (files copied from two places)."""
    mine = killed_copy(closed_home(tmp_path / "a", ["mine"]), tmp_path / "a-killed", ["mine, in the log"])
    theirs = closed_home(tmp_path / "b", ["theirs"])
    shutil.copy(theirs.soul_path, mine.soul_path)
    before = digest(mine.soul_path)
    with pytest.raises(DamagedSoul, match="fails its check") as refused:
        mine.unlock(PASSPHRASE)
    assert "Nothing was changed" in str(refused.value)
    assert digest(mine.soul_path) == before
    assert said(theirs) == ["theirs"]


def test_an_import_over_a_soul_a_kill_left_with_its_log_opens_as_the_core(tmp_path, anima_home):
    core = tmp_path / "other.core"
    exported(tmp_path / "exporter", core, "from the core", EXPORT)
    home = killed_copy(closed_home(tmp_path / "a", ["old"]), tmp_path / "a-killed", ["old, in the log"])
    home.import_core(core, EXPORT, PASSPHRASE, replace=True)
    assert said(home) == ["from the core"]


@pytest.mark.parametrize("name", ["soul.db-wal", "soul.db-shm"])
@pytest.mark.parametrize("what", ["folder", "link to nowhere", "pipe"])
def test_something_not_sqlites_beside_the_soul_is_said_to_be_so(tmp_path, name, what):
    """QA: a folder or a link to nowhere in place of soul.db-wal ended `anima check` in a traceback ("unable to
    open database file"); a folder in place of soul.db-shm, in one on closing, after a new empty log was made."""
    import os

    home = closed_home(tmp_path / "a", ["kept"])
    odd = home.dir / name
    {
        "folder": odd.mkdir,
        "link to nowhere": lambda: odd.symlink_to(tmp_path / "nowhere"),
        "pipe": lambda: os.mkfifo(odd),
    }[what]()
    before = digest(home.soul_path)
    with pytest.raises(DamagedSoul, match="is not a file SQLite made") as refused:
        home.unlock(PASSPHRASE)
    assert str(odd) in str(refused.value) and "nothing was changed" in str(refused.value)
    assert digest(home.soul_path) == before and sorted(p.name for p in home.dir.iterdir()) == sorted(
        [".soul.key.lock", ".soul.lock", "soul.db", "soul.key", name]
    )
    (odd.rmdir if what == "folder" else odd.unlink)()
    assert said(home) == ["kept"]


@pytest.mark.parametrize("swapped", ["soul.db", "soul.key"])
def test_a_soul_beside_another_companions_key_is_not_called_damaged(tmp_path, swapped):
    """QA: another companion's soul.key (with the same passphrase) beside a whole soul.db, or the other way round,
    was "damaged … restore it from an exported core": advice that would throw away a soul that is whole."""
    home = closed_home(tmp_path / "a", ["mine"])
    other = closed_home(tmp_path / "b", ["theirs"])
    (home.dir / swapped).rename(tmp_path / f"mine.{swapped}")
    shutil.copy(other.dir / swapped, home.dir / swapped)
    before = digest(home.soul_path)
    with pytest.raises(DamagedSoul, match="come from different companions") as refused:
        home.unlock(PASSPHRASE)
    assert "Nothing was changed" in str(refused.value) and digest(home.soul_path) == before
    (tmp_path / f"mine.{swapped}").replace(home.dir / swapped)
    assert said(home) == ["mine"]


def test_a_log_left_by_a_soul_moved_away_is_not_removed_by_a_new_one(tmp_path):
    """Review: with soul.db and soul.key moved away after a crash, their log left behind, a new companion (or an
    import into the empty home) removed the log: the moved soul's last writes."""
    killed = killed_copy(closed_home(tmp_path / "a", ["before"]), tmp_path / "a-killed", ["in the log only"])
    moved = tmp_path / "moved"
    moved.mkdir()
    for name in ("soul.db", "soul.key"):
        (killed.dir / name).rename(moved / name)
    log = (killed.dir / "soul.db-wal").read_bytes()
    with pytest.raises(KeyWithoutSoul, match="holds the last writes of a soul moved away"):
        Home(killed.dir).create(PASSPHRASE)
    assert (killed.dir / "soul.db-wal").read_bytes() == log
    for name in ("soul.db-wal", "soul.db-shm"):  # put back beside it, as the refusal says
        (killed.dir / name).rename(moved / name)
    assert said(Home(moved)) == ["before", "in the log only"]
