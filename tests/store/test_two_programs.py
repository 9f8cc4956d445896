"""Two programs on one companion (the window and `python -m anima chat`), as two real processes on one real
encrypted soul: each finds what the other stored, by meaning, at its next recall; what the other forgot is gone
from it; settings and the self-model the other changed are read again; and writing at the same time, while
the other recalls, forgets (a WAL checkpoint) and closes, never meets "database is locked"."""

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import PASSPHRASE, until

ROOT = Path(__file__).resolve().parent.parent.parent


class OtherProgram:
    def __init__(self, monkeypatch):
        monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.other_program"],
            cwd=ROOT,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert self._answer() == {"ready": True}

    def _answer(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the other program ended: {self.proc.stderr.read()[-3000:]}")
        return json.loads(line)

    def __call__(self, command: str) -> dict:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        out = self._answer()
        assert "error" not in out, out["error"]
        return out

    def quit(self) -> None:
        assert self("quit") == {"closed": True}
        _, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0 and "Traceback" not in err, err[-3000:]

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()


@pytest.fixture
def other(companion, monkeypatch):
    program = OtherProgram(monkeypatch)
    yield program
    program.end()


def test_what_the_other_program_says_is_recalled_by_meaning_and_its_forget_is_followed(companion, other):
    mid = other("say My grandmother's marmalade needs seville oranges")["id"]
    found = {r.key: r for r in companion.recaller.search("seville oranges for marmalade", 5)}
    assert found[("message", mid)].components["vector_rank"] == 1  # by meaning, not only by its words
    assert companion.indexer.index.vector(("message", mid)) is not None
    other(f"forget {mid}")
    assert ("message", mid) not in {r.key for r in companion.recaller.search("seville oranges for marmalade", 5)}
    assert companion.indexer.index.vector(("message", mid)) is None
    other.quit()


def test_settings_and_the_self_model_the_other_program_changed_are_read_again(companion, other):
    companion.reflector.every = 1
    other("every 7")
    other("self intentions Learn to make marmalade with Ada")
    companion.recall("marmalade", 3)  # the next turn's recall notices the other program wrote
    assert companion.reflector.every == 7 and companion.rhythm.read().every == 7
    assert companion.self_model.read().intentions == "Learn to make marmalade with Ada"
    companion.reflector.every = 2  # this program's own choice stands while the stored one does not change
    other("say something else")
    companion.recall("something", 3)
    assert companion.reflector.every == 2
    other.quit()


def test_both_writing_at_once_never_meet_a_locked_soul_and_every_write_is_kept(companion, other):
    written, errors, stop, writes = [], [], threading.Event(), [0]

    def here():
        n = 0
        while not stop.is_set():
            n += 1
            writes[0] = n
            try:
                written.append(companion.messages.record("user", f"program a writes line {n} about kites"))
                if n % 5 == 0:
                    companion.recaller.search("kites and lanterns", 5)
                if n % 25 == 0:  # a forget ends in a WAL checkpoint (TRUNCATE), with the other program writing
                    companion.forget("message", written.pop(0))
            except Exception as e:
                errors.append(f"{type(e).__name__}: {e}")

    thread = threading.Thread(target=here)
    thread.start()
    try:
        there = other("write 2.5")
        other.quit()  # its closing checkpoint, with this program still writing
        closed_at = writes[0]
        until(lambda: writes[0] >= closed_at + 10 or errors, what="writes after the other program closed")
    finally:
        stop.set()
        thread.join()
    assert errors == [] and there["errors"] == []
    assert len(written) > 20 and len(there["ids"]) > 20
    stored = {r["id"] for r in companion.soul.query("SELECT id FROM messages")}
    assert set(written) | set(there["ids"]) <= stored
    unembedded = companion.soul.query(
        "SELECT count(*) AS n FROM messages WHERE id NOT IN "
        "(SELECT item_id FROM embeddings WHERE item_kind = 'message')"
    )
    assert unembedded[0]["n"] == 0
    companion.recaller.search("lanterns", 5)
    assert companion.indexer.index.keys() == {("message", i) for i in stored}
    companion.soul.check()


def test_two_programs_opening_an_older_soul_at_once_both_open_it(anima_home, monkeypatch):
    """Both read schema 10; one applies migration 11 first: the other, waiting for its turn to write, finds it
    applied and goes on (it used to run it again and fail: "table vector_feed already exists")."""
    from anima.store import Home, Soul, migrations

    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    key = home.unlock_key(PASSPHRASE)
    home.soul_path.unlink()
    with Soul(home.soul_path, key, create=True, migrate_to=10) as old:
        old.add("message", "user", session="s", role="user", content="from before the feed", created_at="2026")
        old.put_vector("message", 1, "fake-hash", [1.0] + [0.0] * 383)
    real = migrations.current_version

    def read_then_the_other_program_opens_it(con):
        version = real(con)
        monkeypatch.setattr(migrations, "current_version", real)
        Soul(home.soul_path, key).close()  # the other program applies migration 11 now
        return version

    monkeypatch.setattr(migrations, "current_version", read_then_the_other_program_opens_it)
    first = Soul(home.soul_path, key)
    with Soul(home.soul_path, key) as second, first:
        assert first.schema_version() == second.schema_version() == migrations.SCHEMA_VERSION
        from anima.models.fake import FakeEmbedder
        from anima.retrieval.indexer import Indexer

        indexer = Indexer(first, FakeEmbedder())
        assert indexer.load() == 1  # what was stored before the feed existed is read all the same


def test_a_write_kept_waiting_past_the_busy_timeout_is_a_clear_mistake_and_nothing_half_saved(anima_home):
    """Another program holding the soul's write lock past the busy timeout: not "database is locked" (a bug to
    the person, and the window's crash dialog) but SoulBusy, which says nothing was saved; then it works."""
    import sqlcipher3

    from anima.errors import SoulBusy
    from anima.store import Home
    from anima.store.soul import raw_key_pragma

    home = Home(anima_home)
    soul = home.create(PASSPHRASE)
    holder = sqlcipher3.connect(str(home.soul_path), isolation_level=None)
    holder.execute(raw_key_pragma(home.unlock_key(PASSPHRASE)))
    try:
        soul.con.execute("PRAGMA busy_timeout = 50")  # the same wait, shorter
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(SoulBusy, match=r"Another program on this soul kept it busy.*nothing of this change"):
            soul.add("message", "user", session="s", role="user", content="waiting", created_at="2026")
        holder.execute("ROLLBACK")
        soul.add("message", "user", session="s", role="user", content="after", created_at="2026")
        assert [r["content"] for r in soul.query("SELECT content FROM messages")] == ["after"]
    finally:
        holder.close()
        soul.close()


def test_a_person_forgotten_while_the_other_program_writes_leaves_no_trace_in_the_file(companion, other, anima_home):
    """A QA probe once found 22 bytes of a chat message in a page's free space after a forget made while another
    program wrote. Here the other program names a person, then writes about something else while this one forgets
    them; every decrypted page (free space and free pages included) is then free of the name."""
    from anima.store import Home
    from tests.store.pages import holds

    for i in range(30):
        other(f"say Kestrelmund told me story {i} about the harbour " + "x" * (i * 7))
        companion.messages.record("user", f"I keep notes on the harbour, page {i} " + "y" * (i * 5))
    other.proc.stdin.write("write 2\n")  # lanterns, for two seconds, while the forget runs
    other.proc.stdin.flush()
    assert companion.forget_person("Kestrelmund").total >= 30
    assert not other._answer()["errors"]
    other.quit()
    key = Home(anima_home).unlock_key(PASSPHRASE)
    companion.close()
    assert not holds(Home(anima_home).soul_path, key, "Kestrelmund")
