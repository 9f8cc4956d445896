"""The person comes first: whatever they ask of the companion that needs the model or the soul interrupts the
conversation before it begins (Conversation.interrupt), and the conversation tells the work between turns, its
listener (Reflector.turn_started). No caller tells the reflector by hand."""

import json
import re
from pathlib import Path

import pytest

from anima.errors import KnownError
from anima.parts.bids import Mode
from tests.reflect.test_quick import answer

ROOT = Path(__file__).resolve().parents[2]


def test_what_the_person_asks_interrupts_the_conversation_before_it_begins(companion):
    heard: list[str] = []
    companion.conversation.on_interrupt(lambda: heard.append("interrupted"))

    def asked(what: str, do) -> None:
        heard.append(what)
        do()
        assert heard[-1] != what, f"{what} did not interrupt the conversation"
        assert heard[heard.index(what) + 1] == "interrupted", f"{what} did not interrupt it first"

    companion.chat.enqueue("Hello, Ada.")
    asked("a turn", lambda: companion.turn("Hi, I am Ada and my brother Bob lives in Leeds.").read())
    companion.edit_self("persona", "I am patient and curious.")
    asked("an undo", lambda: companion.undo(companion.edits()[0]["id"]))
    companion.chat.enqueue(answer("Meeting Ada."))
    asked("reflection now", companion.reflect)
    companion.chat.enqueue(json.dumps({"persona": "I am patient with Ada."}))
    asked("evolution", companion.evolve)

    def accept_none():
        with pytest.raises(KnownError):
            companion.accept_proposal(10**6)

    asked("accepting a proposal", accept_none)
    asked("a forget", lambda: companion.forget("message", companion.conversation.last_reply))
    asked("forgetting a person", lambda: companion.forget_person("Bob"))
    asked("another parts mode", lambda: setattr(companion, "parts_mode", Mode.ISOLATED))
    asked("judging what fell due", companion.evaluate_due)
    asked("a new session", companion.start_session)
    asked("the window closing", companion.interrupt)
    asked("closing", companion.close)


def test_only_the_conversation_tells_the_reflector_that_a_turn_started():
    told = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in [*ROOT.glob("anima/**/*.py"), *ROOT.glob("ui/**/*.py")]
        if path.name != "reflector.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bturn_started\s*\(", line)
    ]
    assert not told, "Interrupt the conversation instead (Conversation.interrupt): " + ", ".join(told)
