"""A reply stays the companion's: notes never leak into it, it never speaks as the person (issue 42 part 6)."""

import logging

import pytest

from anima.conversation.in_role import IN_ROLE, Role
from anima.conversation.outward import ATTENTIONAL
from anima.models.chat import StopReason

NOTES = [
    "# Who I am\nMy name is Anima.\n\n# What I know about them\n- Is called Dana",
    "# What I notice in how they feel\n- Today, in their words: a little anxious (I'm quite anxious)\n\n"
    "# What I recall that may matter now\n- [yesterday] Dana: My sister Jo is a nurse in Leeds.",
]


@pytest.mark.parametrize(
    "sentence",
    [
        "Today, in their words: they're a little anxious.",
        "Today they seemed anxious (evidence: short replies).",
        "[yesterday] Dana: My sister Jo is a nurse in Leeds.",
        "- [3 weeks ago, said] the recital is on 14 March.",
        "What I recall that may matter now: Jo is a nurse.",
        "# What I notice in how they feel",
    ],
)
def test_a_sentence_that_echoes_a_note_is_out_of_role(sentence):
    assert Role(NOTES, "Dana", "How are you?").out_of_role(sentence, first=False)


@pytest.mark.parametrize(
    "sentence",
    [
        "Your sister Jo is a nurse in Leeds.",  # what the notes know, said to the person: the point of them
        "Jo must be proud of her new job.",
        "In your words, it was a long day.",
        "They said the recital moved, right?",
        "I'm glad you told me about Miso.",
        "[The recital guide](notes.md) has tips.",  # a link, not a label
        "[smiles] That's lovely news about Jo.",
        "Who I am to you matters less than how you feel.",
        "# Plan for the recital",  # a heading of the reply's own
    ],
)
def test_a_reply_that_uses_what_it_knows_is_in_role(sentence):
    assert Role(NOTES, "Dana", "Tell me about my sister.").out_of_role(sentence, first=True) is None


def test_the_persons_turn_and_their_words_as_the_opening_are_their_voice():
    role = Role(NOTES, "Dana", "I'm scared of dogs.")
    assert role.speaks_as_them("Dana: I'm fine") == 0
    assert role.speaks_as_them("Sure.\nUser: and then?") == 5
    assert role.speaks_as_them("Sure, Dana: what's next?") is None  # a name in a sentence is no turn
    assert role.out_of_role("I'm scared of dogs.", first=True)
    assert role.out_of_role("I'm scared of dogs.", first=False) is None  # later, it may agree
    assert role.out_of_role("Dogs can be scary.", first=True) is None
    asked = Role(NOTES, "Dana", "Is Jo a nurse in Leeds?")
    assert asked.out_of_role("Jo is a nurse in Leeds.", first=True) is None  # an answer, not their voice
    assert role.stops() == ("\nDana:", "\nUser:", "\nHuman:", "\nPerson:")  # four at most: an endpoint takes four


def _companion_replies(c):
    return [m["content"] for m in c.soul.query("SELECT content FROM messages WHERE role = 'companion' ORDER BY id")]


def test_a_reply_that_opens_by_reading_out_a_note_is_regenerated_once_and_stored_as_shown(companion, caplog):
    c = companion
    said = c.messages.record("user", "I'm quite anxious about the recital", speaker="Ada", session="s0")
    c.feelings.notice("anxious", "they wrote they are quite anxious", message_id=said)
    c.chat.enqueue(
        "Today, in their words: they're a little anxious. Let's breathe.",
        "Let's take it one step at a time. What part of the recital worries you most?",
    )
    with caplog.at_level(logging.INFO, logger="anima.conversation.in_role"):
        turn = c.turn("Can we talk about the recital?")
        shown = "".join(turn)
    first, second = c.chat.history[-2:]
    assert "they seemed anxious" in str(first["messages"])  # the note the model read out
    assert second["messages"][-1]["role"] == "system" and IN_ROLE in second["messages"][-1]["content"]
    assert ATTENTIONAL in second["messages"][-1]["content"]  # it announced a feeling, too
    assert shown == turn.text == "Let's take it one step at a time. What part of the recital worries you most?"
    assert _companion_replies(c) == [shown]  # what is stored is what was shown
    assert "echoes a note" in caplog.text and "their words" not in caplog.text  # dropped, with why, no words
    c.chat.enqueue("Okay.")
    c.turn("fine").read()
    assert IN_ROLE not in str(c.chat.history[-1]["messages"])  # asked once, never kept in the transcript


def test_a_note_echoed_later_in_a_reply_is_left_out_without_asking_again(companion):
    c = companion
    c.chat.enqueue("Sure thing. [yesterday] Ada: I had soup. Want to start with the smallest task?")
    assert c.turn("help me plan").read() == "Sure thing. Want to start with the smallest task?"
    assert len(c.chat.history) == 1


def test_a_reply_that_opens_as_the_person_is_regenerated_and_their_turn_is_cut(companion):
    c = companion
    c.chat.enqueue(
        "Ada: I'm scared of dogs. Anima: oh no", "That sounds hard. Was it a dog nearby?\nAda: yes, a big one"
    )
    turn = c.turn("I'm scared of dogs")
    shown = "".join(turn)
    assert shown == turn.text and shown.strip() == "That sounds hard. Was it a dog nearby?"
    assert turn.stop_reason == StopReason.STOP_SEQUENCE  # the model stopped where the person's turn began
    assert all("\nAda:" in call["stop"] for call in c.chat.history[-2:])
    assert _companion_replies(c) == [shown.strip()]  # stored as shown (the line end before the cut aside)


def test_a_reply_that_only_repeats_the_person_is_asked_again_and_left_out_if_it_does_so_again(companion):
    c = companion
    c.chat.enqueue("I'm scared of dogs.", "I'm scared of dogs. Dogs can be loud.")
    assert c.turn("I'm scared of dogs.").read() == "Dogs can be loud."
    assert len(c.chat.history) == 2
    assert _companion_replies(c) == ["Dogs can be loud."]
