"""Nothing the companion knows is on disk in plaintext: not in the database, its WAL, or an export."""

from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.records import fill

SQLITE_HEADER = b"SQLite format 3\x00"


def scan(directory, needles):
    hits = []
    for path in directory.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [(path.name, n) for n in needles if n in data]
    return hits


def test_canaries_written_through_every_record_kind_are_nowhere_in_plaintext(anima_home):
    canary = "ZEBRA-CANARY-7311"
    home = Home(anima_home)
    soul = home.create(PASSPHRASE)
    fill(soul, canary)
    Home.export(soul, anima_home / "backup.core", "export passphrase")
    needles = [canary.encode(), canary.encode("utf-16-le"), SQLITE_HEADER]
    # While it is open (WAL and shared memory present) and after it is closed.
    assert (anima_home / "soul.db-wal").exists()
    assert scan(anima_home, needles) == []
    soul.close()
    assert scan(anima_home, needles) == []
    # The canaries really were written: the key opens them.
    with home.unlock(PASSPHRASE) as again:
        assert again.query("SELECT content FROM memories")[0]["content"] == f"{canary}-memory"
