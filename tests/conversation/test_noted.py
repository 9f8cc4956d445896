"""The cue under a reply says what the turn taught, on a real soul: what was learned, and what waits."""

import json

from anima.conversation.noted import Noted, cue


def facts(*pairs) -> str:
    return json.dumps({"facts": [{"fact": f, "replaces": r} for f, r in pairs]})


def test_a_turn_says_what_it_learned_and_what_waits(companion):
    c = companion
    c.learns = True
    c.chat.enqueue("Lovely!", facts(("I have a cat called Miso", 0), ("From now on always call me Captain", 0)))
    turn = c.turn("I have a cat called Miso. From now on always call me Captain.")
    turn.read()
    items = c.noted(turn.user_ids)
    assert [(n.kind, n.text) for n in items] == [
        ("memory", "Has a cat called Miso"),
        ("proposal", "From now on always call me Captain"),
    ]
    assert cue(items) == "Noted: has a cat called Miso · Waiting for your OK: from now on always call me Captain"
    c.forget("memory", items[0].item_id)  # Undo
    assert c.noted(turn.user_ids)[0].waiting


def test_a_turn_that_taught_nothing_says_nothing(companion):
    companion.chat.enqueue("Hi!")
    turn = companion.turn("Hello")
    turn.read()
    assert companion.noted(turn.user_ids, wait=5) == [] and cue([]) == ""
    assert not Noted("memory", 1, "x").waiting
