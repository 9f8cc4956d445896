"""What a person's message states about them, read by code before and after the model reads it: their name, a
sentence in their own voice written about them, a correction, feedback on how the companion talks, and which
line a fact is about (its slot).

The model proposes; these say what of it the person actually said. A small model writes "I'm scared of dogs"
in the person's voice (which the gate rightly holds back as "not written about you"), a bare "Dana" (which no
check can read), or a correction as a new line beside the old one; and it reads a question ("What's my cat's
name?") as a fact. The rules here are for English, the language the gate's checks read (trust/readable.py); a
line in another language still reaches the person as a proposal.
"""

import re

from ..retrieval.fts import stems
from ..trust import secrets
from ..trust.readable import english

# "My name is Dana", "call me Dana", "I'm called Dana"; not "don't call me sweetie". And as the languages most
# written in Latin letters say it ("Je m'appelle Dana", "Ich heiße Dana", "Me llamo Dana"): the name is read by
# code in any of them, though the gate's checks read only English (a fact in French waits for the person).
_NAME = r"(?P<name>[A-Z][a-z\u00c0-\u024f]+(?:[-'’][A-Z]?[a-z\u00c0-\u024f]+)?)"
_SURE = (
    r"my name is|my name's|je m['’]appelle|mon nom est|mon pr[ée]nom est|ich hei(?:ß|ss)e|mein name ist|me llamo|"
    r"mi nombre es|mi chiamo|il mio nome [èe]|eu me chamo|meu nome [ée]|me chamo|ik heet|mijn naam is"
)
_NAMED = re.compile(
    rf"(?<!don't )(?<!do not )(?<!never )(?<!stop )(?<!dont )\b(?i:(?P<sure>{_SURE})|call me|i'm called|i am "
    rf"called|i go by)\s+{_NAME}\b"
)
# "Hi Anima, it's Dana.", "I'm Dana, nice to meet you": a greeting may name the companion; "I'm X, ..." opens with it.
_HELLO = r"(?:(?i:hi|hello|hey)(?:\s+(?:there|[A-Z][a-z]+))?)?"
_BARE = re.compile(rf"^\s*{_HELLO}[\s,!.]*(?i:i'm|i am|it's|this is)\s+{_NAME}\s*[.!]*\s*$")
_INTRO = re.compile(rf"^\s*{_HELLO}[\s,!.]*(?i:i'm|i am)\s+{_NAME},\s")


def stated_name(text: str) -> str | None:
    """The name a person gives for themselves in a message, or None."""
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        m = _NAMED.search(sentence) or _BARE.match(sentence) or _INTRO.match(sentence)
        if m is None:
            continue
        name = m["name"]
        # "I'm Happy", "call me Later": a word, not a name (one they give as a name anyway is kept by "my name is").
        if (m.re is _NAMED and m["sure"]) or not english(name.lower()):
            return name
    return None


def name_line(name: str) -> str:
    """How the human block holds their name: a line about them that every check can read."""
    return f"Is called {name}"


# A correction: what follows replaces what they said before ("Actually the recital moved to 21 March").
CORRECTS = re.compile(
    r"^\W*(?:actually|correction|en fait|en r[ée]alit[ée]|eigentlich|en realidad|de hecho|in realt[àa]|na verdade|"
    r"eigenlijk)\b|\b(?:i meant|moved to|changed to|instead|rather than|no longer|not anymore|"
    r"postponed|rescheduled|brought forward|pushed back)\b",
    re.I,
)

# Feedback on how the companion talks: an instruction to it about its replies, names or manner.
FEEDBACK = re.compile(
    r"\b(?:(?:please\s+)?(?:keep|make)\s+(?:your\s+|the\s+)?(?:answers?|repl(?:y|ies)|messages?|responses?)|"
    r"(?:don['’]?t|do not|never|stop)\s+(?:call(?:ing)?)\s+me|you(?:['’]re| are)\s+(?:rambling|repeating yourself)|"
    r"(?:you(?:['’]re| are)|(?:your )?(?:answers?|repl(?:y|ies)|responses?) (?:are|is|were|was))\s+"
    r"(?:(?:way|far|much|a bit|a little)\s+)?too\s+(?:long|wordy|verbose|formal|chatty)|"
    r"(?:be|answer|reply)\s+(?:more\s+)?(?:brief|briefer|shorter|concise|direct))",
    re.I,
)


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text.strip()) if s.strip()]


# A question that asks for something ("What's my cat's name?", "When is my recital?"); "do you think I should tell
# my manager I'm pregnant?" tells as it asks.
_ASKS = re.compile(
    r"^\W*(?:what|when|where|who|which|whose)(?:['’]s|\s+(?:is|are|was|were|did|do|does))?\s+(?:my|i)\b[^?]*\?\W*$",
    re.I,
)


def statements(text: str) -> str:
    """The sentences of a message that state something about its writer: not a question that asks for something,
    not feedback on how the companion talks ("What's my cat's name?" states no fact; "Don't call me sweetie" is
    about the talk)."""
    return " ".join(s for s in sentences(text) if not _ASKS.match(s) and not FEEDBACK.search(s))


# The person's voice, turned to a line about them: "I'm scared of dogs" -> "Is scared of dogs".
_OPENERS = (
    (r"i['’]m|i am", "Is"),
    (r"i['’]ve|i have", "Has"),
    (r"i was", "Was"),
    (r"i['’]ll|i will", "Will"),
    (r"i['’]d|i would", "Would"),
    (r"i don['’]?t|i do not", "Doesn't"),
    (r"i didn['’]?t|i did not", "Didn't"),
    (r"i can['’]?t|i cannot|i can not", "Can't"),
    (r"i can", "Can"),
)
_REST = (
    (r"\bmy\b", "their"),
    (r"\bmine\b", "theirs"),
    (r"\bmyself\b", "themselves"),
    (r"\bme\b", "them"),
    (r"\bi['’]m\b", "they're"),
    (r"\bi was\b", "they were"),
    (r"\bi am\b", "they are"),
    (r"\bi['’]ve\b", "they've"),
    (r"\bi\b", "they"),
)


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in ("have",):
        return "Has"
    if low in ("do", "go"):
        return verb.capitalize() + "es"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb.capitalize() + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1].capitalize() + "ies"
    return verb.capitalize() + "s"


def about_them(fact: str) -> str:
    """A fact in the person's own voice written about them (as the human block holds it); any other unchanged."""
    fact = fact.strip()
    if re.search(r"[.!?;]\s+\S", fact):
        return fact  # more than one statement: the gate reads it as the model wrote it
    out = None
    for opener, said in _OPENERS:
        m = re.match(rf"(?:{opener})\b\s*", fact, re.I)
        if m:
            out = f"{said} {fact[m.end() :]}".strip()
            break
    if out is None and (m := re.match(r"i\s+(?:(also|really|just|still|often|usually)\s+)?([a-z]+)\b", fact, re.I)):
        verb = _third_person(m[2])
        out = f"{m[1].capitalize()} {verb.lower()}" if m[1] else verb  # "I also play" -> "Also plays"
        out += fact[m.end() :]
    if out is None and re.match(r"my\b", fact, re.I):
        out = "Their" + fact[2:]
    if out is None:
        return fact
    for pattern, said in _REST:
        out = re.sub(pattern, said, out, flags=re.I)
    return out[0].upper() + out[1:]


_DATED = re.compile(r"^\d+(?:st|nd|rd|th)?$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*$")


def subject(text: str) -> set[str]:
    """A fact's stems less its dates and numbers: what it is about ("recital" of "Has a recital on 14 March")."""
    words = {_SAME.get(w, w) for w in stems(text) if not _DATED.match(w)}
    return words - {"ha", "has", "is", "move", "moved", "now", "actual"}


_SAME = {"name": "call", "named": "call"}  # "a cat named Miso", "a cat called Miso"


def slot(fact: str, lines: list[str]) -> int | None:
    """The index of the line a correction is about: the one that shares most of what it is about, if any."""
    words = subject(fact)
    scored = [(len(words & subject(ln)), i) for i, ln in enumerate(lines) if same_slot(ln, fact)]
    best = max(scored, default=(0, -1))
    return best[1] if best[0] > 0 else None


def near(new: str, held: str) -> bool:
    """Whether a new line says nothing a held one does not: all it is about is in the held one, with the same
    numbers ("Has a cat named Miso" beside "Has a cat called Miso"; not "Works as a tester" beside "Works as an
    engineer", nor a recital on 21 March beside one on 14 March)."""
    x, y = subject(new), subject(held)
    return bool(x) and x <= y and _same_numbers(new, held)


def _same_numbers(a: str, b: str) -> bool:
    return set(re.findall(r"\d+", a)) == set(re.findall(r"\d+", b))


def same_slot(older: str, newer: str) -> bool:
    """Whether a newer fact can replace an older one: they are about the same thing (most of what the shorter is
    about is in the other), not merely sharing a word ("A cat named Miso", "Silly cat")."""
    x, y = subject(older), subject(newer)
    if not x or not y:
        return False
    shared = len(x & y)
    # Half of what the longer is about, at least: two long lines share a couple of words without being about one
    # thing ("Is anxious about the recital, their hands shake when they play", "Is playing Bach at the recital").
    if shared >= 1 and shared >= 0.5 * max(len(x), len(y)):
        return True
    # "Works as a nurse", "Works as a teacher": one predicate, its object changed.
    first = [re.findall(r"[a-z]+", t.lower())[:1] for t in (older, newer)]
    return first[0] == first[1] and bool(first[0]) and first[0][0] not in ("has", "is", "a", "the", "their", "loves")


# A correction's opener says that it corrects, not what: "Actually the recital moved" is "The recital moved".
_OPENER = re.compile(r"^\W*(?:actually|correction|in fact)\b[\s,:;-]*", re.I)


def facts_in(fact: str) -> list[str]:
    """A fact the model wrote, as the lines about them it holds: a small model copies a whole message ("I'm
    learning the cello. I have a recital on 14 March"), which is two lines, each turned about them (about_them).
    Split only where a new sentence begins with a capital ("Uses Miso2015! for everything" is one line); a line
    holding a secret is never split, so the gate refuses it whole (a part without the secret would pass)."""
    fact = " ".join(fact.split())
    parts = [fact] if secrets.find(fact) else re.split(r"(?<=[.!?])\s+(?=[A-Z])", fact)
    out = []
    for s in parts:
        s = _OPENER.sub("", s).strip().rstrip(".!")
        if s:
            out.append(about_them(s[0].upper() + s[1:]))
    return out


# How things are at the moment, not what lasts: the emotional reading's, not a fact to keep ("Is going to
# practise now", "Is still anxious about it, but a bit less than yesterday"). News is not ("Got engaged last
# night", "Moved to Bristol yesterday").
_MOMENTARY = re.compile(
    r"\bgoing to \w+ (?:right )?now\b|\bright now\b|\bat the moment\b|\bjust now\b|\bthan (?:yesterday|before)\b"
    # How they are today ("Is fine today", "Feels tired tonight"); not what they do or what befell them today
    # ("Is moving today", "Was made redundant today").
    r"|^(?:is\s+(?!\w+(?:ing|ed)\b)|feels?\s+)(?:[\w'-]+\s+){0,2}?"
    r"(?:today|tonight|this (?:morning|afternoon|evening))\b",
    re.I,
)
# What a line about them opens with when it says something: a verb ("Celebrates Diwali", "Is Muslim").
_SAYS = re.compile(r"^(?:[A-Z][a-z]*(?:s|ed)|Is|Has|Was|Were|Got|Will|Would|Can|Can't|Did|Does|Do|Their|They)\b")


def states_nothing(fact: str) -> str | None:
    """Why a line the model wrote is no fact to keep about them, or None: a label ("Silly Cat": a few words, each
    capitalised, saying nothing of anyone), or how things are at the moment."""
    words = fact.split()
    if len(words) <= 3 and all(w[:1].isupper() for w in words) and not _SAYS.match(fact):
        return "a label states nothing"
    if _MOMENTARY.search(fact):
        return "it says how things are at the moment, not what lasts"
    return None
