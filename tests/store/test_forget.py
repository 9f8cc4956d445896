import pytest

from anima.errors import NotFound
from tests.store.records import fill


def fts_hits(soul, table, word):
    return soul.query(f"SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?", (word,))


def test_forgetting_a_memory_removes_it_everywhere_and_flags_what_cited_it(soul):
    ids = fill(soul)
    heard = []
    soul.on_forget(lambda kind, item_id: heard.append((kind, item_id)))
    assert fts_hits(soul, "memories", "memory")
    soul.forget("memory", ids["memory"])

    assert soul.query("SELECT * FROM memories") == []
    assert fts_hits(soul, "memories", "memory") == []
    assert soul.query("SELECT * FROM embeddings WHERE item_kind = 'memory'") == []
    assert soul.query("SELECT * FROM edit_history WHERE item_kind = 'memory'") == []
    assert soul.query("SELECT * FROM evidence WHERE item_kind = 'memory'") == []
    # No placeholder: nothing anywhere still holds its text.
    for table in ("edit_history", "evidence", "meta"):
        for row in soul.query(f"SELECT * FROM {table}"):
            assert "CANARY-memory" not in repr(row)
    assert heard == [("memory", ids["memory"])]
    # What cited it is flagged for the next deep reflection.
    assert soul.get("rule", ids["rule"])["needs_regeneration"] == 1
    assert soul.get("growth_log", ids["growth_log"])["needs_regeneration"] == 1
    assert soul.get("self_model", ids["self_model"])["needs_regeneration"] == 1
    soul.check()


def test_forgetting_a_message_takes_its_signals_and_flags_its_episode_and_memories(soul):
    ids = fill(soul)
    soul.forget("message", ids["message"])
    assert soul.query("SELECT * FROM messages") == []
    assert fts_hits(soul, "messages", "message") == []
    assert soul.query("SELECT * FROM emotional_signals") == []
    assert soul.get("episode", ids["episode"])["needs_regeneration"] == 1
    memory = soul.get("memory", ids["memory"])
    assert memory["source_message_id"] is None and memory["needs_regeneration"] == 1


def test_forgetting_a_message_takes_the_changes_read_from_it_that_wait_or_were_turned_down(soul):
    """A proposal quotes the message it was read from: left pending, accepting it would write the forgotten words
    back into what is always in mind. One the person accepted is theirs, and only loses its source."""
    from anima.store.provenance import Provenance, Source

    said = soul.add(
        "message", "user", session="s", role="user", content="My coach is called Ingrid.", created_at="2026"
    )
    other = soul.add("message", "user", session="s", role="user", content="I swim on Sundays.", created_at="2026")
    made = {}
    for status, content, message in (
        ("pending", "Coach is called Ingrid", said),
        ("rejected", "Ingrid coaches", said),
        ("accepted", "Has a coach", said),
        ("pending", "Swims on Sundays", other),
    ):
        made[content] = soul.add(
            "proposal",
            "ai",
            provenance=Provenance(Source.PERSON, message),
            target="human",
            op="add",
            content=content,
            reason="why",
            source="person",
            message_id=message,
            status=status,
            created_at="2026",
        )
    gone = soul.forget("message", said)
    assert {("proposal", made["Coach is called Ingrid"]), ("proposal", made["Ingrid coaches"])} <= set(gone.items)
    left = {r["content"]: r for r in soul.query("SELECT * FROM proposals")}
    assert set(left) == {"Has a coach", "Swims on Sundays"}
    assert left["Has a coach"]["message_id"] is None and left["Swims on Sundays"]["message_id"] == other
    for table in ("edit_history", "provenance", "proposals"):
        assert "Ingrid" not in repr(soul.query(f"SELECT * FROM {table}"))
    assert soul.query("SELECT * FROM provenance WHERE message_id = ?", (said,)) == []


def test_forgetting_a_part_takes_its_predictions(soul):
    ids = fill(soul)
    soul.forget("part", ids["part"])
    assert soul.query("SELECT * FROM parts") == []
    assert soul.query("SELECT * FROM predictions") == []
    assert soul.query("SELECT * FROM edit_history WHERE item_kind IN ('part', 'prediction')") == []


def test_forgetting_an_episode_removes_it_from_the_index(soul):
    ids = fill(soul)
    soul.forget("episode", ids["episode"])
    assert soul.query("SELECT * FROM episodes") == []
    assert fts_hits(soul, "episodes", "episode") == []
    assert soul.query("SELECT * FROM evidence WHERE owner_kind = 'episode'") == []


def test_forgetting_what_is_not_there_is_a_clear_error(soul):
    with pytest.raises(NotFound):
        soul.forget("memory", 12345)


def test_a_forgotten_message_leaves_no_trace_in_its_neighbours_search_keys(soul):
    ids = [
        soul.add("message", "user", session="s", role="user", content=text, created_at="2026")
        for text in ("what did you paint", "a purple TANGERINE sunset", "lovely")
    ]
    hits = soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'tangerine' ORDER BY rowid")
    assert [h["rowid"] for h in hits] == ids  # found by its own words and through both neighbours
    soul.forget("message", ids[1])
    assert soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'tangerine'") == []
    # The neighbours now see each other.
    hits = soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'lovely' ORDER BY rowid")
    assert [h["rowid"] for h in hits] == [ids[0], ids[2]]


def test_a_forget_while_another_program_reads_commits_and_its_words_leave_the_file_when_the_last_closes(anima_home):
    from anima.store import Home
    from tests.conftest import PASSPHRASE
    from tests.store.pages import holds

    home = Home(anima_home)
    soul = home.create(PASSPHRASE)
    ids = fill(soul)
    soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
    key = home.unlock_key(PASSPHRASE)
    assert holds(home.dir / "soul.db", key, "CANARY-memory")  # what the check would see
    other = home.unlock(PASSPHRASE)  # the window and `anima chat` on one companion
    other.con.execute("BEGIN")
    other.con.execute("SELECT count(*) FROM memories").fetchall()  # a reader the WAL must wait for
    soul.forget("memory", ids["memory"])
    assert soul.query("SELECT * FROM memories") == []  # committed at once, not after the reader
    other.con.execute("COMMIT")
    assert other.query("SELECT * FROM memories") == []
    other.close()
    soul.close()
    wal = home.dir / "soul.db-wal"
    assert not holds(home.dir / "soul.db", key, "CANARY-memory")
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_forgotten_items_id_is_never_given_again(soul, tmp_path):
    """Forgetting the newest message freed its id in SQLite: the next message took it, and a 'forget message 13'
    typed from a listing made before would have removed that one. The floor travels with the portable core."""
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    first = soul.add("message", "user", session="s", role="user", content="kept", created_at="2026")
    newest = soul.add("message", "user", session="s", role="user", content="forgotten", created_at="2026")
    memory = soul.add(
        "memory", "ai", kind="fact", content="a fact", source="user_stated", valid_from="2026", created_at="2026"
    )
    signal = soul.add("signal", "ai", message_id=newest, signal="worried", evidence="said so", at="2026")
    soul.forget("message", newest)  # its signal goes with it
    soul.forget("memory", memory)
    assert soul.add("signal", "ai", message_id=first, signal="calm", evidence="said so", at="2026") > signal
    again = soul.add("message", "user", session="s", role="user", content="new", created_at="2026")
    assert again > newest > first
    assert (
        soul.add(
            "memory", "ai", kind="fact", content="another", source="user_stated", valid_from="2026", created_at="2026"
        )
        > memory
    )
    Home.export(soul, tmp_path / "core.anima", PASSPHRASE)
    home = Home(tmp_path / "other")
    home.import_core(tmp_path / "core.anima", PASSPHRASE, PASSPHRASE)
    with home.unlock(PASSPHRASE) as moved:
        moved.forget("message", again)
        assert moved.add("message", "user", session="s", role="user", content="later", created_at="2026") > again


def test_an_edit_forgotten_with_its_item_leaves_its_number_unused(soul):
    """Edits are listed by number for `undo N`: forgetting an item takes its edits, and the next edit must not take
    the newest one's number, or an undo typed from a listing made before would undo an edit never meant."""
    from anima.knowledge.history import History

    memory = soul.add(
        "memory", "ai", kind="fact", content="a fact", source="user_stated", valid_from="2026", created_at="2026"
    )
    (gone,) = [e["id"] for e in soul.history("memory", memory)]
    soul.forget("memory", memory)
    other = soul.add(
        "memory", "ai", kind="fact", content="another", source="user_stated", valid_from="2026", created_at="2026"
    )
    (new,) = [e["id"] for e in soul.history("memory", other)]
    assert new > gone
    with pytest.raises(NotFound):
        History(soul, None).undo(gone)


def test_a_forget_where_there_is_no_statvfs_stands_and_rebuilds(soul, monkeypatch):
    """Windows has no os.statvfs: the room a rebuild needs is asked of shutil.disk_usage, and a forget there
    committed, then raised AttributeError."""
    import os
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.delattr(os, "statvfs")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(1 << 40, 0, 1 << 39))
    gone = soul.add("message", "user", session="s", role="user", content="forgotten on windows", created_at="2026")
    soul.forget("message", gone)
    assert soul.query("SELECT count(*) AS n FROM messages WHERE id = ?", (gone,))[0]["n"] == 0


def test_what_went_is_said_in_counted_words():
    """What a forget says it took reads as a person would say it: "2 messages", "1 line of blocks"."""
    from collections import Counter

    from anima.store.forget import Forgotten

    gone = Forgotten(
        items=[("message", 1), ("message", 2), ("memory", 3), ("growth_log", 4)],
        lines=Counter({"self_model": 2, "block": 1}),
        edits=3,
        labels=1,
        flagged={("episode", 5), ("episode", 6), ("memory", 3)},
    )
    assert gone.describe() == (
        "2 messages, 1 memory, 1 growth-log entry, 2 lines of self-model sections, 1 line of blocks, "
        "3 versions in the edit history, 1 name of where things came from; marked, as they came from it: "
        "2 episodes (the next deep reflection makes them again from what is left)"
    )
    assert Forgotten().describe() == "nothing (nothing held it)"
