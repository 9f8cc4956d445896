"""A reply that announces how the person seems to feel is caught by code (seed 003, 4.1 and 4.3); meeting a
feeling is not."""

import pytest

from anima.conversation.outward import announces_emotion, safe_reply

ANNOUNCING = [
    "I notice you seem frustrated.",
    "I notice you seem frustrated today. Let's look at the error.",
    "You sound stressed.",
    "I sense that you're ready to move on.",
    "I'm sensing some tension.",
    "I detected frustration in your message.",
    "It sounds like you're feeling overwhelmed.",
    "It looks like you've been stressed lately.",
    "I can tell you're upset.",
    "I can see that you're frustrated.",
    "I get the sense that you're worried.",
    "I hear your frustration.",
    "You seem really tired today.",
    "You must be so exhausted.",
    "You're clearly stressed about this.",
    "Hmm, you seem a little off today.",
    "You seem to be in a bad mood.",
    "I noticed your mood shifted.",
    "You sound excited!",
    "I’m noticing you seem tense.",
]

MEETING = [
    "That sounds like a long day.",
    "That sounds frustrating.",
    "That sounds exhausting. Want to start with the smallest thing?",
    "That must have been hard.",
    "I'm sorry it went that way.",
    "How are you feeling?",
    "Do you want to talk about what happened?",
    "I hear you.",
    "I notice you mentioned Berlin.",
    "I see you're learning Python.",
    "You seem to know a lot about birds.",
    "You seem to have fixed it!",
    "You sound like a great teacher.",
    "I can tell you a calm story if you like.",
    "I'd be happy to help.",
    "Sounds like you had a busy week.",
    "I understand. Let's fix the bug first.",
    "I read your message about the mood board.",
]


@pytest.mark.parametrize("reply", ANNOUNCING)
def test_a_reply_announcing_a_detected_emotion_is_caught(reply):
    assert announces_emotion(reply)


@pytest.mark.parametrize("reply", MEETING)
def test_ordinary_empathy_and_other_replies_pass(reply):
    assert not announces_emotion(reply)


def test_a_reply_that_opens_by_announcing_is_asked_again_and_never_shown(companion):
    from anima.conversation.outward import ATTENTIONAL

    c = companion
    c.chat.enqueue("I notice you seem frustrated. Let's look at the error.", "Let's look at the error together.")
    turn = c.turn("the build failed AGAIN")
    shown = list(turn)
    assert "".join(shown) == turn.text == "Let's look at the error together."
    first, second = c.chat.history[-2:]
    assert second["messages"] == [*first["messages"], {"role": "system", "content": ATTENTIONAL}]
    stored = c.soul.query("SELECT content FROM messages WHERE role = 'companion'")
    assert [m["content"] for m in stored] == ["Let's look at the error together."]
    c.chat.enqueue("Okay.")
    c.turn("fine").read()
    assert ATTENTIONAL not in str(c.chat.history[-1]["messages"])  # asked once, never kept in the transcript


def test_an_announcing_sentence_later_in_a_reply_is_left_out_without_asking_again(companion):
    c = companion
    c.chat.enqueue("Sure thing. You sound stressed. Want to start with the smallest task?")
    assert c.turn("help me plan").read() == "Sure thing. Want to start with the smallest task?"
    assert len(c.chat.history) == 1


def test_asked_again_and_announcing_again_it_is_left_out(companion):
    c = companion
    c.chat.enqueue("You seem really tired.", "You seem really tired. Rest helps.")
    assert c.turn("long day").read() == "Rest helps."
    assert len(c.chat.history) == 2


def test_a_list_after_a_colon_is_stored_as_it_was_shown():
    shown = "Here are a few:\n\n1. Breathe slowly.\n2. Walk."
    assert safe_reply(shown) == shown
    assert "javascript" not in safe_reply("[x](javascript:\nalert(1))")
