"""Migration 9: the bids a reply weighed, kept with the reply, the message and the part (forgetting any removes it)."""

import pytest

from anima.store import SOUL_TABLES, migrations
from tests.conftest import PASSPHRASE
from tests.store.records import NOW, fill
from tests.store.test_soul import at_schema


def _bid(con, message_id, about_id, part_id):
    con.execute(
        "INSERT INTO bids(message_id, about_id, part_id, rank, focus, suggestion, predicted_result, "
        "confidence, timeframe_s, followed, made_at) VALUES (?, ?, ?, 1, 'f', 's', 'p', '60%', 60, 1, ?)",
        (message_id, about_id, part_id, NOW),
    )


def test_upgrading_adds_an_empty_bids_table_that_travels_in_the_core(anima_home):
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m009_bids))
    with old:
        fill(old)
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        assert soul.query("SELECT * FROM bids") == []
    assert "bids" in SOUL_TABLES


@pytest.mark.parametrize("which", ["reply", "said", "part"])
def test_forgetting_the_reply_the_message_or_the_part_removes_its_bids(soul, which):
    ids = {
        "part": soul.add("part", "ai", name="Tea", data="{}", created_at=NOW, updated_at=NOW),
        "said": soul.add("message", "user", session="s", role="user", content="tea?", created_at=NOW),
        "reply": soul.add("message", "ai", session="s", role="companion", content="tea!", created_at=NOW),
    }
    with soul.transaction() as con:
        _bid(con, ids["reply"], ids["said"], ids["part"])
    soul.forget("part" if which == "part" else "message", ids[which])
    assert soul.query("SELECT * FROM bids") == []
