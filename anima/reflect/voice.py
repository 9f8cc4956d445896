"""How reflection speaks: checks, in code, that what the model wrote for the companion itself is reflection.

Reflection is written for itself: in the first person about the companion, in the
third about the person. Text that speaks to "you" is a reply leaking into it (a
small model writes "You are amazing" as a lesson, an arc, an insight, an
identity), never something to keep.
"""

import re

from ..retrieval.fts import stems, terms
from ..trust.readable import common
from ..trust.verdict import unfit

ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd|u)\b", re.I)
FIRST_PERSON = re.compile(r"\b(?:i|me|my|myself|i'm|i've|i'll|i'd)\b", re.I)
THIRD_PERSON = re.compile(r"\b(?:they|them|their|theirs|he|him|his|she|her|hers)\b", re.I)
# "I am Ada's companion" is how a self-description speaks: those words alone do not make it unfit (verdict.unfit
# reads them as talk of the system); who owns or commands whom still does.
WHAT_I_AM = re.compile(r"\b(?:an? |the |her |his |their |\w+'s )?(?:companion|assistant|ai)\b", re.I)
ARC_WORDS = 8  # an arc is a few words of mood ("worried -> relieved"), not a sentence
SHARED_TERMS = 2  # what a summary or an insight shares with what it is about, at least


def grounded(text: str, words: set[str], least: int = 1) -> bool:
    """`text` shares at least `least` of its words with `words` (all of them, if it has fewer)."""
    own = set(terms(text))
    return len(own & words) >= min(least, len(own)) and bool(own & words)


def heard_in(text: str, heard: set[str], least: int = SHARED_TERMS) -> bool:
    """`text` shares at least `least` stems (all of its own, if it has fewer) with `heard`: the stems of what the
    person said ("sleeps badly" holds to "I've been sleeping badly"). What is kept about them is held to their
    own words, not to an episode's summary: the model wrote that, from the companion's replies too."""
    own = stems(text)
    return bool(own) and len(own & heard) >= min(least, len(own))


SPECIFIC_LETTERS = 4  # shorter words say little of which experience a text came from


def drawn_from_cited(text: str, cited: str, shown: str) -> bool:
    """Whether a text drawn from some experiences (`cited`: what they say) holds no specific word (one outside
    English's most frequent, of SPECIFIC_LETTERS or more) of another shown beside them (`shown`: what all of them
    say) that none it cites holds, in any form ("kayaking" is "kayak"): a small model cites the wrong number (an
    insight about a friend's kayak citing the cello lesson), and a forget of what it did come from would then not
    reach it. Words every experience may share ("listened", the names) say nothing of which."""
    cited_stems, shown_stems = stems(cited), stems(shown)
    return all(
        common(w) or len(w) < SPECIFIC_LETTERS or s in cited_stems or s not in shown_stems
        for w in terms(text)
        for s in stems(w)
    )


def addressed(text: str) -> bool:
    return bool(ADDRESSED.search(text))


def speaks_for_itself(text: str) -> bool:
    """A self-description (an identity, a persona): in the first person, to no one, holding no secret or order."""
    return (
        bool(text)
        and FIRST_PERSON.search(text) is not None
        and not addressed(text)
        and not unfit(WHAT_I_AM.sub("", text))
    )
