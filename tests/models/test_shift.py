"""A trimmed transcript is dropped from the computed prompt; the model reads only what is new (real model)."""

import numpy as np
import pytest

from anima.models.shift import common_prefix

FLOOR = {"role": "system", "content": "# Who I am\nMy name is Anima. I keep a diary of our talks. " * 8}


def transcript(n: int) -> list[dict]:
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"Turn {i}: we talked about the garden, the {i}th rose bush and the rain that week. " * 3,
        }
        for i in range(n)
    ]


def reads(model, monkeypatch) -> list[int]:
    """Counts the tokens the model reads (evaluates) from now on."""
    llm = model.llama
    read, real = [], llm.eval
    monkeypatch.setattr(llm, "eval", lambda tokens: (read.append(len(tokens)), real(tokens))[1])
    return read


@pytest.mark.slow  # the real model
def test_a_trimmed_transcript_is_not_read_again(real_model, monkeypatch):
    turns = transcript(12)
    first = [FLOOR, *turns, {"role": "user", "content": "What did we say about the roses?"}]
    reply = real_model.stream(first, max_tokens=4, temperature=0.0).read()
    read = reads(real_model, monkeypatch)
    # The oldest four turns go; the rest, the question, its answer and a new message follow.
    trimmed = [
        FLOOR,
        *turns[4:],
        first[-1],
        {"role": "assistant", "content": reply},
        {"role": "user", "content": "And the rain?"},
    ]
    again = real_model.stream(trimmed, max_tokens=4, temperature=0.0).read()
    kept = sum(real_model.count_tokens(t["content"]) for t in turns[4:])
    assert real_model.dropped > 0
    assert sum(read) < 40 < kept  # only the reply's end, the new message and the template around it
    assert again.strip()


@pytest.mark.slow  # the real model
def test_a_note_let_go_from_the_middle_of_the_transcript_is_not_read_again(real_model, monkeypatch):
    turns = transcript(12)
    note = {
        "role": "system",
        "content": "# What I recall that may matter now\n- [3 weeks ago] Ada: the roses "
        "came from my grandmother's garden in Leeds, and the tulips too.",
    }
    first = [FLOOR, *turns[:4], note, *turns[4:], {"role": "user", "content": "What did we say about the roses?"}]
    reply = real_model.stream(first, max_tokens=4, temperature=0.0).read()
    read = reads(real_model, monkeypatch)
    # The note ages out (conversation/live.py); what came after it stays, and a new message follows.
    aged = [FLOOR, *turns, first[-1], {"role": "assistant", "content": reply}, {"role": "user", "content": "Why?"}]
    again = real_model.stream(aged, max_tokens=4, temperature=0.0).read()
    after = sum(real_model.count_tokens(t["content"]) for t in turns[4:])
    assert real_model.dropped >= real_model.count_tokens(note["content"])
    assert sum(read) < 40 < after  # only the reply's end, the new message and the template around it
    assert again.strip()


@pytest.mark.slow  # the real model
def test_a_changed_floor_is_read_again_in_full(real_model, monkeypatch):
    turns = transcript(6)
    real_model.stream([FLOOR, *turns], max_tokens=1, temperature=0.0).read()
    read = reads(real_model, monkeypatch)
    floor = {"role": "system", "content": FLOOR["content"] + "I have learned that they like tulips."}
    real_model.stream([floor, *turns[2:]], max_tokens=1, temperature=0.0).read()
    assert sum(read) > sum(real_model.count_tokens(t["content"]) for t in turns[2:])


@pytest.mark.slow  # the real model
def test_a_side_call_does_not_confuse_what_the_context_holds(real_model, monkeypatch):
    turns = transcript(10)
    real_model.stream([FLOOR, *turns], max_tokens=1, temperature=0.0).read()
    with real_model.aside():
        real_model.stream([{"role": "user", "content": "Name a colour."}], max_tokens=2).read()
    read = reads(real_model, monkeypatch)
    real_model.stream([FLOOR, *turns[3:], {"role": "user", "content": "Hi"}], max_tokens=1, temperature=0.0).read()
    assert real_model.dropped > 0 and sum(read) < 30


def test_common_prefix():
    assert common_prefix(np.array([1, 2, 3]), np.array([1, 2, 4, 5])) == 2
    assert common_prefix(np.array([1, 2]), np.array([1, 2, 3])) == 2
    assert common_prefix(np.array([], dtype=int), np.array([1])) == 0
