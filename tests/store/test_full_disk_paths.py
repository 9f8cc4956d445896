"""A full disk at every step after opening: a turn, learning and quick reflection between turns, export, import, a
passphrase change, closing; and `python -m anima` on a full disk. Each is one KnownError with a message for people;
what was acknowledged is kept and nothing is half-saved; once space returns the step works.

On a real 8 MiB tmpfs (bench/diskfull.py holds the steps, which `bench faults` runs too); the simulated tests below
fail SQLite's and the OS's own calls the way a full disk does, for machines where nothing can be mounted."""

import errno
import os

import pytest

from anima.errors import DiskError, DiskFull
from anima.store import Home, keys
from bench import diskfull
from tests.conftest import PASSPHRASE
from tests.store.test_full_disk import simulate

# A home at rest: the soul, its key, and the two empty lock files (anima/store/locks.py).
HOME = [".soul.key.lock", ".soul.lock", "soul.db", "soul.key"]


def test_a_full_disk_at_each_step_is_one_known_error_and_nothing_half_saved(small_disk):
    cases = diskfull.run_cases(small_disk, command_line=False)
    assert [c.step for c in cases] == [
        "a turn",
        "learning",
        "quick reflection",
        "deep reflection",
        "forgetting",
        "making again",
        "export",
        "import",
        "passphrase change",
        "closing",
        "opening",
    ]
    failed = [f"{c.step}: {c.said}" for c in cases if not c.ok]
    assert not failed, "\n".join(failed)
    said = {c.step: c.said for c in cases}
    assert said["a turn"].startswith("The disk is full") and "nothing of this change was saved" in said["a turn"]
    assert said["learning"].startswith("Learning about the person stopped: The disk is full")
    assert said["deep reflection"].startswith("Reflecting deeply stopped: The disk is full")
    assert said["making again"].startswith("Reflecting deeply stopped: The disk is full")
    assert "Nothing was imported" in said["import"]
    assert "soul.key was not changed" in said["passphrase change"]


@pytest.mark.slow  # four runs of `python -m anima`
def test_the_commands_on_a_full_disk_say_one_line_and_exit_2(small_disk):
    home = Home(small_disk / "home")
    c = diskfull.companion(home)
    c.export_core(small_disk / "core.anima", diskfull.EXPORT_PASSPHRASE)
    c.close()
    for case in diskfull.command_line_cases(small_disk, home):
        assert case.ok and not case.traceback, (case.step, case.said)
        assert case.said.startswith("anima: The disk")


# ---- simulated -----------------------------------------------------------------------------------------------


def test_simulated_a_full_disk_when_a_turn_records_the_message(anima_home, monkeypatch):
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder

    simulate(monkeypatch, "INSERT INTO messages", free=50 * 2**30, code=13, message="database or disk is full")
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder())
    try:
        c.indexer_thread.join()
        with pytest.raises(DiskFull, match="nothing of this change was saved"):
            c.turn("hello").read()
        assert c.soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == 0
    finally:
        monkeypatch.undo()
        c.close()


def test_simulated_a_full_disk_between_a_message_and_the_file_sent_with_it_saves_neither(anima_home, monkeypatch):
    from anima.companion import Companion
    from anima.knowledge.messages import External
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.store.provenance import Source

    sent = ("what do you make of this?", [External(Source.FILE, "Minutes of the meeting", "a.txt")])
    # Their words are stored; the attached file's text, the next message row, meets the full disk.
    simulate(monkeypatch, "INSERT INTO messages", free=50 * 2**30, code=13, message="database or disk is full", skip=1)
    home = Home(anima_home)
    c = Companion.create(home, PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder())
    try:
        c.indexer_thread.join()
        with pytest.raises(DiskFull, match="nothing of this change was saved"):
            c.turn(sent[0], external=sent[1])
        assert c.soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == 0
    finally:
        monkeypatch.undo()
        c.close()
    # Space again: both are stored, the file's text citing the message it came with.
    c = Companion(home, home.unlock(PASSPHRASE), FakeChatModel().enqueue("They look fine."), FakeEmbedder())
    try:
        c.turn(sent[0], external=sent[1]).read()
        rows = c.soul.query(
            "SELECT m.id, m.content, p.source, p.message_id FROM messages AS m "
            "JOIN provenance AS p ON p.item_kind = 'message' AND p.item_id = m.id ORDER BY m.id"
        )
        assert [(r["content"], r["source"]) for r in rows][:2] == [
            (sent[0], "person"),
            ("Minutes of the meeting", "file"),
        ]
        assert rows[1]["message_id"] == rows[0]["id"]
    finally:
        c.close()


def test_simulated_an_io_error_inside_a_write_on_a_nearly_full_disk_is_disk_full(anima_home, monkeypatch):
    """SQLite reports some writes on a full disk as a bare I/O error (SQLITE_IOERR_WRITE, 778): a DiskFull when
    the disk is nearly full, a DiskError when it has room; never an untranslated bug."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    with monkeypatch.context() as mp:
        simulate(mp, "INSERT INTO meta", free=8 * 1024, code=778)
        with home.unlock(PASSPHRASE) as soul:
            with pytest.raises(DiskFull, match="8 KiB free: nothing of this change was saved"):
                soul.set_meta("x", "1")
            assert soul.get_meta("x") is None
    with monkeypatch.context() as mp:
        simulate(mp, "INSERT INTO meta", free=50 * 2**30, code=778)
        with home.unlock(PASSPHRASE) as soul:
            with pytest.raises(DiskError, match="nothing of this change was saved"):
                soul.set_meta("x", "1")


def test_simulated_a_full_disk_when_the_key_file_or_a_core_is_written(anima_home, tmp_path, monkeypatch):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    before = home.key_path.read_bytes()
    real_write = os.write

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(keys.os, "write", full)
    with pytest.raises(DiskFull, match=r"soul\.key was not changed"):
        home.change_passphrase(PASSPHRASE, "a new passphrase")
    assert home.key_path.read_bytes() == before
    with home.unlock(PASSPHRASE) as soul, pytest.raises(DiskFull, match=r"core\.anima was not changed"):
        Home.export(soul, tmp_path / "core.anima", "an export passphrase")
    monkeypatch.setattr(keys.os, "write", real_write)
    assert sorted(p.name for p in home.dir.iterdir()) == HOME  # no partial file
    assert not list(tmp_path.glob("core.anima*"))


def test_simulated_a_full_disk_while_importing_leaves_the_old_companion(anima_home, tmp_path, monkeypatch):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
        Home.export(soul, tmp_path / "core.anima", "an export passphrase")
    before = home.soul_path.read_bytes()
    simulate(monkeypatch, "INSERT INTO messages", free=4096, code=13, message="database or disk is full")
    with pytest.raises(DiskFull, match="Nothing was imported") as refused:
        home.import_core(tmp_path / "core.anima", "an export passphrase", PASSPHRASE, replace=True)
    # Said once: the terminal told the mistake, then "Closing then failed too:" and the same words again (QA).
    from anima.cli import _first_said

    said = _first_said(refused.value)
    assert said.count("is full") == 1 and said.endswith(
        "Nothing was imported; the companion here, if any, is as it was."
    ), said
    monkeypatch.undo()
    assert home.soul_path.read_bytes() == before
    assert sorted(p.name for p in home.dir.iterdir()) == HOME  # the staging soul is gone


def test_when_closing_fails_after_a_mistake_the_terminal_says_the_mistake_first(anima_home, monkeypatch, capsys):
    """A turn fails on a full disk, then the checkpoint at close fails too: one line, the turn's mistake first."""
    from anima import cli

    def fails(args):
        try:
            raise DiskFull("The disk is full: nothing of this change was saved.")
        finally:
            raise DiskFull("The disk holding it is full: everything already saved is kept.")

    monkeypatch.setattr(cli, "cmd_check", fails)
    assert cli.main(["check"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        "anima: The disk is full: nothing of this change was saved. Closing then failed too: The disk "
        "holding it is full: everything already saved is kept."
    ]


def test_simulated_a_forget_whose_scrub_meets_a_full_disk_stands_and_is_scrubbed_later(anima_home, monkeypatch):
    """The forget commits, then merging the full-text index meets a full disk: the item is gone (rows, vectors,
    the in-memory index), nobody is told "nothing was saved", and the merge is done after the next write."""
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from tests.store.test_full_disk import _Failing

    simulate(
        monkeypatch, "INSERT INTO messages_fts(messages_fts)", free=4096, code=13, message="database or disk is full"
    )
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder())
    try:
        c.indexer_thread.join()
        gone = c.messages.record("user", "Bea's phone number is secret")
        kept = c.messages.record("user", "The weather is grey")
        c.forget("message", gone)
        assert not c.soul.query("SELECT 1 FROM messages WHERE id = ?", (gone,))
        assert not c.soul.query("SELECT 1 FROM embeddings WHERE item_kind = 'message' AND item_id = ?", (gone,))
        assert ("message", gone) not in {(r.kind, r.id) for r in c.recall("Bea phone number", 10)}
        assert c.soul._scrub_pending
        _Failing.fail_on = "no statement starts like this"  # room again
        c.soul.set_meta("any", "write")
        assert not c.soul._scrub_pending
        assert c.soul.query("SELECT 1 FROM messages WHERE id = ?", (kept,))
    finally:
        monkeypatch.undo()
        c.close()
