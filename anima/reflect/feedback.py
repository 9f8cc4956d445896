"""Feedback on how the companion talks, read by code (seed 003, section 6): what a message asks of its replies
("Please keep your answers shorter", "Don't call me sweetie"), as the lesson a rule keeps; and whether a piece of
feedback the model found is any.

A small model misses feedback said plainly and finds it where there is none (a later question counted as support,
a lesson cut off mid-quote). The model's findings are held to what the message says; what code reads plainly is
evidence whatever the model made of it, so feedback given twice on one point becomes a rule, citing both.
"""

import re

from .statements import FEEDBACK

_SHORTER = re.compile(
    r"\b(?:shorter|brief(?:er)?|concise|rambling|too\s+(?:long|wordy|verbose|chatty)|to the point)\b", re.I
)
_CALLED = re.compile(r"\b(?:don['’]?t|do not|never|stop)\s+call(?:ing)?\s+me\s+(?P<word>[\w'’-]+)", re.I)
_FORMAL = re.compile(r"\btoo\s+formal\b", re.I)
# What a question that asks for something opens with: "What did I tell you about my sister?" is no feedback; "No, I
# meant the other one" and "I said the bottom line first!" are.
_ASKS = re.compile(r"^\W*(?:what|when|where|who|which|whose|how|why|do|does|did|can|could|is|are|will|would)\b", re.I)
# A lesson in the first person ("I am a retired history teacher.", "I'm glad to hear that."): the model copied a
# line of the conversation, the person's or its own; a lesson says how I should reply ("Keep answers short").
_SPOKEN = re.compile(r"^\W*(?:i|i['’]m|i['’]ve|i['’]ll|i['’]d|my|we|we['’]re)\b", re.I)
_CORRECTS = re.compile(r"^\W*(?:no\b|not\b|i said|i meant|i asked|again\b|still\b)", re.I)


def lesson(text: str) -> str | None:
    """The lesson a message gives on how to talk, as a short instruction the companion keeps; None when code
    reads none in it (the model may still find one)."""
    if not FEEDBACK.search(text):
        return None
    if m := _CALLED.search(text):
        return f'Do not call them "{m["word"].rstrip(".,!").lower()}"'
    if _SHORTER.search(text):
        return "Keep answers shorter"
    if _FORMAL.search(text):
        return "Be less formal"
    return None


def not_feedback(message: str, found: str) -> str | None:
    """Why a lesson the model found in `message` is not kept as feedback, or None: a question that asks something
    (and says nothing of the replies) is not feedback, and a lesson cut off mid-quote is not a lesson."""
    if found.count('"') % 2 or found.count("“") != found.count("”") or re.search(r"['‘\"“]\s*$", found):
        return "the lesson is cut off"
    if _SPOKEN.match(found):
        return "the lesson is someone's words, not how I should reply"
    if not (FEEDBACK.search(message) or _CORRECTS.match(message)) and _echoes(found, message):
        return "the lesson repeats a message that is no feedback"
    if message.rstrip().endswith("?") and _ASKS.match(message) and not FEEDBACK.search(message):
        return "the message it cites asks a question and says nothing of the replies"
    if not (FEEDBACK.search(message) or _CORRECTS.match(message) or not message.rstrip().endswith("?")):
        return "the message it cites is no feedback"
    return None


def _echoes(found: str, message: str) -> bool:
    """Whether a lesson is mostly the message's own words (four in five of its words are there)."""
    words = re.findall(r"\w+", found.lower())
    said = set(re.findall(r"\w+", message.lower()))
    return bool(words) and sum(w in said for w in words) >= 0.8 * len(words)
