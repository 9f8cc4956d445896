"""Undoing an edit from the history, on a real encrypted soul: a supersession is undone whole."""

import pytest


def current(c) -> list[str]:
    return [m["content"] for m in c.memories.current()]


@pytest.fixture
def superseded(companion):
    old = companion.memories.remember("Works as a nurse")
    new = companion.memories.supersede(old, "Works as a midwife")
    assert current(companion) == ["Works as a midwife"]
    return companion, old, new


def test_undoing_the_new_fact_brings_the_old_one_back_as_the_only_current_one(superseded):
    c, old, new = superseded
    [created] = [e for e in c.edits() if e["op"] == "create" and e["item_id"] == new]
    c.undo(created["id"])
    assert current(c) == ["Works as a nurse"]
    assert c.soul.get("memory", old)["valid_to"] is None


def test_undoing_the_closing_of_the_old_fact_leaves_exactly_one_current_fact(superseded):
    c, old, new = superseded
    [closed] = [e for e in c.edits() if e["op"] == "update" and e["item_id"] == old and "superseded_by" in e["after"]]
    c.undo(closed["id"])
    assert current(c) == ["Works as a nurse"]
    assert all("midwife" not in r.text for r in c.recall("midwife", 5))


def test_an_undone_edit_of_a_card_is_found_by_its_old_words_again(companion):
    card = companion.world.create("place", "Cabin", "A cabin by the lake.")
    companion.world.update(card, body="A flat in the city.")
    [edit] = [e for e in companion.edits() if e["op"] == "update" and e["item_kind"] == "world_card"]
    companion.undo(edit["id"])
    assert [r.id for r in companion.recall("cabin lake", 3) if r.kind == "world_card"] == [card]


def test_closing_the_companion_closes_the_chat_model(companion):
    companion.close()
    assert companion.chat.closed
