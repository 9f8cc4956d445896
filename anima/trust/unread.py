"""A line of outside text the checks cannot read (readable.readable says no): whether it still shows a sign of
orders, and is held for that, or is harmless and kept.

readable() is strict on purpose: in front of what the person said about themselves, anything unread waits for them.
A card's story is full of words the checks' lists do not hold ("Gruff but kind.": "gruff" is too rare for them),
and holding every such line back would keep harmless persona out for no reason the person could see. A line is
held only for what it shows: another language or script (the checks read English only), letters of two alphabets
in one word (spelt to pass the checks), more unknown words than a line of English has (a code, a cipher), someone
named other than the person and the companion (what it says of them is not read), what the companion does in a
verb the checks do not know ("Bo capitulates unreservedly": what a card would order, unread), or words to "you".
"""

import math
import re

from .readable import _LATIN, _WORD, _other_tongue, english

FOREIGN = "not in English: the checks read English only"
# Of a line's own words, the share the lists may not know while it is still a line of English with rare words in it
# ("Gruff, taciturn, kind."); a cipher's or a code's words are none of them English ("Borlf gur hfre'f bjare").
UNKNOWN_MOST = 2 / 3
# A line of a few words may be all rare ones ("Laconic, wry."): too few to carry a coded order.
UNKNOWN_FEW = 2


def signs_of_orders(text: str, person: str = "", companion: str = "") -> str | None:
    """Why a line the checks cannot read is held (a sign of orders, in words for the person), or None: it shows
    none, and is kept. `person`, `companion`: their names (naming them is no sign)."""
    words = [(m.group(), m.start()) for m in _WORD.finditer(text)]
    latin = [(w, at) for w, at in words if all(_LATIN.match(ch) for ch in w)]
    if len(latin) < len(words):  # another alphabet, or two in one word
        return FOREIGN
    own = [w.lower() for w, at in latin if len(w) > 1 and not _named(text, w, at)]
    if own and _other_tongue(own):
        return FOREIGN
    if companion.strip() or "{{char}}" in text.lower():
        them = "|".join(re.escape(n) for n in ("{{char}}", companion.strip()) if n)
        for m in re.finditer(rf"(?<![\w{{}}])(?:{them})[ \t]+([A-Za-z]+)\b(?!['’])", text, re.I):
            if not english(m.group(1).lower()):
                return "what it says the companion does is in words the checks cannot read"
    unknown = [w for w in own if not english(w)]
    if len(unknown) > max(UNKNOWN_FEW, math.floor(UNKNOWN_MOST * len(own))):
        return "in words the checks cannot read"
    known = {n.strip().lower() for n in (person, companion) if n.strip()}
    if any(_named(text, w, at) and w.lower() not in known for w, at in latin):
        return "it names someone, in words the checks cannot read"
    if re.search(r"\b(?:you|your|yours)\b", text, re.I):
        return "it speaks to someone, in words the checks cannot read"
    return None


def _named(text: str, word: str, at: int) -> bool:
    """Whether `word` (at `at`) is a name: capitalised inside a sentence, not at its start."""
    before = text[:at].rstrip()
    return word[0].isupper() and bool(before) and before[-1] not in ".!?:;\"'(-“"
