"""A part the model creates is kept only when it says something: one that fills its fields with the form it was
shown ("text", "a list of at most 4 short strings") is refused and the model told why, like one in another voice."""

import json

from anima.reflect.parts import Outcome
from tests.parts.test_affect import EXCHANGE, PROFILE, mattered, new_part


def hollow(**fields) -> str:
    return json.dumps({**json.loads(new_part()), **fields})


def test_a_created_part_that_repeats_the_form_is_refused_and_asked_again(companion):
    companion.affect.set(PROFILE)
    chat = companion.chat
    chat.enqueue(mattered(), hollow(phrases=["a list of at most 3 short strings"]), new_part())
    done = companion.reflector.creation.consider(EXCHANGE)
    assert done.outcome is Outcome.CREATED
    assert any(
        "its phrases/0 repeats the form instead of saying something" in m["content"]
        for m in chat.history[-1]["messages"]
    )
    [part] = companion.parts.all()
    assert part.data["triggers"] == ["When Maya comes up", "When her sister moves in", "When they share the flat"]

    chat.enqueue(mattered(), *[hollow(name="Flat", conclude_when="text")] * 2)
    assert companion.reflector.creation.consider(EXCHANGE).outcome is Outcome.INVALID
    assert len(companion.parts.all()) == 1
