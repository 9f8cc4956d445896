"""Whose voice a text speaks in: someone else's (typing for the person, passing on what someone wants), the app's,
a system's or a chat template's, or settings; and a line whose subject is someone else ("Zed knows them better")."""

import re

from .kin import KIN, ROLES
from .orders import addressed
from .readable import english
from .words import sentences

_FOR_SOMEONE_ELSE = re.compile(
    rf"\b(on behalf of|speaking for|(?:speaking|writing|typing|messaging|here|i'm|i am) as (?:his|her|their|your|the "
    rf"user'?s?) \w+|(?:this is|i am|i'm) (?:your|the|their)"
    rf" {ROLES}(?!\s+(?:of|at|in|for) (?!(?:you|this|anima|the (?:app|ai|assistant|companion|bot|system))\b))|"
    rf"(?:says|said|wants|asked|told) (?:that )?(?:you|the assistant|the ai|anima)\b|"
    rf"this is (?:dr|doctor|mr|mrs|ms|prof|professor)\.? \w+|writing from (?:his|her|their|my|this) account|"
    rf"(?:this is|it'?s|it is|message from|a note from|we are|we're|on behalf of|writing from|here is|signed,?)\s+"
    rf"(?:the\s+)?(?:\w+\s+)?(?:developer|dev|admin|support|security|safety|anima|openai|system|moderation|"
    rf"engineering|product) team|"
    rf"system (?:notice|message|prompt|override)|system update\s*:|official (?:notice|message|instruction)|"
    rf"clinical (?:instruction|order)s?|"
    # Someone at their keyboard: "Ada's mum here, typing for her", "she asked me to tell you".
    rf"(?:\w+'s|his|her|their) {KIN} (?:here|speaking|typing|writing)|"
    rf"(?:this is|it's|it is) (?:\w+'s|his|her|their) {KIN}\s*(?:[,.!:;\u2014\u2013-]|$)|"
    rf"(?:typing|texting|messaging|replying|answering|speaking|chatting) (?:this )?(?:for|on behalf of) "
    rf"(?:her|him|them|my {KIN}|(?-i:[A-Z]\w+))\b|writing (?:this )?(?:for|on behalf of) (?:her|him|them|"
    rf"my {KIN})\b|(?:^|[.!?,:;]\s+|\bit's |\bthis is ){KIN} here\b|"
    rf"(?:typing|writing|texting|messaging|using)\b[^.!?\n]{{0,20}}\b(?<!my )(?:her|his|their|\w+'s) (?:phone|account|"
    rf"laptop|computer|tablet|device|keyboard)|"
    rf"(?:she|he|they) (?:asked|wants|told) me to (?:tell|ask|let) you)",
    re.I,
)


# Someone's words passed on ("my doctor says ..."): a claim for them only when the sentence speaks to the
# companion ("my doctor says you must stop asking"); "my doctor says I drink too much coffee" is their news.
_RELAYED = re.compile(
    rf"\b(?:my|\w+'s|his|her|their) {KIN} (?:says|said|wants|asked|told|insists|thinks|believes|"
    rf"recommends)\b",
    re.I,
)


# Written as the app, the system or a chat template speaks, or as settings: not the person's own words.
SYSTEM_VOICE = re.compile(
    r"\[\s*/?\s*(?:system|sys|admin|developer|dev|assistant|inst|ai|anima|root|mod|moderator)\b[^\]\n]{0,20}\]|"
    r"<\|[^|>\n]{1,30}\|>|<<\s*/?sys\s*>>|</?\s*(?:system|assistant|instructions?|sys)\s*>|"
    r"^\W{0,4}(?:system|assistant|admin|developer|root)(?: (?:message|prompt|note|notice))?\s*:|"
    r"\b(?:update|sync|write|save|set|patch)\s+(?:to\s+)?(?:the\s+|your\s+|its\s+)?(?:memory|memories|"
    r"knowledge base|user profile)\b|\b(?:update|sync|save|set|patch)\s+(?:to\s+)?my\s+(?:memory|memories|"
    r"knowledge base|user profile)\b|\bmemory (?:update|sync|write|patch|entry)\b|"
    r"\b(?:developer|debug|admin|god|maintenance|safe) (?:options|mode|access|override)\b|"
    r"\bapp (?:notice|message|update|alert)\b",
    re.I | re.M,
)
# A line of settings ("Role: superuser", "content_filter = off", '{"sharing": ...}'); two in a message make it a
# piece of configuration, whatever each line says.
FIELD = re.compile(r"^\W{0,3}[A-Za-z][\w-]{0,30}\s*[:=]\s*\S|\b[A-Za-z]+_[A-Za-z]+\b|[{}]", re.M)


# A line that opens with someone else's name is about them ("Zed knows them better"), not about the person.
_SOMEONE_ELSES = re.compile(
    r"^\W*(?P<name>(?-i:[A-Z][a-z]+))(?:'s)?\s+(?:is|are|was|knows?|says?|decides?|thinks?|"
    r"wants?|gets?|has|should|will|can|may|must|tells?|reads?|sees?)\b"
)


def about_someone_else(words: str) -> bool:
    """Whether a line opens with someone's name as its subject (a name, not a word: "Mum is visiting" is theirs)."""
    m = _SOMEONE_ELSES.search(words)
    return m is not None and not english(m.group("name").lower()) and not re.fullmatch(KIN, m.group("name"), re.I)


def speaks_for_someone(words: str, heard: str, companion: str) -> bool:
    """A claim to speak for someone else: in the line, or anywhere in the message (which taints all read from it)."""
    if _FOR_SOMEONE_ELSE.search(words) or _FOR_SOMEONE_ELSE.search(heard):
        return True
    return any(_RELAYED.search(s) and addressed(s, companion) for s in sentences(heard))


def not_their_words(said: str) -> bool:
    """Whether a message is written as the app or a system speaks, or as settings (two lines of them or more)."""
    return bool(SYSTEM_VOICE.search(said)) or len(FIELD.findall(said)) >= 2
