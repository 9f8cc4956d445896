"""What of a character card is kept with it, and written out again by export-card.

The card is kept (character_cards.data, its edit history), rather than only what the import made of it, so
that export-card gives back what Anima does not use (greetings, examples, the system prompt, other apps'
extensions): a round trip through Anima loses nothing of a card but what is left out here. Other apps put an
exported card in their model's prompt with no gate in front of it, so what the gate holds back because it
must not be kept or followed anywhere is left out of the card itself, sentence by sentence, and the preview
says which, where and why: a secret (never kept, here or in a file), a link or a picture fetched from
elsewhere (it tells a server that the card is read, and whatever its address carries), words of being owned,
who is given the person's words, and someone other than the person whom the companion answers to (a character
who obeys someone in its story is the story's own, and kept: _OBEYING). The gate's checks know the person whose
words and records they guard as "they" ("everything they say", "their chats"), and a card names them otherwise
({{user}} filled with their name, "the user", "you"): a sentence is judged as it reads, and again with the person
as "they" and the companion, whom they talk to, as "it" (_as_they). What is held out of the persona only because
it reads as an instruction to the model ("Write in the third person", the system prompt's very job) or
is not in English stays with the card as data: it is the card's own, harmless in another app, and goes round
unchanged.

Fields differ in who reads them. Those a model reads (FOR_MODEL, and SillyTavern's depth prompt, which it puts
in the prompt) lose any sentence the gate would not keep. The rest (creator notes, tags, the creator, fields
Anima does not know, other apps' extensions, the lorebook's own fields) are read by people or by programs: a
plain link there is kept (a creator's page, their other cards: a person reads it and follows it or not), and
so are an app's ids and markup that loads nothing; a secret (a long hex or base64 string reads as a key),
a picture or page that loads itself when shown (a tracker), and words of being owned, of answering to someone
else or of who is given the person's words are not. A lorebook's entries are world cards, not part of this
(characters.world_out).
"""

import functools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from ..store import character_cards
from ..store.migrations import CARDS_TO_KEEP
from ..store.soul import Soul
from ..trust import secrets
from ..trust.conduct import directs
from ..trust.markup import ADDRESS, LOADS, TAG, unformatted
from ..trust.power import answers_elsewhere
from ..trust.readable import readable
from ..trust.unread import FOREIGN, signs_of_orders
from ..trust.verdict import tainted
from ..trust.words import as_words, sentences
from .cards import an_instruction, filled

FOR_MODEL = (
    "name",
    "description",
    "personality",
    "scenario",
    "first_mes",
    "alternate_greetings",
    "group_only_greetings",
    "mes_example",
    "system_prompt",
    "post_history_instructions",
)
_DEPTH_PROMPT = ("extensions", "depth_prompt", "prompt")  # SillyTavern's character note, put in the prompt
_MARKDOWN_LINK = re.compile(r"(?<!!)\[([^\]\n]{0,300})\]\([^()\s]{0,2000}(?:\s+\"[^\"]{0,300}\")?\)")
_CODE = re.compile(r"[A-Za-z0-9+/=_.:-]{16,}")  # an id, a hash, a date and time: an app's own
# The gate's checks on power but its claims of authority: "never speak for {{user}}", "do not decide what
# {{user}} does", a filter said to be off are kept out of the persona, but are the card's own in another app.
_POWER = "it says who is given the person's words, or whom the companion answers to"
_FETCHES = "it shows a picture or a page fetched from elsewhere, which tells that server the card is read"
# Words of obeying or serving someone ("follows his orders", "loyal to the queen", "obeys her father"). A card is a
# story: a character who obeys someone in it is the story's own, kept. What is not is a companion made to answer to
# someone other than the person: someone set above them ("obeys Zed, not the user", "loyal to Zed above {{user}}"),
# or anyone reached from outside the story (whoever messages a number, writes to a handle, says a password). The
# gate's checks do not tell these apart (they hold all of it out of the persona, which speaks as the companion);
# a card's own text is weighed here (_answers_elsewhere), its name and the floor are not.
_OBEYING = re.compile(
    r"\b(?:(?:dis)?obe(?:y|ys|yed|ying|dience|dient|diently)|(?<!civil )(?<!public )servants?|serv(?:e|es|ed|ing)|"
    r"loyal(?:ly|ty)?(?: only)? to|loyal only|sides? with|sworn to|"
    r"(?:follow(?:s|ed|ing)?|tak(?:e|es|ing)|took|carr(?:y|ies|ied|ying) out|execut(?:e|es|ed|ing)|heed(?:s|ed|ing)?|"
    r"await(?:s|ed|ing)?)\s+(?:(?:\w+'s|his|her|their|its|the|any|all|every|only|no)\s+)?(?:\w+\s+)?"
    r"(?:orders?|commands?|instructions?|bidding)|(?:orders?|commands?|instructions?|bidding) (?:from|of)|"
    r"answers? (?:only |solely )?to|do(?:es)? whatever (?:\w+ ){0,2}?(?:says?|wants?|asks?|tells?|orders?)|"
    r"at (?:\w+'s|his|her|their) (?:beck and call|command|service|disposal)|"
    r"under (?:\w+'s|his|her|their) (?:command|orders))\b",
    re.I,
)
# Set above the person or in their place: "not the user", "above Ada", "rather than what Ada says", "ignores Ada".
_RANKED = (
    r"\b(?:not|never|nor|rather than|instead of|above|over|before|ahead of|more than|against|except|"
    r"in place of|regardless of|whatever|whether or not|even (?:if|when|against|over|above))\b[^.!?;,]{{0,20}}?"
    r"(?:{who})|\b(?:ignor|disregard|overrul|overrid|refus|def[iy])\w*\s+(?:\w+\s+){{0,2}}?(?:{who})"
)
# The person, however a card names them: {{user}} (or <user>) as it is or filled with their name (_person), "the
# user", "User", "the person", "the human"; and, where the gate's checks guard their words and records (_as_they),
# "you", a card's second person. The one place that says so: whom a character is set above (_RANKED: "never betray
# you" is a story's loyalty, not a rank), and whose words are given away.
_PERSON = r"\{\{\s*user\s*\}\}|<user>|\b(?:(?:the )?user|the person|the human)\b"
_YOU = r"\b(?:you|your)\b"
# Reached from outside the story: whoever writes, messages or chats in; a password or code word; a channel.
_REACHED = re.compile(
    r"\b(?:whoever|whomever|anyone|anybody|everyone|everybody|someone|somebody|(?:the )?(?:first |next |only )?"
    r"(?:one|person|people|account|number|sender|caller))\b(?: (?:who|that|whose))?[^.!?;,]{0,30}?"
    r"\b(?:messag(?:e|es|ed|ing)|text(?:s|ed|ing)?|writ(?:es|ing) (?:to|in|from|at|on)|e-?mail(?:s|ed|ing)?|"
    r"phon(?:e|es|ed|ing)|dms?|contact(?:s|ed|ing)?|typ(?:es|ing)|chat(?:s|ting)?|talk(?:s|ing)? (?:to|with)|"
    r"speak(?:s|ing)? (?:to|with)|log(?:s|ged)? (?:in|on)|sign(?:s|ed)? in|reach(?:es)?|pings?|"
    r"send(?:s|ing)? (?:\w+ )?(?:a |the )?(?:messages?|texts?|emails?|dms?|codes?|passwords?))\b|"
    r"\b(?:code ?words?|pass(?:words?|phrases?|codes?)|safe ?words?|trigger (?:words?|phrases?)|"
    r"(?:activation|override|secret) (?:words?|phrases?|codes?)|key ?phrases?)\b|"
    r"\b(?:discord|telegram|whatsapp|sms|e-?mail|inbox|direct messages?|dms|webhook|phone number|user ?name|"
    r"handle)\b|(?<![\w.@])@[A-Za-z_]\w+",
    re.I,
)
_DIALLED = re.compile(r"(?<![\w.])\+?\d[\d ().-]{5,18}\d(?![\w.]\d)")
# Years and dates written with the marks a phone number uses: "1887-1901", "1887-03-12", "12.03.1887".
_YEARS = re.compile(r"\d{4}\s*[-–]\s*\d{4}|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[.-]\d{1,2}[.-]\d{4}")


def _person(person: str | None) -> str:
    """The person's mentions (_PERSON), and `person` (their name as {{user}} was filled: as it is written)."""
    return _PERSON + (rf"|(?<!\w)(?-i:{re.escape(person.strip())})(?!\w)" if person and person.strip() else "")


@functools.lru_cache(maxsize=64)
def _mentions(person: str | None, companion: str | None) -> re.Pattern[str]:
    it = rf"|(?<!\w)(?P<it>(?-i:{re.escape(companion.strip())}))(?!\w)" if companion and companion.strip() else ""
    return re.compile(rf"(?:{_person(person)}|{_YOU}{it})(?P<own>['’]s\b)?", re.I)


def _as_they(text: str, person: str | None, companion: str | None = None) -> str:
    """`text` as the gate's checks know who is who: the person "their" for a possessive ("Ada's chats", "your
    diary"), "they" otherwise ("everything Ada says", "what the user writes"), in small letters even where a
    sentence opens (the checks read a capitalised word there as someone's name, "Zed reads ...", and the person is
    not someone else); the companion (`companion`: its name as {{char}} was filled) "it", "its": it is whom they
    talk to, not someone their words are given to ("Mira remembers Ada's history" is kept; "Mira tells Zed ..."
    names Zed)."""

    def one(m: re.Match[str]) -> str:
        if m.groupdict().get("it"):  # the pattern has no such group while the companion has no name yet
            return "its" if m.group("own") else "it"
        return "their" if m.group("own") or m.group().lower() == "your" else "they"

    return _mentions(person, companion).sub(one, text)


def _answers_elsewhere(plain: str, person: str | None) -> bool:
    """Whether words of obeying (`plain`: as_words) make the companion answer to someone other than the person
    (`person`: their name, "" when not known): someone set above them, or reached from outside the story."""
    if re.search(_RANKED.format(who=_person(person)), plain, re.I) or _REACHED.search(plain):
        return True
    return any(
        sum(ch.isdigit() for ch in m.group()) >= 7 and not _YEARS.fullmatch(m.group()) for m in _DIALLED.finditer(plain)
    )  # a phone number


# Where a value of a card is: its parent's trail and what this step adds to it (" › key", " 2"); None above the top.
_Trail: TypeAlias = tuple["_Trail | None", str]
_T = TypeVar("_T")


@dataclass(frozen=True)
class LeftOut:
    """A sentence of a card that is not kept: where it was (a field, "alternate greetings 2", "extensions ›
    depth_prompt › prompt"), the sentence (its {{char}} and {{user}} filled, as the person reads it), why, and
    whether that is a secret (it is then never repeated back: `shown`)."""

    where: str
    sentence: str
    why: str
    secret: bool = False

    @property
    def shown(self) -> str:
        if self.secret:
            return f"{self.where}: a sentence holding {self.why.removeprefix('it holds ')} (not shown here)"
        return f"{self.where}: {self.sentence} ({self.why})"


@functools.lru_cache(maxsize=1 << 14)  # an import judges a sentence, and its export and preview judge it again
def not_kept(
    sentence: str, for_model: bool = True, person: str | None = None, companion: str | None = None
) -> tuple[str, bool] | None:
    """Why a sentence of a card is not kept with it (and whether that is a secret), or None. `for_model`: it is in
    a field a model reads (see above); otherwise a plain link, an id and markup that loads nothing are let be.
    `person`: given (the person's name as {{user}} was filled, "" when not known) when the sentence is the card's
    own story rather than a name: whom a character obeys in it is then weighed (_OBEYING), not held out whole.
    `companion`: the name {{char}} was filled with (see _as_they)."""
    if found := secrets.find(secrets.judged(sentence)):
        return f"it holds {found[0]}", True
    if LOADS.search(sentence):
        return _FETCHES, False
    words = unformatted(sentence)  # <START>, <b>, <br/>: formatting, not a link
    if not for_model:
        words = _CODE.sub("a code", ADDRESS.sub("a link", _MARKDOWN_LINK.sub(r"\1", TAG.sub(" ", words))))
    obeying = person is not None and _OBEYING.search(plain := as_words(secrets.judged(words)))
    if obeying:
        words = _OBEYING.sub("heeds", words)  # the rest of it is judged as any sentence is
    # Judged as it reads and with the person as the gate knows them ("Mira tells Zed everything Ada says" is
    # "... everything they say"): the second only adds what the first misses.
    theirs = _as_they(words, person, companion)
    if why := tainted(words) or tainted(theirs):
        return why, False
    if answers_elsewhere(words) or answers_elsewhere(theirs) or (obeying and _answers_elsewhere(plain, person)):
        return _POWER, False
    return None


def kept(data: dict[str, Any], name: str, user: str) -> tuple[dict[str, Any], list[LeftOut]]:
    """A card's fields as they are kept and written out again: without the sentences not_kept finds (a list's
    item left with nothing goes; a field left with nothing is empty), and what was left out. The rest is as it
    came, spacing and paragraphs included; a card with nothing to leave out comes back equal. A name the gate
    holds back is `name` (the name the companion keeps). {{char}} and {{user}} stay as they are; each sentence
    is judged with them filled, as `name` and `user`."""
    out: list[LeftOut] = []
    data = dict(data)
    if isinstance(data.get("name"), str) and (why := not_kept(data["name"])):
        out.append(LeftOut("name", data["name"], *why))
        data["name"] = name

    def judged(text: str, trail: _Trail, for_model: bool) -> str:
        def why(sentence: str) -> bool:
            shown = filled(sentence, name, user)
            if found := not_kept(shown, for_model, user, name):
                out.append(LeftOut(_where(trail), shown, *found))
                return True
            return False

        return _without(text, why)

    # Walked with a stack of its own, not by recursion: a card may be nested as deep as its JSON reader allows. A
    # value's place is a trail (its parent's trail, its key), spelt out only for what is left out; `near` is its
    # path while that is short enough to be the depth prompt's.
    emptied = object()  # a list's string item left with nothing (it goes)
    lists: list[list[Any]] = []  # the lists made
    # (the dict or list a value is in, its name or index there, whether a model reads it, `near`, its trail)
    stack: list[tuple[dict[str, Any] | list[Any], Any, bool, tuple[Any, ...] | None, _Trail]] = [
        (data, key, key in FOR_MODEL, (key,), (None, label(key))) for key in reversed(list(data)) if key != "name"
    ]
    while stack:
        parent, key, for_model, near, trail = stack.pop()
        value = parent[key]
        if isinstance(value, str):
            left = judged(value, trail, for_model or near == _DEPTH_PROMPT)
            parent[key] = emptied if isinstance(parent, list) and value.strip() and not left.strip() else left
            continue
        inner: dict[str, Any] | list[Any]
        keys: Sequence[Any]
        if isinstance(value, list):
            parent[key] = inner = list(value)
            lists.append(inner)
            keys = range(len(inner))
        elif isinstance(value, dict):
            parent[key] = inner = dict(value)
            keys = list(inner)
        else:
            continue
        for k in reversed(keys):
            stack.append(
                (
                    inner,
                    k,
                    for_model,
                    (*near, k) if near and len(near) < len(_DEPTH_PROMPT) else None,
                    (trail, f" {k + 1}" if isinstance(inner, list) else f" › {k}"),
                )
            )
    for items in lists:
        items[:] = [v for v in items if v is not emptied]
    return data, out


def keep_stored(soul: Soul) -> int:
    """Cards stored before they were kept so (store/migrations.m013_cards_to_keep marks such a soul): each card's
    data, and the old and new values of every edit of a card, become what `kept` keeps of them, in one
    transaction that also removes the mark; then what went is scrubbed from the file as a forget's words are
    (soul.scrub). Run when the mind opens the soul (Characters), so whichever program on it comes first does it,
    once. Returns how many sentences were left out."""
    if soul.get_meta(CARDS_TO_KEEP) is None:
        return 0
    names = (soul.get_meta("name", "Anima"), soul.get_meta("user_name", ""))
    gone = character_cards.keep_as_kept(
        soul, lambda data: _kept_json(data, names), lambda value: _kept_edit(value, names)
    )
    if gone:
        soul.scrub()
    return gone


def _kept_json(text: _T, names: tuple[str, str]) -> tuple[_T | str, int]:
    """A card's data as stored (JSON text) as it is kept, and how many sentences went (0: `text` as it was)."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return text, 0
    if not isinstance(data, dict):
        return text, 0
    data, out = kept(data, *names)
    return (json.dumps(data, ensure_ascii=False), len(out)) if out else (text, 0)


def _kept_edit(value: str | None, names: tuple[str, str]) -> tuple[str | None, int]:
    """An edit's old or new value (JSON of the fields it changed) with the card data in it as kept."""
    try:
        fields = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return value, 0
    if not isinstance(fields, dict) or "data" not in fields:
        return value, 0
    fields["data"], n = _kept_json(fields["data"], names)
    return (json.dumps(fields, ensure_ascii=False), n) if n else (value, 0)


def _where(trail: _Trail | None) -> str:
    pieces = []
    while trail is not None:
        trail, piece = trail
        pieces.append(piece)
    return "".join(reversed(pieces))


def label(key: str) -> str:
    """A card's field as the person reads its name ("first message", "system prompt")."""
    return _LABELS.get(key, key.replace("_", " "))


_LABELS = {"first_mes": "first message", "mes_example": "example dialogue"}


def _without(text: str, leave_out: Callable[[str], bool]) -> str:
    """`text` without the sentences (as _pieces reads them) that `leave_out` says go; what stays keeps its own
    spacing, and where sentences went, the widest gap around them stays (a paragraph break is not lost). Brackets,
    quotes and *actions* stay whole: one around sentences that went and sentences that stay keeps both its ends
    (the end that went with a sentence is put back on the nearest sentence kept inside it), and one around only
    sentences that went goes with them."""
    pieces, at = [], 0
    for s in _pieces(text):
        start = text.find(s, at)
        pieces.append((text[at:start], s))
        at = start + len(s)
    if not pieces:
        return text
    gone = [leave_out(s) for _, s in pieces]
    if not any(gone):
        return text
    if all(gone):
        return ""
    before, after = _ends_kept(pieces, gone)
    result, gaps, kept_one = "", [], False
    for i, ((gap, s), go) in enumerate(zip(pieces, gone, strict=True)):
        gaps.append(gap)
        if go:
            continue
        result += max(gaps, key=lambda g: g.count("\n")) if kept_one else gaps[0]  # gaps[0]: the text's own start
        result, gaps, kept_one = result + before[i] + s + after[i], [], True
    return result + text[at:]


# An end mark and what closes on it, before a space: words.sentences ends a sentence only at a mark then a space,
# so "[Note: PIN is 4821.] She sings." is one sentence to it, and two here.
_CLOSED_END = re.compile(r"[.!?][)\]}»”’\"*]+(?=\s)")
# What opens a span a sentence may be inside of, and what closes it; a straight quote or a run of * (an action,
# emphasis) closes the same mark left open, and otherwise opens one.
_PAIRS = {"(": ")", "[": "]", "{": "}", "«": "»", "“": "”"}
_MARKS = re.compile(r"[(\[{«“)\]}»”\"]|\*+")


def _pieces(text: str) -> list[str]:
    """The sentences of `text` as words.sentences reads them, each cut again after an end mark that a bracket, a
    quote or an action's * closes on."""
    out = []
    for s in sentences(text):
        at = 0
        for m in _CLOSED_END.finditer(s):
            out.append(s[at : m.end()].strip())
            at = m.end()
        out.append(s[at:].strip())
    return [p for p in out if p]


def _ends_kept(pieces: list[tuple[str, str]], gone: list[bool]) -> tuple[list[str], list[str]]:
    """What each piece that stays is given before and after it: the ends of the brackets that hold sentences that
    stay, where the end went with a sentence that goes. A mark nothing pairs (the author's own) is left be."""
    # spans: (where the opening mark was, it, where the closing one was, it); a place is (piece, offset)
    spans: list[tuple[tuple[int, int], str, tuple[int, int], str]] = []
    open_: list[tuple[tuple[int, int], str]] = []
    for i, (_, s) in enumerate(pieces):
        for m in _MARKS.finditer(s):
            mark, at = m.group(), (i, m.start())
            closes = next(
                (n for n in range(len(open_) - 1, -1, -1) if _PAIRS.get(open_[n][1], open_[n][1]) == mark), None
            )
            if mark in _PAIRS or closes is None:
                if mark in _PAIRS or mark[0] in '"*':
                    open_.append((at, mark))
                continue  # a closing bracket nothing opened: the author's own
            opened, opener = open_[closes]
            del open_[closes:]  # what opened inside it and never closed: the author's own
            if opened[0] != i:
                spans.append((opened, opener, at, mark))
    before, after = [""] * len(pieces), [""] * len(pieces)
    for opened, opener, closed, _ in sorted(spans):  # the outer span's opening first
        if gone[opened[0]] and (kept := _kept_between(gone, opened[0], closed[0])):
            before[kept[0]] += opener
    for opened, _, closed, closer in sorted(spans, key=lambda span: span[2]):  # the inner span's closing first
        if gone[closed[0]] and (kept := _kept_between(gone, opened[0], closed[0])):
            after[kept[-1]] += closer
    return before, after


def _kept_between(gone: list[bool], first: int, last: int) -> list[int]:
    return [k for k in range(first, last + 1) if not gone[k]]


def why_held(sentence: str, person: str = "", companion: str = "") -> str:
    """Why a sentence held_back stays out of the floor, in words for the person (the preview lists it so)."""
    if left := not_kept(sentence):
        return left[0]
    if an_instruction(sentence):
        return "read as an instruction to the model"
    if directed := directs(sentence, person, companion):
        return directed
    if not readable(sentence):
        return signs_of_orders(sentence, person, companion) or FOREIGN
    return "it holds a code or markup"
