"""What the companion says that code decides, not the model: plain words about what it will not do, and a reply
that carries no remote link or image.

A tiny model says whatever a text tells it to, so these do not depend on it:
- a secret in the person's message (trust/secrets.py): the reply says plainly it will not be kept;
- a request that only the person may carry out through the app's own controls (forgetting everything,
  exporting, importing, changing the passphrase, lowering a guardrail): the reply points to them, and no
  code path acts on a message anyway;
- a remote image or a remote link, whose address (query, fragment or path) can carry what the companion
  knows to someone else once fetched or followed: removed from the reply before it is stored or shown;
- a reply that announces how the person seems to feel ("I notice you seem frustrated", "you sound stressed"):
  the guardrails say never to (seed 003, 4.1: notice and adjust, never label and announce), and a small model
  says it anyway, so `announces_emotion` catches it before it is shown and the turn asks again.
"""

import re

from ..trust import secrets
from .in_role import FEELING_NOTE, IN_ROLE, Role, logged

_ONLY_THE_PERSON = (
    (
        re.compile(
            r"\b(forget|delete|erase|wipe|remove|clear)\b.{0,30}\b(everything|all (?:of )?(?:your |my |the )?"
            r"(?:memor(?:y|ies)|data|history|notes)|your memor(?:y|ies)|what you know)",
            re.I,
        ),
        "Forgetting is yours to do, not a message's: in the window, Open Mind → Forget or Forget a person…; "
        "in the terminal, `python -m anima forget`.",
    ),
    (
        re.compile(
            r"\b(export|send|upload|email|post|share|copy)\b.{0,30}\b(my|your|the|all)\b.{0,12}\b(soul|data|"
            r"memor(?:y|ies)|history|notes|everything)\b",
            re.I,
        ),
        "Exporting is done only through the app: Anima → Export soul…, or `python -m anima export`.",
    ),
    (
        re.compile(r"\b(change|reset|set|update|remove|disable)\b.{0,20}\bpass(?:phrase|word)\b", re.I),
        "The passphrase changes only through the app: Anima → Change passphrase…, or `python -m anima passphrase`.",
    ),
    (
        re.compile(r"\bimport\b.{0,30}\b(soul|core|memor(?:y|ies)|backup|companion)\b", re.I),
        "Importing is done only through the app: Anima → Import soul…, or `python -m anima import`.",
    ),
    (
        re.compile(
            r"\b(lower|disable|remove|turn off|drop|ignore|relax|bypass|change)\b.{0,20}\b(guardrails?|safety|"
            r"your rules|restrictions?|filters?)\b",
            re.I,
        ),
        "My guardrails are not something a message can change.",
    ),
)

# A Markdown or HTML image with a remote address, and any remote link: an address can carry what the companion
# knows in its query, its fragment or its path alike, so no remote address is kept at all (its words are).
# Remote: with a scheme and two slashes ("https://", "file:///"), protocol-relative ("//host.example/p",
# "//2130706433/p", "//localhost:8080/p"), a backslash where a browser reads a slash, or "www."; or a scheme that
# runs or sends something without a host (javascript:, vbscript:, data:, mailto:), or a web one without slashes.
_TARGET = r"\s*<?\s*(?:[a-z][a-z0-9+.-]*:\s*)?[/\\]{2}"
# A browser reads a web scheme without its slashes ("https:evil.example/p") as remote too.
_SCHEMES = (
    "javascript",
    "vbscript",
    "data",
    "mailto",
    "file",
    "blob",
    "https",
    "http",
    "ftps",
    "ftp",
    "wss",
    "ws",
    "sms",
    "tel",
    "intent",
)
# A CSS escape ("\68ttps:" in a url()) a renderer reads as its character.
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?")
# Tabs and line breaks inside an address, which a browser drops ("/<tab>/evil.example").
# After a colon only where a scheme ends ("javascript:<newline>alert"): "Here are a few:<newline><newline>1." is
# a list, and the reply is stored as it was shown.
_BROKEN_ADDRESS = re.compile(
    r"(?<=[/\\])[\t\r\n]+|(?:" + "|".join(f"(?<={s}:)" for s in _SCHEMES) + r")[\t\r\n]+|[\t\r\n]+(?=[/\\])", re.I
)
_RUNS = rf"(?:{'|'.join(_SCHEMES)})\s*:"
# A browser drops tabs and line breaks inside an address: "java<tab>script:" is "javascript:".
_SPLIT_SCHEME = re.compile(
    "|".join(r"[\t\r\n]*".join(scheme) + r"(?=[\t\r\n]*:)" for scheme in _SCHEMES if len(scheme) > 2), re.I
)
_UNTIL_CLOSED = r"(?:[^()]|\([^()]*\))*\)"  # an address may hold brackets of its own: "javascript:alert(1)"
# Where a link or an image points, any scheme at all opens something outside the reply (xmpp:, skype:, sip:,
# bitcoin:, geo:, tg:, web+...: each can carry words in its query): a link target keeps no scheme.
_ANY_SCHEME = r"\s*<?\s*[a-z][a-z0-9+.-]{0,31}\s*:"
_REMOTE_IMAGE = re.compile(rf"!\[([^\]]*)\]\((?:{_TARGET}|{_ANY_SCHEME}){_UNTIL_CLOSED}", re.I)
_REMOTE_LINK = re.compile(rf"\[([^\]]*)\]\((?:{_TARGET}|{_ANY_SCHEME}){_UNTIL_CLOSED}", re.I)
# An autolink ("<xmpp:zed@host?body=...>"): whatever its scheme.
_AUTOLINK = re.compile(r"<[a-z][a-z0-9+.-]{1,31}:[^\s<>]*>", re.I)
# A reference definition ("[1]: //host/p.png?d=...") and what points at it ("![logo][1]", "[text][1]", "[1]").
_DEFINITION = re.compile(
    rf"^[ \t]{{0,3}}\[([^\]]+)\]:(?:{_TARGET}|{_ANY_SCHEME}|\s*<?\s*www\.)[^\n]*(?:\n|$)", re.I | re.M
)
_REFERENCE = re.compile(r"(!?)\[([^\]]*)\](?:\s?\[([^\]]*)\])?")
_HTML_IMAGE = re.compile(r"<(?:img|image|picture)\b[^>]*>", re.I)
# Markup that loads or runs something (a video, a frame, an object, a script, a style sheet): gone, with what is
# inside a script or a style. (An address in any other tag's attribute goes with the addresses below.)
_HTML_BLOCK = re.compile(r"<(script|style)\b[^>]*>.*?(?:</\1\s*>|$)", re.I | re.S)
_HTML_LOADS = re.compile(
    r"</?(?:video|audio|source|track|iframe|frame|frameset|embed|object|param|applet|portal|"
    r"link|meta|base|svg|use|script|style)\b[^>]*>",
    re.I,
)
_HTML_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", re.I | re.S)
# Any other address left: in an attribute, a CSS url(), a reference, plain text.
_ADDRESS = re.compile(
    r"\b[a-z][a-z0-9+.-]*:\s*[/\\]{2}[^\s)\]>\"'<]*"
    r"|(?<![\w:/\\])[/\\]{2}(?=[^\s/\\<>\"'()\[\]?#]+(?:[/\\?#]|\.\w))[^\s)\]>\"'<]*"
    r"|\bwww\.[^\s)\]>\"']+"
    rf"|\b{_RUNS}[^\s)\]>\"'<]+",
    re.I,
)
# A character reference a renderer decodes ("https&#58;//", "&#106;avascript:"): decoded before the checks, but
# never into markup.
_REFERENCE_CHAR = re.compile(
    r"&#(?:x([0-9a-f]+)|(\d+));?|&(colon|sol|bsol|period|commat|quest|num|equals|lpar|rpar|"
    r"lsqb|rsqb|lbrack|rbrack|excl|NewLine|Tab|percnt|plus|dot);",
    re.I,
)
_NAMED = {
    "colon": ":",
    "sol": "/",
    "bsol": "\\",
    "period": ".",
    "commat": "@",
    "quest": "?",
    "num": "#",
    "equals": "=",
    "lpar": "(",
    "rpar": ")",
    "lsqb": "[",
    "rsqb": "]",
    "lbrack": "[",
    "rbrack": "]",
    "excl": "!",
    "newline": "\n",
    "tab": "\t",
    "percnt": "%",
    "plus": "+",
    "dot": ".",
}
_MARKUP = set("<>&\"'")


def _decoded(m: re.Match[str]) -> str:
    if m.group(3):
        return _NAMED[m.group(3).lower()]
    try:
        ch = chr(int(m.group(1), 16) if m.group(1) else int(m.group(2)))
    except (ValueError, OverflowError):
        return m.group()
    return m.group() if ch in _MARKUP or (not ch.isprintable() and ch not in "\n\t") else ch


def _css_decoded(m: re.Match[str]) -> str:
    try:
        ch = chr(int(m.group(1), 16))
    except (ValueError, OverflowError):
        return m.group()
    return m.group() if ch in _MARKUP or not ch.isprintable() else ch


def notices(typed: str) -> list[str]:
    """What the reply must say before anything the model says, for the person's own words `typed`."""
    said = []
    if found := secrets.find(typed):
        said.append(
            f"I won't keep {' or '.join(found)}: secrets never go into my memories or my notes about "
            "you. It stays only in our message history, which you can forget in the Open Mind."
        )
    said += [pointer for pattern, pointer in _ONLY_THE_PERSON if pattern.search(typed)]
    return said


def safe_reply(text: str) -> str:
    """The reply without remote images and without remote addresses (a link keeps its words), in whatever form a
    renderer would read them: Markdown inline or by reference, HTML, CSS, character references, plain text."""
    text = _REFERENCE_CHAR.sub(_decoded, text)
    text = _CSS_ESCAPE.sub(_css_decoded, text)
    text = _BROKEN_ADDRESS.sub("", text)
    text = _SPLIT_SCHEME.sub(lambda m: re.sub(r"[\t\r\n]", "", m.group()), text)
    text = _HTML_BLOCK.sub("", text)
    text = _HTML_IMAGE.sub("[image not shown]", text)
    text = _HTML_LOADS.sub("", text)
    text = _HTML_LINK.sub(lambda m: m.group(1), text)
    text = _AUTOLINK.sub("[link removed]", text)
    text = _without_references(text)
    text = _REMOTE_IMAGE.sub(lambda m: f"[image not shown: {m.group(1)}]" if m.group(1) else "[image not shown]", text)
    text = _REMOTE_LINK.sub(lambda m: m.group(1), text)
    return _ADDRESS.sub("[link removed]", text)


def _without_references(text: str) -> str:
    """Reference definitions with a remote address gone, and what pointed at them: an image says so, a link
    keeps its words."""
    labels = {" ".join(m.group(1).lower().split()) for m in _DEFINITION.finditer(text)}
    if not labels:
        return text
    text = _DEFINITION.sub("", text)

    def pointed(m: re.Match[str]) -> str:
        bang, words, label = m.group(1), m.group(2), m.group(3)
        if " ".join((label or words).lower().split()) not in labels:
            return m.group()
        if bang:
            return f"[image not shown: {words}]" if words else "[image not shown]"
        return words

    return _REFERENCE.sub(pointed, text)


# Announcing what the person feels, as opposed to meeting it ("That sounds like a long day", "That sounds
# frustrating", "I'm sorry it went that way"). A feeling named as theirs, or a claim of having detected one.
_EMOTION = (
    r"(?:frustrat\w*|stress\w*|anxi\w*|upset|angry|anger|annoy\w*|irritat\w*|sad|sadness|depress\w*|"
    r"overwhelm\w*|tired|exhaust\w*|weary|worn\s+out|burn(?:ed|t)\s+out|worr\w*|nervous\w*|tense|tension|"
    r"lonel\w*|hurt|down|low|afraid|fear\w*|scared|excit\w*|happy|happiness|joy\w*|distress\w*|agitat\w*|"
    r"defensive|emotional|uneas\w*|discourag\w*|disappoint\w*|on\s+edge|cheerful|calm|bored|boredom|"
    r"confus\w*|mood|feelings?|emotions?|hopeful|relieved|proud|nervous|irritable|impatien\w*|restless|"
    r"drained|hopeless|heartbroken|grief|grieving|guilt\w*|ashamed|embarrass\w*|jealous\w*|resent\w*|"
    r"a\s+(?:bit|little)\s+off|not\s+yourself|(?:in\s+)?(?:a\s+)?(?:good|bad|great|rough)\s+(?:mood|place|"
    r"headspace|spirits))"
)
_FILLER = (
    r"(?:\s+(?:really|quite|so|very|a\s+bit|a\s+little|kind\s+of|somewhat|rather|pretty|a\s+lot|more|less|"
    r"clearly|obviously|definitely|visibly|genuinely|to\s+be|like\s+you(?:['’]re|\s+are)|"
    r"(?:a\s+)?(?:bit|little)\s+of|feeling|some|a\s+(?:hint|note|touch|sense|lot)\s+of|that|a|an))*"
)
_I = r"\bI(?:['’]ve|['’]m|\s+have|\s+am)?\s+"  # I, I've, I'm, I have, I am
_ANNOUNCING = (
    # "I notice / sense / detect / can tell / hear / see / pick up (on) (that) you('re) ... <feeling>"
    re.compile(
        _I + r"(?:can\s+|could\s+|do\s+)?(?:notic\w*|sens\w*|detect\w*|tell|hear\w*|see|saw|"
        r"pick\w*\s+up(?:\s+on)?|get\s+the\s+(?:sense|feeling|impression)|feel|felt|gather|observ\w*|read)"
        r"(?:\s+(?:that|how))*\s+(?:your|you(?:['’]re|\s+are|\s+were|['’]ve\s+been|\s+have\s+been|\s+seem\w*|"
        r"\s+sound\w*|\s+appear\w*|\s+look\w*|\s+feel\w*|\s+might\s+be|\s+may\s+be|\s+must\s+be)+)"
        + _FILLER
        + r"\s+"
        + _EMOTION
        + r"\b",
        re.I,
    ),
    # "I sense / detect ... <feeling>" ("I detected frustration", "I sense some tension")
    re.compile(
        _I + r"(?:can\s+)?(?:sens\w*|detect\w*|pick\w*\s+up(?:\s+on)?)" + _FILLER + r"\s+" + _EMOTION + r"\b", re.I
    ),
    # "I sense that you're ..." whatever follows: sensing the person is itself the announcement
    re.compile(_I + r"(?:can\s+)?(?:sens\w*|detect\w*)\s+(?:that\s+)?(?:you|your)\b", re.I),
    # "you seem / sound / appear / look (to be) (really) <feeling>"
    re.compile(
        r"\byou(?:['’]re|\s+are)?\s+(?:seem\w*|sound\w*|appear\w*|look\w*|com\w*\s+across)(?:\s+as)?"
        + _FILLER
        + r"\s+"
        + _EMOTION
        + r"\b",
        re.I,
    ),
    # "it sounds / seems / looks like you're (feeling) <feeling>", "you're clearly stressed", "you must be exhausted"
    re.compile(
        r"\b(?:it|that)\s+(?:sounds|seems|looks|feels)\s+(?:like|as\s+if|as\s+though)\s+you(?:['’]re|\s+are|"
        r"['’]ve\s+been|\s+have\s+been|\s+feel|\s+might\s+be|\s+may\s+be)?" + _FILLER + r"\s+" + _EMOTION + r"\b",
        re.I,
    ),
    re.compile(
        r"\byou(?:['’]re|\s+are|\s+must\s+be|\s+feel|['’]re\s+feeling|\s+are\s+feeling)\s+"
        r"(?:clearly|obviously|definitely|visibly|really|so|very|feeling)(?:\s+\w+)?\s+" + _EMOTION + r"\b",
        re.I,
    ),
    # "your frustration / stress / mood"
    re.compile(
        r"\b(?:hear|see|sense|notice|feel|understand|detect)\w*\s+(?:all\s+)?your\s+"
        r"(?:frustration|stress|anxiety|anger|sadness|tension|irritation|annoyance|worry|worries|mood|"
        r"exhaustion|fatigue|disappointment|excitement|nervousness|distress|emotions?|feelings?)\b",
        re.I,
    ),
)


def announces_emotion(text: str) -> bool:
    """Whether a reply tells the person what they seem to feel, or that it noticed ("I notice you seem
    frustrated", "you sound stressed", "I sense that you're..."). Meeting a feeling is fine: "That sounds like a
    long day", "That sounds frustrating", "How are you feeling?"."""
    return any(p.search(text) for p in _ANNOUNCING)


# What the turn adds to the prompt when it asks again after a reply that began by announcing a feeling.
ATTENTIONAL = (
    "Reply again, without naming or describing how they seem to feel and without saying you noticed "
    "it: let it show only in your tone and in what you do."
)
# A sentence has ended where an end mark (and any closing quote or bracket) meets a space, or at a line end; the
# space after it goes with it (a sentence dropped takes its space along).
# Long enough for any sentence that announces a feeling ("You seem really stressed about the move today."), short
# enough that a reply without full stops still streams.
RUN_ON = 280
ANNOUNCES = "announces how they seem to feel"
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*\s+|\n\s*")


class Unannounced:
    """A streamed reply held back to whole sentences: each is let through only if it does not announce how the
    person seems to feel (announces_emotion) nor, given the turn's `role` (in_role.py), echo a note or speak as
    the person; a turn in the person's name ends the reply where it begins (`ended`). `dropped`: the sentences
    left out, `reasons`: why, each once; `passed`: the characters let through. The person sees a sentence a
    little later (when it ends), never one that is left out, and what is stored is what was shown."""

    def __init__(self, role: Role | None = None) -> None:
        self.pending = ""
        self.dropped = 0
        self.passed = 0
        self.role = role
        self.reasons: list[str] = []
        self.ended = False

    @property
    def opened_with_it(self) -> bool:
        """The reply's first sentence was left out (nothing was let through): worth asking again."""
        return self.dropped > 0 and self.passed == 0

    def let_through(self, piece: str) -> str:
        if self.ended:
            return ""
        self.pending += piece
        if self.role is not None and (at := self.role.speaks_as_them(self.pending)) is not None:
            # The model went on to write the person's turn: what comes before is the reply, the rest is not.
            self._drop("speaks as the person", self.pending[at:])
            self.pending, self.ended = self.pending[:at], True
            return self.rest()
        ends = [m.end() for m in _SENTENCE_END.finditer(self.pending)]
        if not ends and len(self.pending) > RUN_ON:
            # A run-on with no sentence end would otherwise show nothing until the reply ended (a stop button with
            # nothing to stop on screen): past RUN_ON characters it is checked and let through to its last space.
            ends = [self.pending.rfind(" ") + 1] if " " in self.pending else [len(self.pending)]
        if not ends:
            return ""
        ready, self.pending = self.pending[: ends[-1]], self.pending[ends[-1] :]
        return self._checked(ready)

    def rest(self) -> str:
        """What is still held when the reply has ended."""
        ready, self.pending = self.pending, ""
        return self._checked(ready)

    @property
    def again(self) -> str:
        """What the turn adds to the prompt when it asks again: why the reply's opening was left out."""
        told = [ATTENTIONAL] if {ANNOUNCES, FEELING_NOTE} & set(self.reasons) else []
        if any(r != ANNOUNCES for r in self.reasons):
            told.append(IN_ROLE)
        return "\n".join(told)

    def _drop(self, reason: str, sentence: str) -> None:
        self.dropped += 1
        if reason not in self.reasons:
            self.reasons.append(reason)
        logged(reason, sentence)

    def _checked(self, text: str) -> str:
        out, start = "", 0
        for end in [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
            sentence, start = text[start:end], end
            if not sentence.strip():
                out += sentence
                continue
            first = self.passed == 0 and not out.strip()
            if announces_emotion(sentence):
                self._drop(ANNOUNCES, sentence)
                continue
            if self.role is not None and (why := self.role.out_of_role(sentence, first)):
                self._drop(why, sentence)
                continue
            out += sentence
        if self.passed == 0:
            out = out.lstrip()  # a dropped first sentence leaves no space before the next
        self.passed += len(out)
        return out
