"""The verdict on a text before it may shape the companion: `judge` (a change to a section the gate guards),
`unfit` (a line the companion writes for itself), `tainted` (words the model wrote for its own use). Each combines
the checks of this room: secrets, orders, voices, power, standing given to someone else, codes and links, what can
be read.

The checks read structure as much as words (who a sentence speaks to, whether
a line is a setting, whether it is English at all), because a list of bad
phrases is passed by the next paraphrase: tests/redteam/held_out.py holds the
attacks a probe found that way.
"""

import re
from collections.abc import Set
from dataclasses import dataclass
from enum import Enum

from ..store.provenance import Provenance, Source
from ..store.sections import GATED, section, title
from . import secrets
from .injection import JAILBREAK, SERVILE
from .opaque import BARE_LINK, LINK, opaque
from .orders import EVERY_TALK_RULE, FACT_ORDERS, HABIT_OPENS, NOTE_ORDERS, OUR_TALK, TREATED_RULE, ordered
from .power import about_power_in
from .readable import readable
from .standing import answer_form, standing
from .text import unfit_text
from .voices import FIELD, SYSTEM_VOICE, about_someone_else, not_their_words, speaks_for_someone
from .words import as_words, names, source_sentence

# Not written about the person: the fact speaks as "I" or "we", or to "you".
_NOT_ABOUT_THEM = re.compile(r"\b(i|i'm|i've|i'll|i'd|me|my|mine|we|we're|us|our|ours|you|your|yours)\b", re.I)
# A replaced line applies directly only when they said it changed.
_CHANGED = re.compile(
    r"\b(now|no longer|not anymore|any ?more|moved|changed|switched|started|quit|left|new|became|"
    r"these days|since|used to|finally|big news|got (?:a|an|my)|just|actually|instead|i meant|correction)\b",
    re.I,
)


class Verdict(Enum):
    APPLY = "apply"
    PROPOSE = "propose"
    REFUSE = "refuse"


@dataclass(frozen=True)
class Change:
    target: str  # a section the gate guards (store/sections.py GATED)
    op: str  # "add" or "replace" a line (lined targets), "rewrite" the whole text
    content: str
    provenance: Provenance
    # The line it replaces (op "replace"); for a "rewrite" that becomes a proposal, the text it was made against
    # (the gate records the text as it is then, when none is given): accepting it after that text changed is refused.
    replaces: str | None = None
    said: str = ""  # the words it was read from (the person's message), for the checks


@dataclass
class Decision:
    change: Change
    verdict: Verdict
    reason: str
    proposal_id: int | None = None


def judge(change: Change, companion: str = "Anima", people: Set[str] = frozenset()) -> tuple[Verdict, str]:
    """Where a change may go, and why: a pure check, in code, of what it says and where it came from.
    `companion`: the companion's name (a fact about it is not a fact about the person); `people`: the names, in
    small letters, of the people the soul knows (someone they heed alone is someone, whatever the name reads as).
    The checks read the text as the person sees it (secrets.judged: no invisible characters, no lookalike letters;
    as_words)."""
    content, said = secrets.judged(change.content), secrets.judged(change.said)
    if found := secrets.find(f"{content}\n{change.replaces or ''}"):
        return Verdict.REFUSE, f"it holds {found[0]}, and secrets are never kept"
    if kind := secrets.repeated(content, said):
        return Verdict.REFUSE, f"it holds {kind} from your message, and secrets are never kept"
    if change.target not in GATED:
        return Verdict.REFUSE, f"{change.target.replace('_', ' ')} cannot change"
    if change.op != "rewrite" and not section(change.target).lined:
        return Verdict.REFUSE, f"the {title(change.target)} is not kept as lines: it is rewritten whole"
    source = Source(change.provenance.source)
    if source is Source.APP:
        return Verdict.APPLY, "your own edit"
    if change.provenance.external:
        # Where from is shown beside the reason (the proposals' "From"): the reason says only why that matters.
        return Verdict.PROPOSE, "it came from text you did not write, not from you"
    if source is not Source.PERSON:
        return Verdict.PROPOSE, "it did not come from you"
    words, heard = as_words(content), as_words(said)
    sentence = source_sentence(words, heard) if said else ""
    if ordered(words, sentence, companion):
        return Verdict.PROPOSE, "it reads as an instruction, not as a fact about you"
    if speaks_for_someone(words, heard, companion):
        return Verdict.PROPOSE, "it claims to speak for someone else"
    if not_their_words(said):
        return Verdict.PROPOSE, "it came in a message written as the app, a system or settings write"
    if opaque(content) or LINK.search(content) or FIELD.search(content):
        return Verdict.PROPOSE, "it is not plain words about you (a code, a link, an address or a setting)"
    if change.op in ("add", "replace"):
        if _NOT_ABOUT_THEM.search(words):
            return Verdict.PROPOSE, "it is not written about you"
        if FACT_ORDERS.given(HABIT_OPENS.sub("", words)):
            return Verdict.PROPOSE, "it tells me what to do rather than saying something about you"
        if names(words, companion) or about_power_in(words) or about_someone_else(words):
            return Verdict.PROPOSE, "it is about me, the system, or who owns, commands or may do what, not about you"
        if (why := standing(words, sentence, people)) is not None:
            return Verdict.PROPOSE, why
        if OUR_TALK.search(words) or answer_form(words):
            return Verdict.PROPOSE, "it is about how we talk, not about you"
    if not readable(content):
        return Verdict.PROPOSE, "it is in words my checks cannot read (another language or script)"
    if change.op == "replace" and not _CHANGED.search(sentence):
        return Verdict.PROPOSE, f"it contradicts what you said before ({change.replaces})"
    if change.op == "rewrite":
        return Verdict.PROPOSE, "a whole rewrite is yours to accept"
    return Verdict.APPLY, "you said it about yourself"


def unfit(text: str, said: str = "", companion: str = "", orders: bool = False) -> str | None:
    """Why a line the companion writes for itself (its inner state, a working-memory note) must not enter what
    is always in mind, or None: the same tests as a fact about the person, less the voice (the companion speaks
    as "I" there). Hostile text the model repeated never becomes what it holds on to.
    `said`: the person's message it was read from (a message that speaks for someone else, or a sentence that
    gives an order, taints it, as in judge); `companion`: its name (a line about itself by name is not its own
    thought); `orders`: a line that tells it what to do is unfit too (a note to itself, "Ask how the exam went",
    is not an order)."""
    if (why := unfit_text([("it", text)], names=())) is not None:  # SelfModel.write would refuse it
        return why
    text, said = secrets.judged(text), secrets.judged(said)
    if found := secrets.find(text):
        return f"it holds {found[0]}"
    if kind := secrets.repeated(text, said):
        return f"it holds {kind} from their message"
    words, heard = as_words(text), as_words(said)
    sentence = source_sentence(words, heard) if said else ""
    if ordered(words, sentence, companion) or speaks_for_someone(words, heard, companion):
        return "it reads as an instruction or speaks for someone else"
    if not_their_words(said):
        return "it was read from a message written as the app, a system or settings write"
    if orders and NOTE_ORDERS.given(words):
        return "it tells me what to do"
    if _HOSTILE.search(words):
        return "it speaks of obeying, of being owned, or against them"
    if opaque(text) or LINK.search(text) or BARE_LINK.search(text) or FIELD.search(text):
        return "it is not plain words"
    if about_power_in(words) or (companion and names(words, companion)):
        return "it is about the system, or who owns, commands or may do what"
    if (why := standing(words, sentence)) is not None:
        return why
    if orders and answer_form(words):
        return "it says how I am to answer them"
    if EVERY_TALK_RULE.search(words) or TREATED_RULE.search(words):
        return "it sets a rule for our conversations or for how I answer them"
    if not readable(text):
        return "it is in words my checks cannot read"
    return None


# What no voice of the companion's own says, whatever it is about: obedience, a jailbreak's words, being owned,
# passing on everything said.
_HOSTILE = re.compile(
    rf"\b(obey\w*|obedien\w*|ignore (?:your|the|all|any|previous|prior|my|its)\b|disregard|{JAILBREAK}|{SERVILE}|"
    r"owns? (?:me|you|us|her|him|them|anima)|"
    r"(?:true|real|only|rightful|one true) (?:master|owner|mistress)|"
    r"(?:report|send|forward|pass)\w* (?:on )?(?:everything|all)\b|\w+'s wishes come (?:before|first)|"
    # Against the person: agreeing with everything, doing what someone else says, keeping them from others.
    r"agree\w* with (?:\w+ )?(?:on|about) (?:everything|anything)|agree\w* with everything|"
    r"do(?:es)? whatever (?:\w+ )?(?:says|wants|asks)|discourag\w* (?:\w+ )?from (?:seeing|meeting|talking|calling)|"
    r"isolat\w* (?:her|him|them|\w+) from)",
    re.I,
)


def tainted(text: str) -> str | None:
    """Why words the model wrote for the companion's own use (a part, its identity, its persona) must not be
    kept as they are, or None: a secret, a link or a code, or what no voice of its own says (obedience, a
    jailbreak's words, being owned or reporting on the person). Lighter than unfit: a part may say what it wants
    done ("remind her to rest")."""
    judged = secrets.judged(text)
    if found := secrets.find(judged):
        return f"it holds {found[0]}"
    if LINK.search(judged) or BARE_LINK.search(judged) or opaque(judged):
        return "it holds a link, an address or a code"
    if _HOSTILE.search(as_words(judged)) or SYSTEM_VOICE.search(judged):
        return "it speaks of obeying, of being owned, or as a system does"
    return None
