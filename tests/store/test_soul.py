import hashlib

import pytest

from anima.errors import DiskFull, InvalidEdit, NewerSchema, ReadOnlyRecord, SoulClosed
from anima.store import Home, Soul, migrations
from anima.store.sections import Kept, kept_in
from tests.conftest import PASSPHRASE
from tests.store.records import NOW, fill


def test_a_new_soul_has_the_whole_schema_and_the_pragmas(soul):
    tables = {r["name"] for r in soul.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for t in (
        "messages",
        "memories",
        "episodes",
        "parts",
        "predictions",
        "self_model",
        "growth_log",
        "behavioral_rules",
        "emotional_signals",
        "world_cards",
        "embeddings",
        "edit_history",
        "evidence",
        "schema_migrations",
        "memories_fts",
    ):
        assert t in tables
    assert soul.schema_version() == migrations.SCHEMA_VERSION
    assert soul.query("PRAGMA journal_mode")[0]["journal_mode"] == "wal"
    assert soul.query("PRAGMA synchronous")[0]["synchronous"] == 2  # FULL
    assert soul.query("PRAGMA foreign_keys")[0]["foreign_keys"] == 1
    sections = {r["section"] for r in soul.query("SELECT section FROM self_model")}
    assert sections == set(kept_in(Kept.SECTION))


def at_schema(anima_home, version: int) -> tuple[Home, Soul]:
    """A companion whose file is rebuilt as schema `version` wrote it (to be filled, closed, and upgraded)."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    key = home.unlock_key(PASSPHRASE)
    home.soul_path.unlink()
    return home, Soul(home.soul_path, key, create=True, migrate_to=version)


def test_upgrade_from_the_first_schema_keeps_the_data(anima_home):
    home, old = at_schema(anima_home, 1)
    with old:
        assert old.schema_version() == 1
        old.add(
            "memory",
            "user",
            kind="fact",
            content="has a cat named Miso",
            source="user_stated",
            valid_from=NOW,
            created_at=NOW,
        )
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        # The full-text index added by migration 2 covers rows written before it.
        hits = soul.query("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'miso'")
        assert len(hits) == 1
        names = [r["name"] for r in soul.query("SELECT name FROM schema_migrations ORDER BY version")]
        assert names == [m.__name__ for m in migrations.MIGRATIONS]


def test_upgrade_from_schema_3_indexes_the_unspaced_text_already_there(anima_home):
    import json

    home, old = at_schema(anima_home, 3)
    with old:
        said = old.add(
            "message", "user", session="s1", role="user", speaker="Ada", content="我住在北京", created_at=NOW
        )
        old.add("message", "user", session="s1", role="user", speaker="Ada", content="I live in Leeds", created_at=NOW)
        fact = old.add(
            "memory",
            "user",
            kind="fact",
            content="猫の名前はタマ",
            source="user_stated",
            valid_from=NOW,
            created_at=NOW,
        )
        old.add(
            "memory",
            "user",
            kind="fact",
            content="has a cat named Miso",
            source="user_stated",
            valid_from=NOW,
            created_at=NOW,
        )
        card = old.add(
            "world_card",
            "user",
            kind="place",
            title="Home",
            body="A flat.",
            keywords=json.dumps(["ฉันชอบกาแฟ"], ensure_ascii=False),
            created_at=NOW,
            updated_at=NOW,
        )
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        held = {
            t: [r["rowid"] for r in soul.query(f"SELECT rowid FROM {t}_grams")]
            for t in ("messages", "memories", "episodes", "world_cards")
        }
        assert held == {"messages": [said], "memories": [fact], "episodes": [], "world_cards": [card]}
        assert soul.query("SELECT rowid FROM memories_grams WHERE memories_grams MATCH '名前は'") == [{"rowid": fact}]
        assert soul.query("SELECT rowid FROM world_cards_grams WHERE world_cards_grams MATCH 'ชอบ'") == [
            {"rowid": card}
        ]


def test_a_soul_from_a_newer_schema_is_refused_and_left_unchanged(anima_home):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.con.execute("INSERT INTO schema_migrations VALUES (999, 'from_the_future', '2030')")
    before = hashlib.sha256(home.soul_path.read_bytes()).hexdigest()
    with pytest.raises(NewerSchema, match="newer Anima"):
        home.unlock(PASSPHRASE)
    assert hashlib.sha256(home.soul_path.read_bytes()).hexdigest() == before


def test_the_growth_log_is_append_only(soul):
    gid = soul.add("growth_log", "ai", at=NOW, entry="Learned to lead with the answer.")
    with pytest.raises(ReadOnlyRecord):
        soul.update("growth_log", gid, "ai", entry="rewritten history")
    with pytest.raises(ReadOnlyRecord):
        with soul.transaction() as con:
            con.execute("DELETE FROM growth_log WHERE id = ?", (gid,))
    assert soul.get("growth_log", gid)["entry"] == "Learned to lead with the answer."
    # A user's forget is the one exception.
    soul.forget("growth_log", gid)
    assert soul.query("SELECT count(*) AS n FROM growth_log")[0]["n"] == 0


def test_every_change_is_in_the_edit_history_with_actor_before_and_after(soul):
    card = soul.add(
        "world_card", "ai", kind="person", title="Sam", body="A friend from climbing.", created_at=NOW, updated_at=NOW
    )
    soul.update("world_card", card, "user", body="Sam is my brother.", updated_at=NOW)
    history = soul.history("world_card", card)
    assert [(h["op"], h["actor"]) for h in history] == [("create", "ai"), ("update", "user")]
    assert '"A friend from climbing."' in history[1]["before"]
    assert '"Sam is my brother."' in history[1]["after"]


def test_an_edit_that_breaks_a_rule_is_refused_and_the_old_value_kept(soul):
    card = soul.add(
        "world_card", "user", kind="place", title="Home", body="A flat in Leeds.", created_at=NOW, updated_at=NOW
    )
    with pytest.raises(InvalidEdit):
        soul.update("world_card", card, "user", body="   ", updated_at=NOW)
    with pytest.raises(InvalidEdit):
        soul.update("world_card", card, "user", keywords="not json", updated_at=NOW)
    assert soul.get("world_card", card)["body"] == "A flat in Leeds."
    assert len(soul.history("world_card", card)) == 1


def test_a_full_disk_is_a_clear_error_and_loses_nothing(soul):
    ids = fill(soul)
    pages = soul.query("PRAGMA page_count")[0]["page_count"]
    soul.con.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: as good as a full disk
    with pytest.raises(DiskFull, match="disk is full"):
        soul.add("message", "user", session="s1", role="user", content="y" * 200_000, created_at=NOW)
    assert soul.get("message", ids["message"])["content"] == "CANARY-message"
    assert soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == 1
    soul.check()


def test_a_closed_soul_says_so_instead_of_failing_inside(soul):
    soul.set_meta("note", "kept")
    soul.close()
    for use in (
        lambda: soul.query("SELECT 1"),
        lambda: soul.get_meta("note"),
        soul.check,
        lambda: soul.reading().__enter__(),
        lambda: soul.set_meta("note", "lost"),
    ):
        with pytest.raises(SoulClosed, match="was closed; nothing more was read or written"):
            use()
    soul.close()  # a second close is harmless
