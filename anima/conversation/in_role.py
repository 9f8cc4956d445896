"""A reply that stays the companion's: it never prints a note it was given, and never speaks as the person.

A small model reads its notes ("- Today, in their words: a little anxious", "# What I recall that may matter
now", "- [yesterday] Dana: …") and the transcript as text to go on with: it may read a note out ("Today, in their
words: they're a little anxious.", which also announces a feeling, against the guardrails) or write the person's
next turn ("Dana: I'm fine"). Neither may be shown, nor stored and recalled later as something the companion
said (issue 42 part 6). The turn (turn.py) holds the reply to whole sentences (outward.Unannounced): a sentence
that echoes a note is left out; a label in the person's name ends the reply there (the stop sequences end a real
model at it already); a reply that opens either way is asked again, once, told why (IN_ROLE).
"""

import logging
import re
from collections.abc import Sequence

from ..retrieval.fts import stems
from ..workspace.note import LABELS, OUTSIDE_MARK

log = logging.getLogger(__name__)

# What the turn adds to the prompt when it asks again after a reply that opened out of its role.
IN_ROLE = (
    "Reply again as yourself, speaking to them: do not repeat or quote your notes, their headings or their "
    "labels, and do not write their words or their turn."
)
# Reading out the note of how they feel also announces it (seed 003, 4.1): asked again, the model is told both.
FEELING_NOTE = "echoes a note of how they feel"
# Names a transcript may give the person's turn, beside their own name.
PERSON_LABELS = ("User", "Human", "Person", "Me")
STOPS = 4  # stop sequences an OpenAI-compatible server takes at most
# How a note speaks of the person (self/feelings.py's lines, in the third person): a reply speaks to them.
_NOTE_WORDING = re.compile(
    r"\bin their (?:own )?words\s*:|^\W*(?:\w+[\s,]+){0,4}they (?:seemed|said they felt)\b|\(evidence\b", re.I
)
# A recalled item's label ("[yesterday, said]", "[3 weeks ago]", "[11 May 2026] Dana:"): a note's, never a
# reply's. When it was and what kind of knowing, in brackets; not a link ("[the docs](...)") nor "[smiles]".
_ITEM_LABEL = re.compile(
    r"\[[^\]\n]{0,40}\b(?:"
    + "|".join(re.escape(v) for v in LABELS.values())
    + r"|ago|yesterday|today|tonight|last (?:week|month|year|night)|\d{4})\b[^\]\n]{0,40}\](?![(\[:])",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i['’]m|i['’]ve|i['’]d|i['’]ll|my|me|mine|myself)\b", re.I)
# A repeat of the person's words opens a reply in their voice when it says the same content words, both ways.
SAME_WORDS = 0.8


class Role:
    """What a reply to one message must not do: echo the notes in `system` (the prompt's system messages) or
    speak as `person`, whose message was `typed`."""

    def __init__(self, system: Sequence[str], person: str, typed: str):
        self.headings = {
            h.strip().lower()
            for text in system
            for h in re.findall(r"^#+\s*(.+)$", text, re.M)
            if len(h.split()) >= 2  # "Rules" alone is a word a reply may use
        }
        self.headings |= {OUTSIDE_MARK.strip(" ()").lower()}
        names = [n for n in dict.fromkeys([person.strip(), *PERSON_LABELS]) if n]
        self.names = names
        self._label = re.compile(r"(?:^|\n)[ \t>*_-]*(?:" + "|".join(re.escape(n) for n in names) + r")[*_]*\s*:", re.I)
        self.typed = frozenset(stems(typed))

    def stops(self) -> tuple[str, ...]:
        """Where a real model is stopped: a line that opens the person's turn. At most STOPS (an OpenAI-style
        server refuses more); the rest of the names are caught as the reply streams (speaks_as_them)."""
        return tuple(f"\n{n}:" for n in self.names)[:STOPS]

    def speaks_as_them(self, text: str) -> int | None:
        """Where in `text` a turn in the person's name begins (a label: "Dana:", "User:"), or None."""
        m = self._label.search(text)
        return m.start() if m else None

    def out_of_role(self, sentence: str, first: bool) -> str | None:
        """Why a sentence may not be shown (a note echoed, the person's voice), or None. `first`: it opens the
        reply, where repeating the person's own words is speaking as them."""
        low = " ".join(sentence.lower().split())
        if _NOTE_WORDING.search(sentence):
            return FEELING_NOTE
        if _ITEM_LABEL.search(sentence):
            return "echoes a note"
        opening = low.lstrip("#-*> ").rstrip(" .!")
        if any(opening == h or opening.startswith(h + ":") for h in self.headings):  # a heading, as a note has it
            return "echoes a note's heading"
        if first and self.repeats_them(sentence):
            return "repeats the person's words as its own"
        return None

    def repeats_them(self, sentence: str) -> bool:
        """Their own words about themselves, said again in the first person ("I'm scared of dogs."): their voice.
        An answer that says what they asked back ("Jo is a nurse in Leeds." to "Is Jo a nurse in Leeds?") is not."""
        if not _FIRST_PERSON.search(sentence):
            return False
        said = frozenset(stems(sentence))
        if len(self.typed) < 2 or not said:
            return False
        shared = len(said & self.typed)
        return shared >= SAME_WORDS * len(self.typed) and shared >= SAME_WORDS * len(said)


def logged(reason: str, sentence: str) -> None:
    """Every sentence of the model's that is dropped is logged, with why; its length, never its words (the log
    is plaintext, the soul is not)."""
    log.info("a reply's sentence was left out: it %s (%d characters)", reason, len(sentence))
