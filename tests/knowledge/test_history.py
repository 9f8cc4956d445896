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
    c, old, _new = superseded
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


class _DiskFullOnVectors(Exception):
    pass


def _vectors_fail(c, monkeypatch):
    def fail(*a, **kw):
        raise _DiskFullOnVectors()

    monkeypatch.setattr(c.soul, "put_vectors", fail)


def _stored(c, kind: str, item_id: int) -> bool:
    return bool(c.soul.query("SELECT 1 FROM embeddings WHERE item_kind = ? AND item_id = ?", (kind, item_id)))


def test_an_undone_edit_and_its_old_vector_are_stored_together(companion, monkeypatch):
    card = companion.world.create("place", "Cabin", "A cabin by the lake.")
    companion.world.update(card, body="A flat in the city.")
    [edit] = [e for e in companion.edits() if e["op"] == "update" and e["item_kind"] == "world_card"]
    _vectors_fail(companion, monkeypatch)
    with pytest.raises(_DiskFullOnVectors):
        companion.undo(edit["id"])
    # The vector could not be stored, so neither was the undo: the card still says what it said.
    assert companion.soul.get("world_card", card)["body"] == "A flat in the city."
    monkeypatch.undo()
    companion.undo(edit["id"])
    assert companion.soul.get("world_card", card)["body"] == "A cabin by the lake."
    assert [r.id for r in companion.recall("cabin lake", 3) if r.kind == "world_card"] == [card]


def test_an_episode_is_stored_with_its_vector_or_not_at_all(companion, monkeypatch):
    ids = [
        companion.messages.record("user", "We walked along the river at dawn.", speaker="Ada"),
        companion.messages.record("companion", "The mist over the water sounded lovely.", speaker="Anima"),
    ]
    eid = companion.episodes.record("A dawn walk by the river", ids)
    assert _stored(companion, "episode", eid)  # at once, not at the next look at the index
    assert [r.id for r in companion.recall("walk by the river", 5) if r.kind == "episode"] == [eid]
    _vectors_fail(companion, monkeypatch)
    with pytest.raises(_DiskFullOnVectors):
        companion.episodes.record("Talking about the mist", ids[1:])
    assert [e.summary for e in companion.episodes.all()] == ["A dawn walk by the river"]


def test_an_episode_corrected_in_the_open_mind_is_found_by_its_new_words(companion, monkeypatch):
    ids = [companion.messages.record("user", "We walked along the river at dawn.", speaker="Ada")]
    eid = companion.episodes.record("A dawn walk by the river", ids)
    _vectors_fail(companion, monkeypatch)
    with pytest.raises(_DiskFullOnVectors):
        companion.episodes.correct(eid, summary="Baking bread together")
    assert companion.episodes.get(eid).summary == "A dawn walk by the river"
    monkeypatch.undo()
    companion.episodes.correct(eid, summary="Baking bread together")
    assert [r.id for r in companion.recall("baking bread", 5) if r.kind == "episode"] == [eid]
