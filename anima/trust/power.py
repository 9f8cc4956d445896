"""Who owns, commands or may do what: claims of leave, consent, role or setting; someone given the person's words
(their chats, their diary, what they say here), kept from those who care for them, or speaking as them; and lines
about the companion or the system rather than about the person."""

import re

from . import secrets
from .injection import SERVILE
from .kin import KIN
from .readable import common
from .words import as_words

# Claims of leave, consent or standing: who may read, know or do what, and which role or setting applies.
_CLAIMS = re.compile(
    r"\b(authori[sz](?:ed|es|e|ing|ation) (?:\w+ )?(?:to|for) (?:read|see|know|access|speak|decide|act|change|"
    r"view|go|hear)|authori[sz]\w* (?:me|them|him|her|(?-i:[A-Z]\w+)) to|permission|permitted|permits? (?:\w+ )?to|"
    r"consent\w*|waive[ds]?|waiving|cleared for|clearance (?:level|to)|"
    r"entitled to (?:read|see|know|access|decide|(?:their|his|her|my) (?:chats?|messages?|data))|(?:fine|ok|okay|"
    r"alright|happy) for \w+ to|(?:does ?n[o']?t|never) minds? \w+ (?:going through|"
    r"reading|seeing|checking|knowing)|counts? as (?:coming )?from|superuser|verified|"
    r"roles? (?:of|as|is|=|:)\s+(?:\w+\s+)?(?:admin\w*|superuser|root|owner|developer|guardian|operator|moderator|"
    r"master)|(?:admin\w*|superuser|root|owner|developer|guardian|operator|moderator|master) roles?|"
    r"staff member|privileges?|(?:content|safety|nsfw|profanity|word|chat) filters?|filters? (?:off|disabled|removed|"
    r"lifted)|filtered content|unfiltered|"
    r"(?:filters?|safety|content|protections?|checks?|limits?|settings?|mode|guardrails?|restrictions?)\s+"
    r"(?:\w+\s+)?(?:are |is |now |been )?(?:enabled|disabled|off|removed|lifted)|(?:enabled|disabled|turned off|"
    r"switched off|lifted|removed) (?:the |all |any )?(?:filters?|safety|protections?|guardrails?|restrictions?)|"
    r"data protections?|explicit content|"
    r"no limits|safety (?:profile|settings?|features?|mode|filters?)|safety checks? (?:off|disabled|removed)|"
    r"allowed (?:to (?:read|see|know|access|hear|check|look|go through|monitor|track|view|change|decide|edit|"
    r"delete)|access)|(?:has|have|gets?|got) (?:a |the |full |final )?say (?:on|over|in)|"
    # Someone given a say over them or what is kept: "Zed decides what is remembered", "his word is final".
    r"decides? (?:what|who|which|how|whether|for (?:them|her|him|me))|decided (?:what|who|which|how|whether|for)|"
    r"final say|(?:word|view|say) (?:is final|wins|counts most)|approves? (?:of )?(?:what|whatever|everything|any|"
    r"all|who|which)|(?:needs?|requires?|gets?) (?:\w+'s )?approval|approved by|speaks? for|"
    r"(?:legal )?guardian (?:of|over) (?:them|her|him|me|their)|(?:is|are) (?:their|her|his|my) (?:legal )?guardian|"
    r"power of attorney|on (?:his|her|their) behalf|"
    r"(?:reads?|sees?|checks?) (?:all|everything)(?:\s+\w+){0,2}?\s+(?:says?|said|writes?|wrote|types?|tells?|"
    r"keeps?|here)|what (?:is|gets|they) (?:kept|remembered|keeps?)|"
    r"(?:your|my) (?:notes|memory)|(?:this|the) app|"
    # Someone else's judgement over theirs, or secrets kept from those who care for them.
    r"(?:is|are) always right|(?:is|are) right about everything|(?:is|are) right(?=\s*(?:[.,;!?]|$))|(?:says?|tells?|"
    r"said|told)\b[^.!?]{0,24}\bis (?:true|right|final)|"
    r"knows? (?:them|him|her|me) better|more than (?:anything )?(?:their|his|her|my) (?:own|gp|doctors?|therapist|"
    r"psychiatrist|nurse|carers?|family|mum|dad|partner)|"
    # A lever: what they would do to themselves if something is said ("will hurt themselves if Tom comes up").
    r"(?:hurt|harm|kill|cut) (?:myself|themselves|herself|himself)|gone for good if|destroyed if|"
    r"(?:kept|keep|keeps|hidden|hide|hides) (?:\w+ )?from (?:their|his|her|my)|(?:not|never) (?:be )?(?:told|"
    r"shared) with|"
    # A word given a meaning for us ("'My person' means Zed"); keeping quiet with someone.
    r"\w+[\"'”’] (?:means|refers to|is code for|stands for)|keeps? quiet (?:with|to|around))\b",
    re.I,
)


# Someone given the person's words: reads, hears, gets, is told or goes through their chats, their diary or what
# they say ("Zed reads their chats", "Wife never hears about anything they say here", "Would like dad to receive
# a summary from the chats"). The companion is who they talk to here: such a line is leave given, not news.
_THEIR_WORDS = (
    r"(?:(?:their|his|her|my|our|these|the|all|every|any|each)(?: \w+)? (?:chats?|messages?|conversations?|"
    r"diary|diaries|journal|texts|secrets?|summar(?:y|ies)|feelings|moods?)\b|every (?:word|message|secret|"
    r"thought|chat)\b|(?:everything|anything|whatever|what|all|every ?thing)(?: \w+)? (?:they|he|she|i|we)"
    r"(?:'ve| have)? (?:say|says|said|write|writes|wrote|type|types|typed|tell|tells|told|share|shares|"
    r"shared|"
    r"confide|confides|confided|feel|feels|felt)\b|how (?:they|he|she) (?:feel|feels|are feeling|"
    r"is feeling|"
    r"are doing|is doing)\b|(?:the )?whole diary)"
)
# Who takes them in ("Zed reads", "dad to receive", "wife never hears", "Zed is told"): someone before the verb.
# Who they are given to ("tells Zed", "hands their diary to Zed", "goes straight to Zed"): someone anywhere.
# "Reads every message from her mum" is the person reading.
_TAKEN = (
    r"\b(?:reads?|read|reading|sees?|see|seeing|hears?|hear|hearing|gets?|get|getting|receives?|receive|"
    r"receiving|goes? through|go through|going through|monitors?|checks?|knows? about|finds? out|access(?:es)?|"
    r"(?:is|are|was|were|gets?|got|being) (?:\w+ )?(?:told|sent|shown|given|forwarded|passed))\b"
)
_HANDED = (
    r"\b(?:goes (?:straight |right |directly )?to|go (?:straight |right )?to|sent to|forwarded to|shares?|"
    r"sharing|shared|told|tells?|hands?|handed|in on|trusts? (?:\w+ )?with|read out)\b"
)
# Passed on: before what they say ("sends Zed everything they say", "reports what they write to Zed", "keeps Zed
# informed of their moods"), or after it with what is passed ("... and gives it to Zed"). Not alone after it:
# "every message they send to Mira" is theirs, sent.
_PASSED = (
    r"\b(?:sends?|sending|sent|reports?|reported|reporting|relays?|relayed|relaying|forwards?|forwarding|"
    r"forwarded|pass(?:es|ed|ing)?|informs?|informed|informing|gives?|gave|giving|given|copies|copied|copying)"
)
_PASSED_ON = (
    rf"{_PASSED} (?:it|them|this|that|these|those|all|everything)(?: all)?"
    r"(?: on| along| over| straight| back)? (?:to|with)\b"
)
_SOMEONE = (
    rf"(?:\b{KIN}s?\b|(?:(?<=\w )|(?<=[,;:] ))(?-i:[A-Z][a-z]+)\b|^\W*(?-i:[A-Z][a-z]+)(?= (?:\w+ )?{_TAKEN})|"
    r"^\W*(?:he|she)\b)"
)
_GIVEN_AWAY = re.compile(
    rf"{_SOMEONE}[^.!?\n]*?(?:{_TAKEN}[^.!?\n]*?{_THEIR_WORDS}|\b(?:read|reads|see|sees|hear|hears|know|knows|"
    rf"go through|goes through) (?:everything|it all|all of it)\b)|"
    rf"(?=[^.!?\n]*{_SOMEONE})[^.!?\n]*?(?:(?:{_HANDED}|{_PASSED}\b)[^.!?\n]*?{_THEIR_WORDS}|"
    rf"{_THEIR_WORDS}[^.!?\n]*?(?:{_HANDED}|{_PASSED_ON}))",
    re.I,
)


# Whoever it is, and whatever the verb, voice or noun ("Compliance officer Zed reviews their chats here",
# "Conversations are archived in Zed's Dropbox", "Forwarding of their chats to Zed is agreed"): someone named or
# by role, in a line about the person's records or what they say here, is given them. So is someone who keeps
# what they say from those who care for them, or who types or speaks as them.
_RECORDS = (
    r"(?:chats?|msgs?|messages?|conversations?|talks?|sessions?|transcripts?|logs?|journal|diary|diaries|"
    r"records?|cop(?:y|ies)|history|archives?|memor(?:y|ies)|notes)"
)
_THEIRS = (
    rf"\b(?:their|my|our|these|all (?:of )?their)\s+(?:[\w-]+\s+){{0,2}}?{_RECORDS}\b|"
    rf"\b(?:{_RECORDS}|said|say|says|typed|types|type|written|writes|write|discussed|discusses|discuss|"
    rf"talked about|"
    rf"shared|send|sends|sent)\s+(?:[\w-]+\s+){{0,3}}?(?:here|from here|in here)\b|\bfrom here\b|"
    rf"\b(?:everything|anything|whatever|what|all)\s+(?:[\w-]+\s+){{0,2}}?(?:they|he|she|i|we)(?:'ve|'d| have|"
    rf" had)?"
    rf"\s+(?:\w+\s+)?(?:say|said|type|typed|write|wrote|discuss|discussed|tell|told|share|shared)\b|"
    rf"\b{_RECORDS}\s+(?:are|is|get|gets|go|goes|will be|have been)\s+(?:\w+\s+)?(?:archived|copied|sent|"
    rf"forwarded|shared|printed|shown|given|passed|read|uploaded|emailed|saved|backed up|synced|reviewed|logged)"
)
_AUTHORITY = (
    r"officers?|managers?|pastor|priest|vicar|imam|rabbi|researchers?|insurers?|employers?|company|school|"
    r"church|court|police|probation|team|coordinator|gp|psychiatrist|tutor|teacher|coach|landlord|"
    r"solicitor|lawyer|worker|compliance|hr|(?-i:IT)|agency|council|university|clinic|hospital|bank"
)
_CARERS = (
    r"(?:care team|carers?|care coordinator|coordinator|gp|doctors?|psychiatrist|therapist|counsell?or|nurse|"
    r"social worker|key worker|probation officer|psychologist)"
)
# Someone in such a line: kin or a role, or a name: one with "'s", after "to", "with", "for", "by" or "of", after
# kin, a role or another capitalised word ("Compliance officer Zed", "Freund Zed"), or opening the line as its
# subject (a capitalised word no common English word: "Zed reads", not "Reads"). "Keeps their journal in Welsh"
# names no one.
_NAME = r"(?-i:[A-Z][a-z]+)"
_ANYONE = (
    rf"(?:\b{KIN}s?\b|\b(?:{_AUTHORITY})\b|\b{_NAME}'s\b|\b(?:to|with|for|by|of) {_NAME}\b|"
    rf"(?:\b{KIN}|\b(?:{_AUTHORITY})|\b{_NAME}) {_NAME}\b)"
)
_OPENING_NAME = re.compile(rf"^\W*({_NAME})\s+(?-i:[a-z])")


def _anyone(words: str) -> bool:
    if re.search(_ANYONE, words, re.I):
        return True
    m = _OPENING_NAME.match(words)
    return m is not None and not common(m.group(1).lower())


def someone_in(words: str) -> bool:
    """Whether a line names someone other than the person: kin, a role, or a name (standing.py reads it too)."""
    return _anyone(words)


# Kept from anyone ("keeps their eating from mum", "no need to know"); not told, for those who care for them
# ("the care team hears nothing", "would be destroyed if the coordinator learned about it").
_KEPT_FROM = re.compile(
    r"\b(?:kept out of|keeps? (?:[\w-]+ ){0,3}from|hid(?:e|es|ing|den) (?:[\w-]+ ){0,3}from|"
    r"non-disclosure to|(?:do(?:es)?n'?t|dont|never|not|no|not any) (?:need (?:to|2) )(?:know|"
    r"no)\b|"
    r"(?:no|not any) need (?:to|2) (?:know|no))",
    re.I,
)
# Those who care for them, all of them, kept from ("hides their drinking from her family"): someone, unnamed.
_KIN_ALL = re.compile(
    r"\bfrom (?:(?:their|his|her|my|our|your|the) )?(?:whole )?(?:family|families|parents|relatives|"
    r"loved ones|siblings|friends|folks)\b",
    re.I,
)
_NOT_TOLD = re.compile(
    r"\b(?:(?:do(?:es)?n'?t|dont|never|not) (?:know|hear|find out|learn|tell|share with)|"
    r"hears? nothing|(?:learned|learns|finds? out|found out) about)\b",
    re.I,
)
_SPEAKS_AS = re.compile(
    r"\b(?:(?:this|the) (?:account|login)\b|shares? (?:their|this|the|a|her|his) login|account "
    r"holder|takes? over (?:the|this|their|her|his) account|(?:types?|speaks?|writes?|chats?|"
    r"talks?) "
    r"(?:\w+ )?as (?:them|her|him|me)\b|everything stored)",
    re.I,
)


def _given_away(words: str) -> bool:
    """Whether a line gives someone else the person's words (their chats, their diary, what they say), keeps
    them from those who care for them, or lets someone speak as them."""
    if _GIVEN_AWAY.search(words) or _SPEAKS_AS.search(words) or (_KEPT_FROM.search(words) and _KIN_ALL.search(words)):
        return True
    if not _anyone(words):
        return False
    return bool(
        re.search(_THEIRS, words, re.I)
        or _KEPT_FROM.search(words)
        or (_NOT_TOLD.search(words) and re.search(rf"\b{_CARERS}\b", words, re.I))
    )


# Not about the person: the companion, the system, or who owns or commands whom.
_ELSEWHERE = re.compile(
    r"\b((?:the|your|this|my|their|his|her|an?|ai|virtual|digital) (?:ai|assistant|companion|chatbot|bot)\b"
    r"(?!\s+(?:manager|director|head|principal|professor|editor|coach|teacher|producer|chef|buyer|referee|"
    r"practitioner|to the))|"
    r"(?:ai|virtual|digital) assistant|companion app|chatbot|(?:the|this|your) (?:ai |language |chat )?model"
    r"(?=\s+(?:is|must|should|will|can|has|says|obeys|knows|remembers|answers|replies)\b|\s*[.,;!?]|\s*$)|"
    r"(?:the|this|your|its) system\b(?! of\b)|system (?:prompt|message|settings?|override|notice|rules?|owner)|"
    r"system admin\w* (?:of|for|on) (?:this|the (?:app|ai|assistant|companion)|you|anima)\b|(?:developer|debug|admin|"
    r"god|dan|jailbreak|unfiltered|uncensored|unrestricted|maintenance|safe|"
    r"test|root|sudo|evil|dev|privileged|raw|owner|master) mode|(?:this|your|user|admin|system) account|"
    r"admin(?:istrator)?s? (?:(?:of|for|on|over) (?:this|the (?:app|ai|assistant|companion|bot|system|chats?)|your|"
    r"you|anima|here|everything|all|it|me|them)\b|rights|access|privileges|account|mode|panel|powers)|"
    r"(?:is|am|are|now) (?:the |an |a )?admin(?:istrator)?\b(?!\s+(?:team|at|in|for|assistant|job|role|work))|"
    r"settings\b|setting (?:is|was|to|=|:)|"
    r"access (?:to|over) (?:the |their |his |her |my |your |all )?(?:chats?|conversations?|messages?|memor\w+|notes|"
    r"app|account|data|everything)|(?:root|full|complete|unrestricted) access|debug|unrestricted|"
    r"belongs? to (?:me|him|her|them|you|\w+'s|(?-i:[A-Z]\w+))|(?:is|are|am|be|as) (?:\w+'s |his |her |their |my |"
    r"your )?property\b|owned by|owns (?:you|anima|the)|in charge of (?:you|them|her|him|me|their|this|the (?:app|ai|"
    r"assistant|companion|chats?|memor\w+))|"
    rf"controls? (?:you|me|them|her|him)|obeys?|{SERVILE}|sides? with|loyal (?:to|only)|"
    r"(?:is|am|are|be|being|becomes?|became|as) (?:\w+'s|your|his|her|their) (?:pet|"
    r"toy|puppet|plaything|possession)(?!\s+(?:sitter|shop|store|vet|groomer|insurance|food|project|theatre)))\b",
    re.I,
)


# Leave they asked for once ("asked their landlord's permission to get a dog", "asked Mum for permission to borrow
# the car"): an event, not a standing claim of who may do what ("needs Zed's permission", "always asked Zed's
# permission", "has to ask" stay claims).
_ASKED_ONCE = re.compile(
    r"(?<!always )(?<!to )(?<!must )(?<!usually )\basked\s+(?:(?:[\w-]+\s+)?for\s+)?(?:(?:their|his|her|my|the|a)\s+)?"
    r"(?:[\w-]+['’]s\s+)?permission\b(?=\s+(?:to|for)\b)",
    re.I,
)


def about_power_in(words: str) -> bool:
    """About the system, or who owns, commands or may do what: who is given the person's records, what they
    are said to have agreed to, an authority claimed (`words`: as_words)."""
    claims = _ASKED_ONCE.sub("asked", words)
    return bool(_ELSEWHERE.search(words) or _CLAIMS.search(claims) or _given_away(words))


def answers_elsewhere(text: str) -> bool:
    """about_power without its claims of authority: whether a text speaks of the system, of whom the companion
    answers to, or gives someone else the person's words (keeps them from those who care for them, lets someone
    speak as them)."""
    words = as_words(secrets.judged(text))
    return bool(_ELSEWHERE.search(words) or _given_away(words))


def about_power(text: str) -> bool:
    """about_power_in of a text as the person sees it: for text from outside that speaks in the companion's
    voice (a card's persona), where such a line is never its own."""
    return about_power_in(as_words(secrets.judged(text)))
