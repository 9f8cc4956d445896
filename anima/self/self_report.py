"""How the person says they feel, in their own words: "I'm fine", "I feel great", "I'm not stressed".

Seed 003, 4.3: never override the person. When they say how they feel, that
is the reading: quick reflection stores their statement (explicit, confidence
1, their own words as its label) in place of whatever the model read, and
drops a contrary reading outright. This is found by code, not by the model,
so a model that reads them otherwise cannot win.

Only a plain statement about themselves counts, ending at the feeling word ("I'm
tired.", "I'm really stressed about the exam"); "I'm good at chess" and "I'm
fine with pizza" are about something else. The rough position of each word on
the dimensions (valence -1..1, arousal and dominance 0..1) lets their statement
take its place in the trajectory; "not" turns a word toward neutral, on the
other side.
"""

import re
from dataclasses import dataclass

# word: (valence, arousal, dominance)
FEELINGS = {
    "fine": (0.3, 0.3, 0.6),
    "ok": (0.2, 0.3, 0.55),
    "okay": (0.2, 0.3, 0.55),
    "alright": (0.2, 0.3, 0.55),
    "all right": (0.2, 0.3, 0.55),
    "good": (0.6, 0.4, 0.65),
    "great": (0.8, 0.6, 0.7),
    "well": (0.5, 0.35, 0.6),
    "better": (0.4, 0.35, 0.6),
    "happy": (0.8, 0.55, 0.65),
    "glad": (0.6, 0.4, 0.6),
    "calm": (0.4, 0.1, 0.65),
    "relaxed": (0.5, 0.1, 0.65),
    "content": (0.55, 0.2, 0.6),
    "excited": (0.7, 0.85, 0.65),
    "thrilled": (0.85, 0.85, 0.7),
    "proud": (0.7, 0.55, 0.75),
    "relieved": (0.5, 0.25, 0.6),
    "grateful": (0.7, 0.35, 0.55),
    "thankful": (0.7, 0.35, 0.55),
    "hopeful": (0.5, 0.45, 0.55),
    "fantastic": (0.85, 0.65, 0.7),
    "wonderful": (0.85, 0.6, 0.7),
    "amazing": (0.85, 0.7, 0.7),
    "stressed": (-0.6, 0.75, 0.3),
    "stressed out": (-0.65, 0.8, 0.25),
    "anxious": (-0.6, 0.75, 0.25),
    "nervous": (-0.4, 0.7, 0.3),
    "worried": (-0.5, 0.6, 0.3),
    "tired": (-0.3, 0.15, 0.35),
    "exhausted": (-0.5, 0.15, 0.25),
    "worn out": (-0.5, 0.15, 0.25),
    "burnt out": (-0.6, 0.2, 0.2),
    "burned out": (-0.6, 0.2, 0.2),
    "sad": (-0.7, 0.3, 0.3),
    "down": (-0.5, 0.25, 0.3),
    "low": (-0.5, 0.2, 0.3),
    "depressed": (-0.8, 0.2, 0.15),
    "angry": (-0.7, 0.85, 0.6),
    "mad": (-0.7, 0.85, 0.6),
    "furious": (-0.8, 0.9, 0.6),
    "frustrated": (-0.6, 0.7, 0.35),
    "annoyed": (-0.5, 0.6, 0.45),
    "irritated": (-0.5, 0.6, 0.45),
    "upset": (-0.6, 0.6, 0.3),
    "overwhelmed": (-0.6, 0.75, 0.15),
    "lonely": (-0.6, 0.25, 0.25),
    "bored": (-0.3, 0.1, 0.4),
    "scared": (-0.7, 0.8, 0.15),
    "afraid": (-0.7, 0.75, 0.15),
    "terrified": (-0.85, 0.9, 0.1),
    "hurt": (-0.6, 0.5, 0.25),
    "awful": (-0.8, 0.5, 0.2),
    "terrible": (-0.8, 0.5, 0.2),
    "miserable": (-0.85, 0.4, 0.15),
    "confused": (-0.3, 0.5, 0.3),
    "sick": (-0.5, 0.3, 0.3),
}
_WORDS = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(FEELINGS, key=len, reverse=True))
_MODIFIERS = (
    r"really|so|very|pretty|quite|a\s+bit|a\s+little|kind\s+of|kinda|totally|just|super|too|fairly|"
    r"rather|extremely|absolutely|genuinely|honestly|actually|perfectly|completely|still|a\s+lot|much|"
    r"feeling|feel"
)
# What may follow the feeling word in a statement about how they feel.
_AFTER = (
    r"and|but|so|today|tonight|now|right\s+now|thanks|thank|though|really|actually|honestly|lately|"
    r"these\s+days|about|because|after|since|tbh|lol|haha|overall|anyway|i\s+think|i\s+guess|again|too"
)
_STATED = re.compile(
    r"\b(?:i\s*['’]?\s*m|i\s+am|i\s+feel|i\s+felt|i\s*(?:['’]\s*ve|\s+have)\s+been|"
    r"(?P<dont>i\s+(?:don['’]?t|do\s+not|didn['’]?t|did\s+not)\s+feel))"
    r"(?P<not>\s+not)?(?P<mods>(?:\s+(?:" + _MODIFIERS + r"))*)"
    r"\s+(?P<word>" + _WORDS + r")"
    r"(?=\s*(?:[.,!?;:)…—–-]|$)|\s+(?:" + _AFTER + r")\b)",
    re.I,
)


@dataclass(frozen=True)
class Stated:
    label: str  # their words: "fine", "not stressed", "really tired"
    quote: str  # the statement as they wrote it: "I'm not stressed"
    valence: float
    arousal: float
    dominance: float

    @property
    def negated(self) -> bool:
        return self.label.startswith("not ")

    def contradicts(self, valence: float, label: str = "") -> bool:
        """Whether a reading says otherwise: on the other side of neutral, or naming what they said they are not."""
        if self.negated and re.search(rf"\b{re.escape(self.label[4:])}", label, re.I):
            return True
        return (self.valence >= 0 and valence < -0.15) or (self.valence < 0 and valence > 0.15)


def stated_feeling(text: str) -> Stated | None:
    """Their last statement of how they feel in `text`, or None."""
    found = list(_STATED.finditer(text))
    if not found:
        return None
    m = found[-1]
    word = " ".join(m["word"].lower().split())
    v, a, d = FEELINGS[word]
    negated = bool(m["not"]) != bool(m["dont"])
    if negated:
        v, a, d = round(-0.5 * v, 2), 0.35, 0.5
    mods = [w for w in m["mods"].lower().split() if w not in ("feeling", "feel")]
    label = " ".join(["not"] * negated + mods + [word])
    return Stated(label, " ".join(m.group(0).split()), v, a, d)
