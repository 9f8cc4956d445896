"""The character_cards SQL the generic store does not do (store/character_cards.py): the picture beside a card's
row, out of its edit history; the newest card; and the rewrite m013 marks a soul for, once."""

from anima.store import Home, character_cards
from anima.store.migrations import CARDS_TO_KEEP
from tests.conftest import PASSPHRASE


def card(soul, name: str, data: str) -> int:
    return soul.add(
        "character_card", "user", name=name, spec="chara_card_v2", data=data, persona="", imported_at="2026"
    )


def test_the_newest_card_has_its_picture_kept_beside_it_not_in_its_history(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        assert character_cards.newest(soul) is None
        card(soul, "Old", "{}")
        new = card(soul, "New", "{}")
        with soul.transaction() as con:
            character_cards.set_avatar(con, new, "cGljdHVyZQ==")
        newest = character_cards.newest(soul)
        assert (newest["name"], newest["avatar"]) == ("New", "cGljdHVyZQ==")
        assert all("cGljdHVyZQ==" not in str(h) for h in soul.history("character_card", new))


def test_the_stored_cards_are_rewritten_once_and_the_mark_goes(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        held, fine = card(soul, "A", '{"d": "a secret"}'), card(soul, "B", '{"d": "fine"}')
        soul.set_meta(CARDS_TO_KEEP, "1")

        def data(text: str) -> tuple[str, int]:
            return (text.replace("a secret", "kept"), 1) if "a secret" in text else (text, 0)

        def edit(value: str | None) -> tuple[str | None, int]:
            return data(value) if value is not None else (value, 0)

        # The card's data, and its addition's new value in the edit history: two rewritten.
        assert character_cards.keep_as_kept(soul, data, edit) == 2
        assert soul.get("character_card", held)["data"] == '{"d": "kept"}'
        assert soul.get("character_card", fine)["data"] == '{"d": "fine"}'
        assert not any("a secret" in str(h) for h in soul.history("character_card", held))
        assert soul.get_meta(CARDS_TO_KEEP) is None
        assert character_cards.keep_as_kept(soul, data, edit) == 0  # once: the mark is gone
