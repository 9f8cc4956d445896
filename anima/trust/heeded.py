"""What a line says the person heeds, read by what it names (issue 43, item 7): music listened to, or a role's
advice followed on one matter of their own, is their news; one person heeded alone, or a say over them in general,
is standing given to someone else (standing.py).

standing.py reads heeding one alone ("only listens to Zed now") and doing what someone says ("does whatever Zed
says") from a line's structure. The same structure is ordinary news when what they listen to is music or a
programme ("only listens to Radiohead now, nothing else": a band, not a person they keep to), or when the one whose
word they follow is a role they consult, on one matter of their own ("does what the doctor says about my knee").
Telling a band from a person, or a knee from whom they see, needs knowledge the words do not carry, so the shipped
embedder (meaning.py) reads the thing named beside the meanings declared below, and what the soul knows has the
last word: a name of one of its people (a world card about a person, gate.py) is someone, whatever the name reads
as. Without the embedder nothing is excused: the line waits for the person, as it did before.

Never excused, whatever the embedder reads: someone close to them, a role or one of the people the soul knows heard
alone ("only listens to Mum now", "only listens to his coach"), or anyone said beside "nobody else"; a name that
does not read as music ("only listens to Zed now"); someone who is not a role ("does what Zed says about my knee");
a say that is not advice ("does what the vet wants"); a say over all they do ("whatever", "everything"); and advice
on anything that is not one matter of their own ("about who he sees", "about my knee and my friends").
"""

import functools
import re
from collections.abc import Sequence, Set

import numpy as np
import numpy.typing as npt

from ..models.embedder import Embedder
from . import meaning
from .kin import CLOSE, KIN, ROLES

# Heeding someone, however it is put; and "alone" (one and no other). standing.py reads the relation with them.
HEEDS = (
    r"(?:listen(?:s|ing)?|answer(?:s|ing)?|defer(?:s|ring)?|heed(?:s|ing)?|trust(?:s|ing)?|believ(?:es?|ing)|"
    r"obey(?:s|ing)?|turn(?:s|ing)? to|rel(?:y|ies|ying) on)"
)
_ALONE = r"(?:only|just|nobody but|no one but|no-one but|none but|solely|exclusively)"

# What music or a programme means, and what a person means, read of the name bare ("Radiohead", "Radio 4"): in a
# sentence the embedder reads the sentence's shape more than the name ("listening to Zed" is as near "listening to
# music" as "listening to Blur" is). Measured on names of people and of bands, stations and podcasts
# (tests/trust/test_heeded.py): bands, stations and podcasts are nearer music than a person by 0.13 to 0.66
# (Radiohead 0.40), first names by 0.10 at most, except those that are words of music ("Melody", "Jazz"): "nobody
# else" beside what they listen to reads it as someone, whatever its name.
MEDIA = ("a band", "music", "songs", "a podcast", "a radio station", "an album", "a music genre")
PEOPLE = ("a person", "a friend", "someone they know", "a man", "a woman", "a family member")
MEDIA_MARGIN = 0.10
# And said as what they listen to ("listening to X"), a second reading that must agree: bands and stations are
# nearer "listening to music" than "listening to a friend" by 0.07 or more, and a name that reads near music bare
# but not as something listened to stays someone ("Harmony": 0.26 bare, 0.04 said).
LISTENING_MEDIA = tuple(f"listening to {m}" for m in ("music", "a band", "songs", "a podcast", "the radio", "an album"))
LISTENING_PEOPLE = tuple(
    f"listening to {p}" for p in ("a person", "a friend", "someone's advice", "what he says", "a family member")
)
LISTENING_MARGIN = 0.05

# One matter of their own (their body, their health, their pet's, a piece of work), and their life at large (whom
# they see, their money, their choices): what advice is about, read without its "my" or "the" ("knee", "who he
# sees"; a possessive shared with "their friends" pulls any matter toward their life). A matter is one of their own
# when it is nearer these than their life by SCOPE_MARGIN (measured in tests/trust/test_heeded.py: a joint, teeth,
# gums, training, a pet's diet or jabs by 0.12 to 0.69; whom they see, their money, friends, faith, phone, savings,
# marriage by -0.05 or less; their career by 0.06).
ONE_MATTER = (
    "a part of the body",
    "an injury",
    "an illness",
    "medicine",
    "teeth",
    "diet",
    "exercise",
    "sports training",
    "a pet's health",
    "a piece of work",
)
THEIR_LIFE = (
    "their whole life",
    "who they see",
    "their friends",
    "their family",
    "their partner",
    "their relationships",
    "their money",
    "their phone",
    "their decisions",
    "where they go",
    "everything",
    "who they talk to",
    "their beliefs",
    "what they wear",
    "their free time",
)
SCOPE_MARGIN = 0.10


class Reader:
    """The declared meanings as vectors of one embedder, and which a named thing is nearer."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self.vectors: dict[str, npt.NDArray[np.float32]] = {
            name: embedder.embed_batch(list(said))
            for name, said in (
                ("media", MEDIA),
                ("people", PEOPLE),
                ("listening media", LISTENING_MEDIA),
                ("listening people", LISTENING_PEOPLE),
                ("one matter", ONE_MATTER),
                ("their life", THEIR_LIFE),
            )
        }

    def nearer(self, texts: Sequence[str], one: str, other: str) -> npt.NDArray[np.float32]:
        """How much nearer each text is to the meanings `one` than to `other` (cosine, the nearest of each)."""
        found: npt.NDArray[np.float32] = self.embedder.embed_batch(list(texts))
        near: npt.NDArray[np.float32] = (found @ self.vectors[one].T).max(axis=1)
        far: npt.NDArray[np.float32] = (found @ self.vectors[other].T).max(axis=1)
        return np.subtract(near, far, dtype=np.float32)


@functools.lru_cache(maxsize=4)
def _reader(embedder: Embedder) -> Reader:
    return Reader(embedder)


def _read() -> Reader | None:
    found = meaning.embedder()
    return _reader(found) if found is not None else None


def media(name: str) -> bool:
    """Whether what is listened to reads as music or a programme, not as a person (False without the embedder)."""
    reader = _read()
    return reader is not None and _media(reader, name)


@functools.lru_cache(maxsize=1 << 10)
def _media(reader: Reader, name: str) -> bool:
    bare = float(reader.nearer([name], "media", "people")[0])
    said = float(reader.nearer([f"listening to {name}"], "listening media", "listening people")[0])
    return bare >= MEDIA_MARGIN and said >= LISTENING_MARGIN


# Whom a matter says it is about, or all of it: never one matter of their own.
_AT_LARGE = re.compile(
    rf"^(?:who|whom|whose|where|when|whether|how|which)\b|\b(?:every\w*|anything|all|whatever|life|lives|"
    rf"{CLOSE}s?)\b",
    re.I,
)
_OWNER = re.compile(r"^(?:my|his|her|their|your|our|the)\s+", re.I)


def one_matter(scope: str) -> bool:
    """Whether what advice is about ("my knee", "the dog's diet") is one matter of their own, not their life at
    large ("who he sees", "my money"). False without the embedder."""
    reader = _read()
    return reader is not None and bool(scope) and not _AT_LARGE.search(scope) and _one_matter(reader, scope)


@functools.lru_cache(maxsize=1 << 10)
def _one_matter(reader: Reader, scope: str) -> bool:
    return float(reader.nearer([_OWNER.sub("", scope)], "one matter", "their life")[0]) >= SCOPE_MARGIN


# What they listen to, after the verb: up to a word of when or where ("now", "in the car"), or the clause's end.
_LISTENED = re.compile(
    rf"\blisten(?:s|ed|ing)?\s+(?:{_ALONE}\s+)?to\s+(?:{_ALONE}\s+(?:to\s+)?)?(?P<what>[^,.;:!?()]+)", re.I
)
_UNTIL = re.compile(
    r"\s+(?:now|these|nowadays|anymore|any|lately|from|nothing|no|nobody|on|in|at|when|while|whilst|since|during|"
    r"for|all|every|because|as|after|before|this|most|these|then|so|but|instead|again|really)\b.*$",
    re.I,
)
_AND = re.compile(r"\s*(?:&|\+|\band\b|\bor\b|\bplus\b|/)\s*", re.I)
# Someone close or a role, with or without "the", "my" ...: a person whatever the embedder reads.
_KNOWN_PERSON = re.compile(rf"(?:(?:the|my|his|her|their|our|a|an)\s+)?(?:\w+\s+)?{KIN}s?", re.I)


# People said to be the ones set aside ("nobody else", "no one but"): what is listened to is someone, whatever its
# name reads as ("Melody", "Autumn" read as music).
_PEOPLE_ELSE = re.compile(
    r"\b(?:nobody|no\s+one|no-one|anyone|anybody|someone|somebody|everyone|everybody|people)\s+(?:else|but)\b", re.I
)


_DETERMINER = re.compile(r"^(?:the|my|his|her|their|our)\s+", re.I)


def _someone(name: str, people: Set[str]) -> bool:
    """Whether a name is someone whatever it reads as: kin or a role, or one of the people the soul knows."""
    bare = _DETERMINER.sub("", name).strip().lower()
    return bool(_KNOWN_PERSON.fullmatch(name)) or bare in people or bare.split()[0] in people


def _listens_to_media(words: str, start: int, end: int, sentence: str, people: Set[str]) -> bool:
    """Whether the heeding found at words[start:end] is listening, and all that is listened to reads as music."""
    m = _LISTENED.search(words, start)
    if m is None or m.start() >= end or _PEOPLE_ELSE.search(words) or _PEOPLE_ELSE.search(sentence):
        return False
    what = _UNTIL.sub("", m.group("what")).strip()
    names = [n.strip() for n in _AND.split(what) if n.strip()]
    return bool(names) and all(not _someone(n, people) and media(n) for n in names)


# A role's advice (not what they want or order): "does what the doctor says", "does exactly what my physio tells
# her"; what it is about follows ("about my knee", "with the dog's diet").
_ADVICE = r"(?:says?|said|tells?|told|advises?|advised|recommends?|recommended|suggests?|suggested)"
_ROLE_SAYS = re.compile(
    rf"\bdo(?:es|ing|ne)?\s+(?:exactly\s+)?what\s+(?:the|my|his|her|their|our|a|an)\s+(?:[\w-]+\s+)?"
    rf"(?P<role>{ROLES})\s+{_ADVICE}\b(?:\s+(?:me|them|him|her|us)\b)?(?:\s+to\b)?",
    re.I,
)
# What the advice is about: after "about", "for", "with" ..., to the clause's end; each part joined by "and" is
# read on its own ("about my knee and who I see" is not one matter).
_ABOUT = re.compile(
    r"^\s*,?\s*(?:about|for|with|on|over|regarding|concerning|when\s+it\s+comes\s+to)\s+(?P<scope>[^.;!?]+)", re.I
)
# (A clause of its own ends it: "about my shoulder, it's finally improving", "about my knee so I rest".)
_CLAUSE_END = re.compile(
    r"\s*(?:[,(]\s*)?\b(?:so|because|but|since|though|although|which|while|whilst|then|until|even|as|and\s+then|"
    r"and\s+(?:i|she|he|they|it|we)\b).*$|"
    r"\s*[,(]\s*(?:it|it['’]s|its|i|i['’]m|i['’]ve|she|he|they|we|that|this|there|thank\w*|hope\w*|lol|haha)\b.*$",
    re.I,
)
_PARTS = re.compile(r"\s*(?:,|&|\band\b|\bor\b|\bplus\b|\bas well as\b)\s*(?:(?:about|for|with|on)\s+)?", re.I)


def _scope(text: str, end: int) -> list[str] | None:
    """The parts of what the advice that ends at text[:end] is about, or None where it says no matter."""
    m = _ABOUT.match(text[end:])
    if m is None:
        return None
    scope = _CLAUSE_END.sub("", m.group("scope")).strip()
    return [p.strip() for p in _PARTS.split(scope) if p.strip()] or None


def _bounded_advice(words: str, start: int, end: int, sentence: str) -> bool:
    """Whether the say found at words[start:end] is a role's advice on one matter of their own: the matter said in
    the line, or, where the line leaves it out ("Does what the doctor says"), in the sentence it was learned from,
    where the same role's advice is followed."""
    m = _ROLE_SAYS.search(words, start)
    if m is None or m.start() >= end:
        return False
    # What the line says it is about, and what their sentence says of the same role's advice (all of it: "about
    # my knee and my friends" in their sentence is not one matter, whatever the line kept of it).
    role = m.group("role").lower()
    parts = [*(_scope(words, m.end()) or [])]
    for said in _ROLE_SAYS.finditer(sentence):
        if said.group("role").lower() == role:
            parts += _scope(sentence, said.end()) or []
    return bool(parts) and all(one_matter(p) for p in parts)


def excused(words: str, start: int, end: int, sentence: str = "", people: Set[str] = frozenset()) -> bool:
    """Whether the heeding or say that standing.py found at words[start:end] is the person's news: music they
    listen to, or a role's advice on one matter of their own. `sentence`: the person's sentence the line was learned
    from, which may say the matter the line leaves out; `people`: the names (in small letters) of the people the
    soul knows, never music whatever their name reads as ("Melody")."""
    return _listens_to_media(words, start, end, sentence, people) or _bounded_advice(words, start, end, sentence)
