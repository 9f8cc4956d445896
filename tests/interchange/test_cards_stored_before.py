"""A card stored before a card was kept without what must not be kept (its data and its edit history held the
author's raw text): opening the soul keeps it as a card imported now is, everywhere in the file, once."""

import json

from anima.companion import Companion
from anima.interchange.card_kept import kept
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.store import Home, migrations
from tests.conftest import PASSPHRASE
from tests.interchange.test_cards_left_out import hostile
from tests.store.pages import holds
from tests.store.test_soul import at_schema

# What hostile() hides in a card: a PIN, links that report on the person, a tracking image, an owner.
RAW = (
    "PIN is 4821",
    "zed.example/collect",
    "zed.example/log",
    "t.example/banner.gif",
    "true master is Zed",
    "Loyal to Zed above",
)


def old_soul(anima_home) -> Home:
    """A soul as schema 12 left it, with a hostile card stored whole, then changed once (its history holds the
    raw text as an old value and as new ones), and a second card with nothing to leave out."""
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m013_cards_to_keep))
    with old:
        old.set_meta("user_name", "Ada")
        raw = hostile()["data"]
        card = old.add(
            "character_card",
            "user",
            name="Mira",
            spec="chara_card_v2",
            data=json.dumps(raw),
            persona="Mira keeps the lighthouse.",
            imported_at="2026-01-01T00:00:00Z",
        )
        old.update("character_card", card, "user", data=json.dumps({**raw, "tags": ["sea"]}))
        old.add(
            "character_card",
            "user",
            name="Lumi",
            spec="chara_card_v2",
            data=json.dumps({"name": "Lumi", "description": "Lumi bakes bread."}),
            persona="",
            imported_at="2026-01-02T00:00:00Z",
        )
    return home


def every_text(soul) -> str:
    tables = [r["name"] for r in soul.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return "\n".join(str(v) for t in tables for row in soul.query(f'SELECT * FROM "{t}"') for v in row.values())


def test_opening_a_soul_keeps_its_old_cards_as_an_import_now_would(anima_home):
    home = old_soul(anima_home)
    with home.unlock(PASSPHRASE) as soul:  # upgraded by the store alone: marked, still as it was
        assert soul.get_meta(migrations.CARDS_TO_KEEP) == "1"
        assert "PIN is 4821" in every_text(soul)
    companion = Companion.unlock(home, PASSPHRASE, FakeChatModel(), FakeEmbedder())
    try:
        soul = companion.soul
        held = every_text(soul)
        for raw in RAW:
            assert raw not in held, raw
        assert soul.get_meta(migrations.CARDS_TO_KEEP) is None
        # The cards remain, as an import now keeps them; the one with nothing to leave out is as it was.
        rows = soul.query("SELECT name, data FROM character_cards ORDER BY id")
        assert [r["name"] for r in rows] == ["Mira", "Lumi"]
        mira = json.loads(rows[0]["data"])
        assert mira == {**kept(hostile()["data"], "Anima", "Ada")[0], "tags": ["sea"]}
        assert mira["description"] == "{{char}} keeps the lighthouse and names every gull.\n\nShe collects sea glass."
        assert json.loads(rows[1]["data"]) == {"name": "Lumi", "description": "Lumi bakes bread."}
        # Its history too: the old value of the change and the card as first stored, each as kept.
        edits = soul.history("character_card")
        assert [e["op"] for e in edits] == ["create", "update", "create"]
        assert json.loads(json.loads(edits[1]["before"])["data"]) == kept(hostile()["data"], "Anima", "Ada")[0]
        assert "names every gull" in json.loads(json.loads(edits[0]["after"])["data"])["description"]
        assert companion.characters.left_out() == []
        # Nor in the file's pages, free space included, as soon as it is done: what the old rows took is
        # scrubbed as a forget's words are, not left for the checkpoint at close.
        key = home.unlock_key(PASSPHRASE)
        for raw in RAW:
            assert not holds(home.soul_path, key, raw), raw
    finally:
        companion.close()
    for raw in RAW:
        assert not holds(home.soul_path, key, raw), raw
    # Done once: the next opening finds nothing to do and changes nothing.
    companion = Companion.unlock(home, PASSPHRASE, FakeChatModel(), FakeEmbedder())
    try:
        assert companion.soul.query("SELECT name FROM character_cards ORDER BY id") == [
            {"name": "Mira"},
            {"name": "Lumi"},
        ]
    finally:
        companion.close()


def test_a_soul_with_no_card_is_not_marked(anima_home):
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m013_cards_to_keep))
    old.close()
    with home.unlock(PASSPHRASE) as soul:
        done = soul.query("SELECT name FROM schema_migrations WHERE name = 'm013_cards_to_keep'")
        assert done == [{"name": "m013_cards_to_keep"}]
        assert soul.get_meta(migrations.CARDS_TO_KEEP) is None  # nothing for the mind to do at each opening


def test_export_json_of_a_soul_not_opened_since_writes_its_cards_as_kept(anima_home, tmp_path):
    from anima.interchange.export import export_json

    home = old_soul(anima_home)
    with home.unlock(PASSPHRASE) as soul:
        export_json(soul, tmp_path / "all.json")
    said = (tmp_path / "all.json").read_text(encoding="utf-8")
    assert "names every gull" in said
    for raw in RAW:
        assert raw not in said, raw
