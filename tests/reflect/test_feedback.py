"""Feedback on how the companion talks, read by code, and the model's findings held to what the message says."""

import pytest

from anima.reflect.feedback import lesson, not_feedback


@pytest.mark.parametrize(
    ("said", "taught"),
    [
        ("Please keep your answers shorter.", "Keep answers shorter"),
        ("Please keep your answers shorter, you are rambling again.", "Keep answers shorter"),
        ("Don't call me sweetie.", 'Do not call them "sweetie"'),
        ("Don't call me sweetie, I mean it.", 'Do not call them "sweetie"'),
        ("What's your favourite season?", None),
        ("My commute is too long.", None),
        ("I quit smoking and people need to stop asking me when.", None),
    ],
)
def test_the_lesson_in_plain_feedback(said, taught):
    assert lesson(said) == taught


def test_what_the_model_calls_feedback_is_held_to_the_message():
    assert not_feedback("What's my cat's name?", "Remember the cat's name") is not None
    assert not_feedback("Please keep your answers shorter.", "I don't know how to '") == "the lesson is cut off"
    assert not_feedback("No, just give me the bottom line first.", "Lead with the answer") is None
    assert not_feedback("Can you keep your answers shorter?", "Keep answers shorter") is None


def test_a_line_of_the_conversation_is_no_lesson():
    """bench learning (walter, the default model): "I am a retired history teacher." and "I'm glad to hear that."
    were kept as rules, each citing a message that was no feedback."""
    said = "I am a retired history teacher."
    assert not_feedback(said, said) == "the lesson is someone's words, not how I should reply"
    assert not_feedback("It rained all day.", "I'm glad to hear that.") is not None
    assert not_feedback("We moved to Whitby with the dog.", "Moved to Whitby with the dog") is not None
    assert not_feedback("Don't call me sweetie.", "Do not call them sweetie") is None  # feedback stays
