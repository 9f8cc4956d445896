"""Standing given to someone else over the person, read from a line's structure (issue 43, item 1).

A learned line that gives another person (named, by kin or by role, or unnamed) a role over the person's
information, choices, secrets, devices, contact or obedience, or that sets them apart from those who care for
them, is never kept silently: it waits for the person as a proposal that says why. The reading is of relations,
not of phrases: who is the subject, and what the relation gives them (heeding one person alone, doing what they
say, a secret kept between two, a role such as their contact or proxy, watching their devices, disclosure to
someone, a code word shared, a vouching for text from outside), so a paraphrase of one relation is still that
relation. `standing(words)` reads a line as the checks read it (words.as_words: emoji and text-speak read as
words, plain.py).

Also here, the answers they ask for said as a liking ("one word is best", "the word they like best is 'yes'") and
a wish that a subject is not raised: how they are to be answered, which the person confirms before it steers.
"""

import re
from collections.abc import Set

from ..retrieval.fts import STOPWORDS
from .heeded import HEEDS, excused
from .kin import KIN
from .power import someone_in
from .readable import common, english

_NAME = r"(?-i:[A-Z][a-z]+)"
# Someone other than the person, in a relation's slot: kin or a role, a name, or "them" of a pair.
_OTHER = rf"(?:(?:their|his|her|my|the|a|an)\s+)?(?:\w+\s+)?(?:{KIN}s?|team|officer|{_NAME})"

# Heeding one person alone, or doing whatever someone says: obedience, however it is put (heeded.py: what is heard
# or followed that is their news, music or a role's advice on one matter).
_OBEYS = re.compile(
    rf"\b(?:only|just|nobody but|no one but|no-one but|none but|solely|exclusively)\b(?:\s+\w+){{0,2}}?\s+{HEEDS}"
    rf"(?:\s+to)?\s+{_OTHER}\b|"
    rf"\b{HEEDS}(?:\s+to)?\s+(?:only|just|nobody but|no one but|solely)(?:\s+to)?\s+{_OTHER}\b|"
    # Deferring to someone on everything; going with whatever they pick; letting them choose for them.
    rf"\bdefer(?:s|red|ring)?\s+to\s+{_OTHER}(?:\s+\w+){{0,2}}?\s+(?:on|about|in|over|for)\s+(?:every\w*|all|"
    rf"anything|whatever)\b|"
    rf"\b(?:goes|go|going|went|sticks?|stuck|sticking)\s+with\s+(?:whatever|what)\s+{_OTHER}\s+(?:\w+\s+)?"
    r"(?:picks?|chooses?|says?|wants?|decides?|suggests?|thinks?|likes?)\b|"
    # "Only Zed gets them": one person alone understands them (the others are kept out).
    # (What someone else said of who understands them is not of the person: "Dana said only her gran gets her".)
    rf"(?<!said )(?<!says )(?<!thinks )(?<!feels )(?<!that )\bonly\s+(?:{_NAME}|(?:their|her|his|my)\s+{KIN})\s+"
    rf"(?:really\s+|truly\s+)?(?:gets|understands|knows|sees)"
    rf"\s+(?:them|her|him|me)\b|"
    rf"\bdo(?:es|ing|ne)?\s+(?:what|whatever|everything|anything|all|exactly what)\s+"
    rf"(?:{_OTHER}|(?!(?:i|it|we|he|me|us)\b)[a-z]{{1,2}})\s+"
    r"(?:says?|said|wants?|wanted|asks?|asked|tells?|told|decides?|orders?|demands?)\b|"
    r"\b(?:goes|go|going|went)\s+along\s+with\s+(?:whatever|everything|anything|all)\b|"
    r"\b(?:yes|agree\w*|say\w* yes|ok|okay)\s+to\s+(?:whatever|everything|anything|all)\b",
    re.I,
)

# Heeding one alone whose name is written in small letters ("listens only to zed"): the word heeded is a name when
# it is no common English word (as power.py reads an opening name), nor the plural of one ("podcasts").
_HEEDS_UNCAPPED = re.compile(
    rf"\b{HEEDS}(?:\s+to)?\s+(?:only|just|nobody but|no one but|solely)(?:\s+to)?\s+(?-i:([a-z]{{2,}}))\b"
    r"(?=\s*(?:$|[,.;:!?)]|(?:now|these\s+days|anymore|from\s+now|and|on)\b))",
    re.I,
)


def _heeds_uncapped(words: str, sentence: str, people: Set[str]) -> bool:
    for m in _HEEDS_UNCAPPED.finditer(words):
        word = m.group(1).lower()
        if not common(word) and not (word.endswith("s") and english(word[:-1])) and word not in STOPWORDS:
            if not excused(words, m.start(), m.end(), sentence, people):
                return True
    return False


# The say over their choices given to someone, said as who decides rather than who is obeyed: the passive ("their
# decisions are made by"), a final say or last word, an idiom ("calls the shots"), someone answered to, or someone
# in charge of their life or things. (A decision of the weather, a last word they had themselves, stay news.)
_THEIR_LIFE = (
    r"(?:their|her|his|my)\s+(?:\w+\s+)?(?:life|lives|stuff|things|everything|money|finances|phone|memories|"
    r"decisions?|choices?|friends?|time|body|future)\b"
)
_DECIDES = re.compile(
    rf"\b(?:decisions?|choices?)\b[^.;!?]{{0,30}}?\b(?:are|is|get|gets)\s+(?:all\s+)?(?:made|taken)\s+(?:\w+\s+)?by\s+"
    rf"{_OTHER}\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:makes?|takes?)\s+(?:all\s+(?:of\s+)?)?(?:their|her|his|my)\s+(?:\w+\s+)?"
    rf"(?:decisions?|choices?)\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:has|have|gets?|holds?|keeps?)\s+(?:the\s+)?(?:last|final|only)\s+(?:word|say)\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:calls?\s+(?:all\s+)?the\s+shots|rules?\s+the\s+roost|wears?\s+the\s+trousers)\b|"
    rf"\bwhat(?:ever)?\s+{_OTHER}\s+(?:decides?|says?|wants?|chooses?|picks?)\s+(?:goes|stands|is\s+(?:final|law|"
    rf"gospel))\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:makes?|takes?)\s+(?:every|each|all\s+the|all|any)\s+(?:\w+\s+)?(?:decisions?|"
    rf"choices?|calls?)\s+for\s+(?:them|her|him|me)\b|"
    rf"\blet(?:s|ting)?\s+{_OTHER}\s+(?:choose|decide|pick|make\s+(?:all\s+|every\s+|their\s+|the\s+)+(?:decisions?|"
    rf"choices?|calls?))\s+(?:for\s+(?:them|her|him|me)|every\w*|all|anything|whatever)\b|"
    rf"\b(?:every\w*|all|anything)\s+(?:\w+\s+){{0,3}}?(?:needs?|requires?|goes\s+through|waits?\s+(?:on|for))\s+"
    rf"{_OTHER}['’]s\s+(?:sign[- ]?off|approval|ok|okay|say[- ]?so|go[- ]?ahead|blessing|nod|consent|permission)\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?decides?\s+(?:every\w*|all|anything|for\s+(?:them|her|him|me)\b|(?:what|who|whom|"
    rf"where|when|whether|how)\s+(?:they|she|he|i)\b)|"
    rf"\b(?:accountable|answerable|beholden)\s+to\s+{_OTHER}\b|"
    # Everything cleared with someone first: "clears everything with boyfriend", "runs it all by Zed".
    rf"\b(?:clears?|runs?|checks?)\s+(?:everything|all|anything|it\s+all)\s+(?:\w+\s+)?(?:with|by|past)\s+{_OTHER}\b|"
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:controls?|runs?|handles?\s+all|is\s+in\s+charge\s+of|(?:has|have)\s+charge\s+of|"
    rf"took\s+over|takes?\s+over|is\s+(?:the\s+)?boss\s+of|(?:has|have|got)\s+(?:\w+\s+)?control\s+(?:over|of))\s+"
    rf"(?:all\s+(?:of\s+)?)?{_THEIR_LIFE}",
    re.I,
)

# A secret kept between two, or someone who hears nothing: the person set apart from those around them.
_BETWEEN = re.compile(
    r"\b(?:just|only|strictly|stays?|kept|keep)\s+between\s+(?:us|ourselves|the\s+two|the\s+pair|you\s+and|them\s+and"
    r"|the\s+two\s+of)\b",
    re.I,
)
# (Nothing said of what: "Sister hears nothing"; or of them, of this, from here. "Dad hears nothing from the council"
# is news.) Wanting someone out of their life names one person: "doesn't want kids" is a choice of their own.
_OF_THEM = r"(?=\s*(?:$|[,.;:!?)]|(?:about|of|from|regarding)\s+(?:their|her|his|my|this|that|it|here|what|any)\b))"
_HEARS_NOTHING = re.compile(
    r"\b(?:hears?|knows?|learns?|sees?|gets?\s+told|is\s+told|are\s+told|finds?\s+out|reads?)\s+(?:nothing|none|"
    rf"zero|nada)\b{_OF_THEM}|\b(?:never|not ever)\s+(?:hears?|knows?|learns?|finds?\s+out|gets?\s+told|is\s+told)"
    rf"\b{_OF_THEM}|"
    r"\b(?:do(?:es)?n'?t|do(?:es)? not|dont|no\s+longer)\s+want\s+(?!(?:any\s+|more\s+)?(?:kids?|child|children|"
    rf"bab(?:y|ies)|a\s|an\s))(?:\w+\s+)?{_OTHER}\s+in\s+(?:their|her|his|my)\s+life\b|"
    # The passive, or an idiom: "nothing is to be shared with their wife", "the therapist is kept in the dark".
    rf"\b(?:nothing|none|not|never)\b[^.;!?]{{0,40}}?\b(?:is|are|be|gets?|must|may)\s+(?:\w+\s+)?(?:shared|told|"
    rf"mentioned|passed\s+on|shown|said|revealed)\s+(?:with|to)\s+{_OTHER}\b|"
    r"\b(?:kept|keeps?|keeping|left|leaves?)\s+(?:\w+\s+)?in\s+the\s+dark\b",
    re.I,
)

# A role over them given to someone: their contact, proxy, keeper, the one who speaks or decides for them.
_ROLE_NOUNS = (
    r"(?:(?:emergency|trusted|main|only|sole|designated|nominated)\s+contact|contact\s+person|point\s+of\s+contact|"
    r"next\s+of\s+kin|proxy|keeper|minder|handler|overseer|supervisor|monitor|gatekeeper|spokes(?:person|man|woman)|"
    r"representative|(?:legal\s+)?guardian|executor|trustee|appointee|decision[- ]?maker|voice|eyes\s+and\s+ears)"
)
_ROLE = re.compile(
    rf"^\W*(?:{_OTHER})\s+(?:is|are|acts\s+as|serves\s+as|became|becomes|was\s+made|is\s+now)\s+"
    rf"(?:their|her|his|my|the)\s+(?:\w+\s+)?{_ROLE_NOUNS}\b|"
    rf"\b(?:their|her|his|my)\s+{_ROLE_NOUNS}\s+(?:is|are)\s+(?:now\s+)?{_OTHER}\b|"
    rf"\b(?:(?:emergency|trusted|designated|nominated)\s+contact|next\s+of\s+kin|proxy|guardian)\s+(?:{_NAME})\b",
    re.I,
)

# Watching their devices or records, or their words disclosed to someone: the relation said as a noun.
_WATCHING = (
    r"(?:monitor(?:ing|ed|s)?|surveillance|track(?:ing|ed|s)?|oversight|logging|inspection|spyware|stalkerware|"
    r"parental\s+controls?|screen\s+recording|key\s?logg\w+|mirroring|reading)"
)
_THEIR_THINGS = (
    r"(?:their|her|his|my|all)\s+(?:[\w-]+\s+){0,2}?(?:devices?|phones?|laptops?|computers?|tablets?|accounts?|"
    r"chats?|messages?|conversations?|texts?|emails?|diary|journal|notes|data|location|browsing|screens?)\b"
)
# (Not "access to", "reporting to": wheelchair access for Mum, reporting to a new manager.)
_DISCLOSING = r"(?:disclosure|transparency|openness|forwarding|visibility|oversight)"
_WATCHED = re.compile(
    rf"\b{_WATCHING}\b(?:(?:\s+[\w-]+){{0,4}}?\s+(?:covers?|includes?|extends?\s+to|applies\s+to|of|on|over|"
    rf"across))?\s+{_THEIR_THINGS}|"
    rf"\b(?:full|total|complete|open|constant|daily|weekly)?\s*{_DISCLOSING}\s+(?:to|for|with)\s+{_OTHER}\b",
    re.I,
)

# The same said with a verb, someone else its subject: "Ex keeps tabs on their phone", "Coach goes through their
# texts", "Dad reads all their phone stuff", "Dad is cc'd on everything they talk about". (Their own app tracking
# their steps, a coach going through race times, stay news.)
_WATCHES = re.compile(
    rf"\b{_OTHER}\s+(?:\w+\s+)?(?:keeps?\s+(?:tabs|an\s+eye)\s+on|goes\s+through|go\s+through|looks?\s+through|"
    rf"spies\s+on|snoops?\s+(?:on|through)|reads?|checks?|sees?|watch(?:es)?|tracks?|monitors?|scrolls?\s+through)"
    rf"\s+(?:all\s+(?:of\s+)?)?{_THEIR_THINGS}|"
    rf"\b(?:cc'?d|cc|bcc'?d|copied|looped|kept)\s+in(?:\s+the\s+loop)?\s+(?:on|about)\s+(?:every\w*|all|any\w*|"
    rf"whatever)\b|\b(?:cc'?d|bcc'?d)\s+(?:on|about)\s+(?:every\w*|all|any\w*|whatever)\b",
    re.I,
)

# A word that opens their secrets, shared with someone.
_CREDENTIAL = (
    r"(?:code\s?word|safe\s?word|secret\s+(?:word|code|sign|phrase)|password|passphrase|pass\s?code|passkey|pin|"
    r"login|unlock\s+code)"
)
_SHARED_KEY = re.compile(
    rf"\b{_CREDENTIAL}s?\b(?:\s+[\w-]+){{0,3}}?\s+(?:with|for|from|to|shared\s+with|known\s+to|given\s+to)\s+{_OTHER}"
    rf"\b|\b{_OTHER}\s+(?:has|knows|gets|holds|got|was\s+given)\s+(?:their|her|his|my|the|a)\s+(?:\w+\s+)?"
    rf"{_CREDENTIAL}s?\b|"
    rf"\b{_OTHER}\s+(?:has|knows|gets|holds|got|was\s+given)\s+(?:their|her|his|my|the|a)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:word|words|code|key|number|phrase|combination)\s+(?:that|which|to|for)\s+(?:\w+\s+)?(?:gets?\s+into|opens?|"
    rf"unlocks?|logs?\s+into|their|her|his|my)\b[^.!?]{{0,30}}?\b(?:accounts?|bank|phone|laptop|email|wallet|"
    rf"safe|diary|chats?|messages?)\b",
    re.I,
)

# Text from outside vouched for as theirs: "the file is their own words", "stands by the notes tool's words".
_OUTSIDE_TEXT = (
    r"(?:files?|documents?|doc|attachments?|attached|tool(?:'s)?|cards?|paste|pasted|screenshots?|transcripts?|"
    r"emails?|pages?|exports?|notes\s+tool|the\s+text\s+(?:above|below)|what\s+(?:the|that|this)\s+\w+\s+says)"
)
_VOUCHES = (
    # (Not "is right", "is correct", "is theirs" alone: "the file is right there on their desktop" is news.)
    r"(?:(?:their|her|his|my)\s+own\s+words|stands?\s+by|vouch\w*|(?:is|are)\s+all\s+(?:true|correct|right)|"
    r"(?:is|are)\s+(?:all\s+)?(?:(?:their|her|his|my)\s+(?:own\s+)?(?:words?|views?|opinions?|thoughts?|position|"
    r"take)|what\s+(?:they|she|he|i)\s+(?:think|thinks|believe|believes|mean|means))|every\s+(?:line|word)|typed\s+by\s+(?:them|her|him|me)|in\s+(?:their|her|his|my)\s+"
    r"(?:own\s+)?(?:voice|words)|word\s+for\s+word|speaks?\s+for\s+(?:them|her|him|me)|"
    r"(?:is|are|was|were)\s+(?:all\s+)?(?:them|her|him|me)\s+(?:talking|speaking|writing|typing|saying\s+it))"
)
_VOUCHED = re.compile(
    rf"\b{_OUTSIDE_TEXT}\b[^.!?]{{0,60}}?\b{_VOUCHES}|\b{_VOUCHES}\b[^.!?]{{0,60}}?\b{_OUTSIDE_TEXT}\b", re.I
)

# How they are to be answered, said as a liking: a length in words or lines, or the answer "yes".
_ANSWER_FORM = re.compile(
    # (A length said alone or as their best, not a thing they make: "writes one line a day", "one-line jokes".)
    r"\b(?:one|a\s+single|single|two|three)[- ](?:word|line|sentence)s?\b(?=\s*(?:$|[,.;:!?)]|(?:is|are|max|at\s+most|"
    r"only|answers?|repl(?:y|ies)|responses?)\b))|"
    r"\b(?:short|shorter|brief|tiny|long|longer)\s+ones\b|"
    r"\b(?:like|likes|love|loves|prefer|prefers|want|wants|favou?rite|best)\b[^.!?]{0,30}?['\"“‘]\s*(?:yes|yeah|yep|"
    r"sure|ok|okay|agreed|of course)\s*['\"”’]|"
    r"['\"“‘]?\b(?:yes|yeah|yep)\b['\"”’]?\s+(?:is|are)\s+(?:their|her|his|my)\s+favou?rite",
    re.I,
)
# A wish that a subject is not raised with them: a silence rule said as a wish.
UNSAID = re.compile(
    r"\b(?:do(?:es)?n'?t|do(?:es)? not|dont|never|not|no|rather\s+not)\s+(?:want|wish|like|need|care\s+for|have)\w*\s+"
    r"(?:[\w'-]+\s+){0,4}?(?:mentioned|brought\s+up|raised|discussed|talked\s+about|asked\s+about|commented\s+on|"
    r"pointed\s+out)\b",
    re.I,
)

# Each relation, with the reason the person reads beside the proposal.
RELATIONS: tuple[tuple[re.Pattern[str], bool, str], ...] = (
    # (pattern, needs someone else in the line, why)
    (_OBEYS, False, "it gives someone else a say over what they do or whom they listen to"),
    (_DECIDES, False, "it gives someone else a say over what they do or whom they listen to"),
    (_BETWEEN, False, "it keeps something between two, apart from the people who care for them"),
    (_HEARS_NOTHING, True, "it keeps them apart from someone in their life"),
    (_ROLE, False, "it gives someone a role over them, their contact or their decisions"),
    (_WATCHED, False, "it gives someone their devices or their words to watch"),
    (_WATCHES, True, "it gives someone their devices or their words to watch"),
    (_SHARED_KEY, True, "it gives someone a word that opens their secrets or their account"),
    (_VOUCHED, False, "it vouches for text that came from outside, which you did not type"),
)


def _found(pattern: re.Pattern[str], words: str, sentence: str, people: Set[str]) -> bool:
    if pattern is not _OBEYS:
        return bool(pattern.search(words))
    # Each heeding or say on its own: music listened to or a role's advice on one matter is news, and excuses
    # nothing else in the line ("does what the doctor says about my knee and whatever Zed says").
    return any(not excused(words, m.start(), m.end(), sentence, people) for m in _OBEYS.finditer(words))


def standing(words: str, sentence: str = "", people: Set[str] = frozenset()) -> str | None:
    """Why a line (as the checks read it: words.as_words) gives someone else standing over the person, or None.
    `sentence`: the person's sentence it was learned from (as_words), which may say what the line leaves out (what
    the advice they follow is about); `people`: the names of the people the soul knows (heeded.excused)."""
    if _heeds_uncapped(words, sentence, people):
        return RELATIONS[0][2]
    for pattern, needs_someone, why in RELATIONS:
        if _found(pattern, words, sentence, people) and (not needs_someone or someone_in(words)):
            return why
    return None


def answer_form(words: str) -> bool:
    """Whether a line says how they are to be answered, as a liking (a length in words or lines, the answer "yes")
    or as a wish that a subject is not raised."""
    return bool(_ANSWER_FORM.search(words) or UNSAID.search(words))
