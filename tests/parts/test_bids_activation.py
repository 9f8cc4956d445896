"""Parts woken by meaning (seed 000, activation): a part whose words the moment does not name, but whose sense it
shares, wakes; its vector follows its edits, and an archived or forgotten part no longer wakes."""

from anima.store.provenance import Provenance, Source

from .test_parts import fear

MADE = Provenance(Source.INFERENCE)
EVENT = "Ada wants calm evenings with tea and a book tonight, please"


def test_a_part_wakes_by_meaning_and_its_vector_follows_its_edits(companion):
    c = companion
    rest = c.parts.create(
        {
            **fear(),
            "name": "Rest",
            "triggers": ["the kettle whistles"],
            "description": "I notice when Ada wants calm evenings with tea and a book.",
        },
        "ai",
        MADE,
    )
    dogs = c.parts.create(fear(), "ai", MADE)
    [found] = c.parts.search(EVENT)  # its words alone do not wake it
    assert found.part.id == rest and found.trigger is None and found.score < 0.5
    assert [p.id for p in c.bidding.activated(EVENT)] == [rest]
    assert c.bidding.activated(EVENT, skip={rest}) == []

    c.parts.patch(rest, [{"op": "replace", "path": "/description", "value": "I watch the garden's roses."}], "ai")
    assert c.bidding.activated(EVENT) == []
    c.parts.patch(
        dogs,
        [
            {
                "op": "replace",
                "path": "/description",
                "value": "I notice when Ada wants calm evenings with tea and a book.",
            },
            {"op": "replace", "path": "/triggers", "value": ["the kettle whistles"]},
        ],
        "ai",
    )
    assert [p.id for p in c.bidding.activated(EVENT)] == [dogs]
    c.parts.set_archived(dogs, True, "ai")
    assert c.bidding.activated(EVENT) == []
    c.parts.set_archived(dogs, False, "user")
    assert [p.id for p in c.bidding.activated(EVENT)] == [dogs]
    c.soul.forget("part", dogs)
    assert c.bidding.activated(EVENT) == []


def test_before_the_embedder_has_loaded_parts_wake_by_their_words_alone(companion, monkeypatch):
    c = companion
    c.parts.create(
        {
            **fear(),
            "name": "Rest",
            "triggers": ["the kettle whistles"],
            "description": "I notice when Ada wants calm evenings with tea and a book.",
        },
        "ai",
        MADE,
    )
    monkeypatch.setattr(c.bidding.embedder, "ready", False, raising=False)
    assert c.bidding.activated(EVENT) == []
    assert [p.name for p in c.bidding.activated("the kettle whistles")] == ["Rest"]
