"""What a forget leaves in the decrypted pages of the soul file (store/forget.py, DESIGN "Forgetting is absolute").

A QA run once found "stress B message 20 ab" in the free space of a messages_fts_content page after a forget made
while two programs chatted on one soul. It was not a missing secure_delete (every connection is a Soul's, and sets
it): when SQLite rebalances a b-tree it rebuilds pages (btree.c, rebuildPage) without zeroing the space between the
cell pointers and the cells, so copies of rows that moved stay there as free space. A later delete, secure or not,
zeroes only the row's live cell. messages_fts_content churns most (each new message rewrites the one before it,
whose search key grows by its neighbour's words), so it shows first; two programs chatting only make more churn.
"""

import os
import random

import pytest

from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.pages import holds


def said(program: str, n: int) -> str:
    # Its own word too ("bword0020"), which the full-text index holds as a term.
    return f"stress {program} message {n} about {program}word{n:04d} "


def test_messages_forgotten_while_two_programs_chat_leave_nothing_in_the_file(anima_home):
    """Two programs on one soul say 400 messages between them, of every length, each in its own conversation;
    one forgets a sixth of them, its own and the other's, while the other holds the soul open (reading, at times,
    through a forget). Then no page, free space included, holds a word of any of them."""
    home = Home(anima_home)
    a = home.create(PASSPHRASE)
    b = home.unlock(PASSPHRASE)
    rng = random.Random(20)
    stored = {}
    try:
        for n in range(400):
            program, soul = rng.choice((("A", a), ("B", b)))
            stored[(program, n)] = soul.add(
                "message",
                "user",
                session=program,
                role="user",
                content=said(program, n) + "w" * rng.randint(0, 400),
                created_at="2026",
            )
        forgotten = rng.sample(sorted(stored), 70)
        for i, key in enumerate(forgotten):
            if i % 10 == 0:  # the other program mid-read: the WAL cannot be emptied at once
                b.con.execute("BEGIN")
                b.con.execute("SELECT count(*) FROM messages").fetchall()
                a.forget("message", stored[key])
                b.con.execute("COMMIT")
            else:
                a.forget("message", stored[key])
        # The last forget returned with the other program open (and idle): the file is clean already.
        assert traces(home, forgotten) == [] and (home.dir / "soul.db-wal").stat().st_size == 0
    finally:
        b.close()
        a.close()
    assert traces(home, forgotten) == []


def traces(home: Home, forgotten) -> list[str]:
    key = home.unlock_key(PASSPHRASE)
    return [
        said(*k)
        for k in forgotten
        if holds(home.soul_path, key, said(*k).strip()) or holds(home.soul_path, key, f"{k[0]}word{k[1]:04d}")
    ]


def test_the_page_check_reads_a_wal_frame_by_frame(anima_home):
    """What the tests' WAL checks rest on: a word written and not yet folded into the file is found in the WAL's
    frames (read as the soul file, they decrypted to noise and no trace there could be found)."""
    home = Home(anima_home)
    soul = home.create(PASSPHRASE)
    key = home.unlock_key(PASSPHRASE)
    wal = home.dir / "soul.db-wal"
    try:
        soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
        soul.add(
            "message", "user", session="s", role="user", content="Quillonby said the harbour froze", created_at="2026"
        )
        assert wal.stat().st_size > 0
        assert holds(wal, key, "Quillonby") and not holds(home.soul_path, key, "Quillonby")
        assert not holds(wal, key, "Zarnuvexil")
    finally:
        soul.close()


def test_a_forget_made_while_the_other_program_reads_leaves_the_file_at_this_programs_next_write(anima_home):
    """While the other program reads, the pages of the file that hold the forgotten words are its snapshot: the
    WAL cannot be folded in, and the words stay in the file after the forget returns. It was left to the last
    program to close the soul; now this program's next write folds it in as soon as no reader holds it."""
    home = Home(anima_home)
    a = home.create(PASSPHRASE)
    b = home.unlock(PASSPHRASE)
    key = home.unlock_key(PASSPHRASE)
    wal = home.dir / "soul.db-wal"
    try:
        gone = a.add(
            "message", "user", session="s", role="user", content="Quillonby said the harbour froze", created_at="2026"
        )
        a.add("message", "user", session="s", role="user", content="and the boats stayed in", created_at="2026")
        a.query("PRAGMA wal_checkpoint(TRUNCATE)")
        assert holds(home.soul_path, key, "Quillonby")
        b.con.execute("BEGIN")
        b.con.execute("SELECT count(*) FROM messages").fetchall()  # the other program mid-read
        a.forget("message", gone)
        assert holds(home.soul_path, key, "Quillonby")  # its snapshot: not to be written over yet
        b.con.execute("COMMIT")
        a.add("message", "user", session="s", role="user", content="the next turn", created_at="2026")
        assert not holds(home.soul_path, key, "Quillonby") and wal.stat().st_size == 0
        assert b.query("SELECT count(*) AS n FROM messages")[0]["n"] == 2
    finally:
        b.close()
        a.close()
    assert not holds(home.soul_path, key, "Quillonby")


def copies_made_during(soul, fn) -> list[bytes]:
    """What the files SQLite made and deleted beside the soul (its temporary files) held while `fn` ran, read
    through this program's open descriptors as they were written (Linux: /proc)."""
    import os
    import threading

    seen, done = {}, threading.Event()

    def watch():
        while not done.is_set():
            for fd in os.listdir("/proc/self/fd"):
                try:
                    target = os.readlink(f"/proc/self/fd/{fd}")
                    if target.startswith(str(soul.path.parent)) and target.endswith("(deleted)"):
                        with open(f"/proc/self/fd/{fd}", "rb") as f:
                            seen[target] = max(seen.get(target, b""), f.read(), key=len)
                except OSError:
                    pass
            done.wait(0.002)  # the next look, or none once the work is done

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        fn()
    finally:
        done.set()
        watcher.join()
    return list(seen.values())


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads open files through Linux's /proc")
def test_a_large_souls_rebuild_is_made_beside_it_encrypted_and_leaves_nothing(anima_home, monkeypatch):
    """Past REWRITE_IN_MEMORY_MOST the rebuild's copy of the soul is a file beside it, not memory (392 MB above
    the program's own, for 100,000 messages): SQLCipher encrypts it, SQLite deletes it as it opens it, and it is
    gone after."""
    from anima.store import forget

    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        ids = [
            soul.add(
                "message", "user", session="s", role="user", content=said("C", n) + "kept " * 200, created_at="2026"
            )
            for n in range(300)
        ]
        monkeypatch.setattr(forget, "REWRITE_IN_MEMORY_MOST", 0)
        # A copy that fits SQLite's page cache (8 MB) is never written out: a cache of 50 pages (VACUUM gives the
        # copy the soul's) makes this 2 MB soul's go to its file.
        soul.con.execute("PRAGMA cache_size = 50")
        before = sorted(p.name for p in anima_home.iterdir())
        copies = copies_made_during(soul, lambda: soul.forget("message", ids[7]))
        assert copies and max(len(c) for c in copies) > soul.path.stat().st_size // 2  # the copy, on disk
        assert not any(b"stress C message" in c or b"kept kept" in c for c in copies)  # encrypted
        assert sorted(p.name for p in anima_home.iterdir()) == before  # deleted as it was opened
        assert soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == 299
        soul.check()
    assert not traces(home, [("C", 7)])
    monkeypatch.setattr(forget, "REWRITE_IN_MEMORY_MOST", 1 << 40)
    with home.unlock(PASSPHRASE) as soul:  # a small soul's copy is made in memory
        soul.con.execute("PRAGMA cache_size = 50")
        assert copies_made_during(soul, lambda: soul.forget("message", ids[8])) == []
    assert not traces(home, [("C", 8)])
