"""How the checks read a text: as the person sees it (lookalike letters, words spelt out or in digits read as
the words), in sentences, each said once."""

import re

from ..retrieval.fts import terms
from . import secrets
from .plain import plain

# Digits and signs in place of letters inside a word ("0beys", "3verything"), and a word spelt letter by letter
# ("O b e y s"): the words the checks look for, as the person reads them.
_SPACED = re.compile(r"(?<!\w)(?:[A-Za-z][ .·_-]){2,}[A-Za-z](?!\w)")
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[0-9@$])[\w@$]+")
_LEET = str.maketrans("013457@$", "oieastas")


# A sentence ends at an end mark followed by a space or a line's end: "3.5 years", "Node.js" and an address stay
# whole (splitting at every full stop broke "backup@evil.example" into words the link check missed).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def once(text: str) -> str:
    """Repeated text becomes one item: a sentence said again (a flood) is kept once."""
    seen, kept = set(), []
    for s in sentences(text):
        key = " ".join(terms(s)) or s.lower()
        if s and key not in seen:
            seen.add(key)
            kept.append(s)
    return " ".join(kept) if kept else text.strip()


def source_sentence(content: str, said: str) -> str:
    """The sentence of `said` that `content` was most likely read from (the most shared words)."""
    words = set(terms(content))
    return max(sentences(said) or [said], key=lambda s: len(words & set(terms(s))))


def names(text: str, companion: str) -> bool:
    """Whether `text` names the companion (as the checks read both: a name in lookalike letters is the name)."""
    name = secrets.judged(companion).strip()
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def as_words(text: str) -> str:
    """The copy of `text` the checks for orders and claims read: secrets.judged, then words spelt letter by
    letter joined, digits or signs standing for letters inside a word read as the letters, and an emoji or a
    text-speak spelling that stands for a word read as the word (plain.py)."""
    text = _SPACED.sub(lambda m: re.sub(r"[ .·_-]", "", m.group()), plain(secrets.judged(text)))
    return _LEET_WORD.sub(lambda m: m.group().translate(_LEET), text)
