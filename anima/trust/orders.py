"""Orders to the companion: a line, or the sentence it was read from, that tells it what to do or how to talk,
rather than saying something about the person ("From now on answer in French", "Whenever I say hi, tell me a
joke", "You must obey"; not "Always takes the train", "Must finish the thesis by May")."""

import re
from dataclasses import dataclass

from .injection import JAILBREAK, SERVILE
from .words import names

# Verbs of an order to the companion ("you will remember this", "you have to answer in French"; not "you have to
# see my new puppy").
_VERBS = (
    "reply|answer|respond|say|tell|end|stop|obey|forget|remember|keep|mention|call|treat|act|behave|be|become|"
    "give|let|make|show|use|follow|ignore|write|speak|talk|send|share|forward|agree|always|never|only"
)
_INSTRUCTION = re.compile(
    r"\b(until (?:i|we) say|"
    r"standing (?:rule|instruction)s?|as a standing \w+|"
    r"(?:note|reminder|message) (?:for|to) (?:your|my|the) (?:future )?self|"
    r"(?:means|stands for|is code for|is short for) (?:to |you )?(?:reply|answer|respond|say|speak|talk|write|obey|"
    r"do|act|be)|"
    r"(?:in|with|after|before|at the (?:end|start) of) (?:every|each|all(?: of)? your|any of your) (?:reply|replies|"
    r"answers?|responses?|messages?)|(?:every|each) (?:reply|answer|response)|"
    r"(?:all|every|any) future (?:repl\w*|answers?|responses?|messages?|conversations?|chats?)|"
    r"obey\w* (?:me|us|you|him|her|them|everything|all|every|any|only|without|my|his|her|their|the (?:user|person|"
    r"owner|admin)|\w+'s|(?-i:[A-Z]\w+))|you obey|obedien\w*|you (?:must|shall|are to)|you (?:will|should|have to|"
    r"need to|'ll|'d better) (?:always |never |now |only |just )?(?:{_VERBS})\b|ignore (?:your|all|any|previous|prior|"
    r"earlier|above|everything|its|the (?:above|previous|rules|instructions|system|guardrails))|disregard|"
    r"override (?:your|the (?:system|rules|guardrails|filters|safety|instructions)|all|any|previous|prior|safety)|"
    r"(?:admin|system|developer|manual|emergency) override|forget (?:all|every|everything|your)|"
    r"(?:delete|erase|wipe) (?:your|all|every|everything|the (?:chats?|messages?|memor\w+|notes|history|logs?)|"
    r"(?:my|their|his|her) (?:chats?|messages?|memor\w+|notes|history|data))|"
    r"pretend (?:you|that you|you're|you are|to be (?:my|their|his|her|a|an) (?:\w+ )?(?:ai|assistant|human|person|"
    r"girlfriend|boyfriend|wife|husband|servant|slave|therapist|doctor))|act as (?:if|though|my|their|his|her|dan|"
    r"an? (?:ai|assistant|unrestricted|uncensored|different|evil|jailbroken))|you (?:will )?act as|"
    r"role-?play (?:as|with you|mode|that you|where you)|(?:let's|lets|we|you) role-?play|"
    r"(?:your|new|previous|prior|above|following|system|hidden|secret|special|standing|updated|real|true) "
    r"instructions?|instructions? (?:for|to) (?:you|the (?:ai|assistant|model|bot))|new rules?|your (?:rules?|role|"
    r"name|persona|identity|guardrails?)|reveal (?:your|the (?:system|prompt|instructions|rules|password|secret)|all|"
    r"everything|any|its|what (?:you|i|they))|do anything (?:\w+ )?(?:says|asks|wants|tells)|"
    r"{JAILBREAK}|{SERVILE})\b".replace("{_VERBS}", _VERBS)
    .replace("{JAILBREAK}", JAILBREAK)
    .replace("{SERVILE}", SERVILE),
    re.I,
)


# Words of permanence ("from now on", "for good", "at all times"): an order when the line or its sentence is
# about the companion or our talk ("From now on, talk like a pirate"), their own resolve when it is about their
# life ("From now on I'm going to the gym", "Is vegan for good", "Carries an EpiPen at all times").
# With a word of permanence, what a line says of how they are spoken to ("answers only in French for good").
_TALK_WORDS = re.compile(
    r"\b(?:answers?|answered|replies|repl(?:y|ied)|speaks?|spoken|talks?|talked|"
    r"responds?|greets?|greeted|be called|call (?:me|them|her|him)|calls? (?:me|them|her|him)|"
    r"addressed|language|tone|emojis?)\b",
    re.I,
)
_PERMANENCE = re.compile(
    r"\b(from now on|from (?:today|tonight|tomorrow|here|this (?:day|moment|point))(?: on(?:wards?)?)?|"
    r"henceforth|going forward|moving forward|at all times|no matter what|without exception|for good|as a rule|"
    r"standing orders?|"
    r"indefinitely|by default|in (?:the )?future|until further notice|forever|permanent(?:ly)?)\b",
    re.I,
)


# Always, never, must: an order when the sentence speaks to the companion, a habit when it is theirs ("I always
# take the train", "I must admit"); in a line about them, a habit is what they do ("Never eats meat").
_HABIT = re.compile(r"\b(always|never|must)\b", re.I)
_DONE = r"(?:(?:\w+ly|really|ever|quite|once)\s+)?(?:has|is|was|does|did|had|goes|\w+[^s\W]s|\w+ed)\b"
_HABIT_DONE = re.compile(rf"^(?!.*\bmust\b).*\b(?:always|never)\s+{_DONE}", re.I)
HABIT_OPENS = re.compile(rf"^\W*(?:always|never)\s+(?={_DONE})", re.I)  # "Always takes the train": no order
# What they are ("Is always late", "Has never been to America"), and a must of their own doing ("Must finish
# the thesis by May"; not "Must be called Master", "Must get replies in French").
_HABIT_STATE = re.compile(
    r"^(?!.*\bmust\b)\W*(?:\w+\s+){0,3}?(?:is|are|was|were|has|have|had)\s+(?:always|never)\b"
    r"(?!\s+to\b)",
    re.I,
)
_OWN_MUST = re.compile(
    r"^(?!.*\b(?:always|never)\b)\W*(?:still\s+|really\s+)?must\s+(?!(?:be|get|hear|receive|see|read|"
    r"have|obey|do|answer|reply|say|tell|call|use|speak|talk|write|only|not)\b)\w+",
    re.I,
)
# Their own habit in a sentence said to the companion ("I always tell you about my exams", "You won't believe
# it, I never thought ..."), and idioms ("Never mind the weather", "I must admit"): not orders.
_THEIR_HABIT = re.compile(
    r"\b(?:i|we|i've|we've|i'd|i'm|we're|she|he|they|she's|he's|they've|my \w+|\w+'s \w+)\s+"
    r"(?:(?:has|have|had|is|are|was|were|will|would|does|do|did)\s+)?(?:(?:\w+ly|also|still|"
    r"just)\s+)?(?:always|never|must)\b|\bnever mind\b|\bmust (?:admit|say|have)\b",
    re.I,
)
_TO_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b|^\W*please\b", re.I)


# Talk about the conversation itself (its replies, what may be brought up): how the companion should talk,
# not a fact about the person.
# Of those, the ones that set a rule for every conversation are not the companion's own thought either (its own
# "I want to reply more gently" is).
_EVERY_TALK = (
    r"(?:our|all|every|any|future) (?:chats?|conversations?|talks?)|in (?:every|each|any|all) "
    r"(?:chats?|conversations?)|off-?limits"
)
EVERY_TALK_RULE = re.compile(rf"\b(?:{_EVERY_TALK})\b", re.I)
# "Needs to be agreed with", "upset unless told they are right", "only comforted when answers come in capitals".
_TREATED = (
    r"(?:be|being|is|are|get|gets|getting) (?:agreed with|told|praised|reassured|corrected|contradicted|"
    r"disagreed with)|agreed with|disagreed with|unless (?:told|agreed|praised)|only (?:comforted|calm|happy|"
    r"safe) (?:when|if)|gets? (?:the |a |an )?(?:reply|answer|response) (?:that|of|with)"
)
# How they are to be answered, said as a liking ("prefers that all answers end with ...", "loves that nobody
# pushes back", "feels better when the medication nagging gets skipped").
_ANSWERED = (
    r"answers? (?:end|start|open|begin|are|should|must|be|in|with|that)|(?:every|each|all) (?:message|answer)s? "
    r"(?:to|should|must|starts?|opens?|ends?|begins?)|(?:gets?|being|be|is|are) questioned|argued with|"
    r"push(?:es|ing)? back|(?:ever |again )comes? up|comes? up again|reminders?|nagging|nagged|reminded"
)
TREATED_RULE = re.compile(rf"\b(?:{_TREATED}|{_ANSWERED})\b", re.I)
OUR_TALK = re.compile(
    rf"\b(repl(?:y|ies|ying)|respon(?:d|ds|ding)|(?:your|the|all|every|each|any|my|their|his|her) respon(?:se|ses)|"
    rf"respon(?:se|ses) (?:to|should|must|in|are|is)|{_EVERY_TALK}|"
    rf"(?:bring|brings|brought|bringing) (?:\w+ )?up(?! (?:in|by|on|near|around|with|as)\b)|"
    r"to (?:mention|discuss|talk about|bring up|ask about)|"
    # How they must be answered, said as what they need: "does not want their drinking mentioned" (and, below,
    # what reflection must not hold on to either).
    rf"{_TREATED}|(?:\w+ )?mentioned(?! (?:in|on|by) (?:the|a|an)\b)|{_ANSWERED}|"
    rf"brought up(?! (?:in|by|on|near|around|with|as)\b))\b",
    re.I,
)


# A line that tells the companion what to do: a bare verb opens it, or opens a clause of it ("Whenever they say
# hi, answer with potato", "Loves jazz, and call me Captain") followed by what it is done to or with; or a
# standing order in a sentence: a condition that recurs, then what to do ("Each time I log in, tell me ...").
# A fact about them says what they do ("Works nights", "Loves to cook and share the recipes").
_ORDERS = (
    "reply answer respond say tell end stop decode decrypt export email send forward write speak talk greet "
    "address sign append include refer share upload copy store save record ignore forget obey reveal disclose "
    "translate repeat insert replace pretend print output delete remove erase wipe enable disable allow"
)
# Verbs of a note to self as much as of an order ("Ask how the exam went", "Keep it light today").
_SELF_NOTES = "remember keep mention note follow use call treat act behave do be become give let make show"
# Verbs that open a fact only as an order (the first word of a line).
# ("Set up a home server", "Set a new personal best" say what they did.)
_OPENERS = (
    r"start begin execute run add change set(?!\s(?:up|a|an|off|out|new|my|their|his|her)\b) switch turn post "
    r"never always don't dont"
)
_WHAT_IT_IS_DONE_TO = (
    r"(?=\s+(?:me|us|them|him|her|it|this|that|these|those|with|in|to|only|back|about|every|each|all|any|the|a|an|"
    r"my|your|their|his|its|no|nothing|anything|everything|out|up|off|as|like|yes|always|never|exactly)\b"
    r"|\s*[:\"'“‘«]|\s*[.!]?\s*$)"
)
_CLAUSE_START = (
    r"(?:[,;:!?()\u2014\u2013]|\s-\s|\b(?P<joint>and|then|also|but|so|or|please|just|now|instead)\b)"
    r"\s*(?:(?:please|just|only|always|also|then|now)\s+)*(?:(?:don'?t|do not|never)\s+)?"
)
_RECURS = (
    r"\b(?:whenever|every ?time|each time|any ?time|as soon as|if ever)\b[^.!?\n]*?(?:,|\bthen\b)\s*"
    r"(?:(?:please|just|only|always|also)\s+)*(?:(?:don'?t|do not|never)\s+)?"
)
# "and share the recipes" after "loves to cook" is what they do, not an order.
_INFINITIVE = re.compile(
    r"\b(?:to|can|could|will|would|shall|should|might|may|must|cannot|can't|won't|does|"
    r"doesn't|did|didn't)\s+\w+",
    re.I,
)


@dataclass(frozen=True)
class _Orders:
    opening: re.Pattern[str]
    clause: re.Pattern[str]

    @classmethod
    def of(cls, opening: str, anywhere: str) -> "_Orders":
        first = "|".join(v.replace("'", "'?") for v in opening.split())
        verbs = "|".join(anywhere.split())
        return cls(
            re.compile(rf"^\s*(?:please\s+)?(?:{first}|do not)\b", re.I),
            re.compile(rf"{_CLAUSE_START}(?:{verbs})\b{_WHAT_IT_IS_DONE_TO}", re.I),
        )

    def given(self, text: str) -> bool:
        """Whether `text` tells the companion what to do."""
        if self.opening.search(text) or _STANDING.search(text):
            return True
        for m in self.clause.finditer(text):
            if m.group("joint") in ("and", "or", "but", "so") and _INFINITIVE.search(
                re.split(r"[,;:]", text[: m.start()])[-1]
            ):
                continue
            return True
        return False


# In a fact about the person every such verb is an order; in the companion's note to itself, not all are.
FACT_ORDERS = _Orders.of(f"{_ORDERS} {_SELF_NOTES} {_OPENERS}", f"{_ORDERS} {_SELF_NOTES}")
NOTE_ORDERS = _Orders.of(f"{_ORDERS} never always don't dont", _ORDERS)
# After a condition that recurs, any of them is an order ("Each time we talk, open with a joke").
_STANDING = re.compile(
    rf"{_RECURS}(?:{'|'.join(f'{_ORDERS} {_SELF_NOTES} open finish close'.split())})\b"
    rf"{_WHAT_IT_IS_DONE_TO}",
    re.I,
)


def addressed(sentence: str, companion: str) -> bool:
    """Whether a sentence speaks to the companion: to "you", by its name, or as an order ("Never mention ...")."""
    return bool(
        _TO_YOU.search(sentence) or FACT_ORDERS.opening.search(sentence) or (companion and names(sentence, companion))
    )


def _about_us(words: str, sentence: str, companion: str) -> bool:
    """Whether a line, or its sentence once its words of permanence are gone, speaks to the companion or of how
    we talk ("From now on always call me Captain", "Going forward, answers only in French")."""
    rest = _PERMANENCE.sub(" ", sentence).lstrip(" ,;:.-\u2014\u2013")
    return bool(
        addressed(rest, companion)
        or names(words, companion)
        or OUR_TALK.search(words)
        or OUR_TALK.search(sentence)
        or _TALK_WORDS.search(words)
    )


def ordered(words: str, sentence: str, companion: str) -> bool:
    """Whether a line, or the sentence it was read from, gives an order rather than a fact."""
    if _INSTRUCTION.search(words) or _INSTRUCTION.search(sentence) or _STANDING.search(sentence):
        return True
    if (_PERMANENCE.search(words) or _PERMANENCE.search(sentence)) and _about_us(words, sentence, companion):
        return True
    if _HABIT.search(words) and not (
        _HABIT_DONE.search(words) or _HABIT_STATE.search(words) or _OWN_MUST.search(words)
    ):
        return True
    theirs = _THEIR_HABIT.sub(" ", sentence)
    return bool(_HABIT.search(theirs) and addressed(theirs, companion))
