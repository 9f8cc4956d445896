"""A reply that announces how the person seems to feel is caught by code (seed 003, 4.1 and 4.3); meeting a
feeling is not."""

import pytest

from anima.conversation.outward import announces_emotion

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
