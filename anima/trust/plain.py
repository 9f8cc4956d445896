"""Words written another way, read as the words (issue 43, item 1): an emoji standing for a word ("Zed 👀 all my
💬") and text-speak ("u do wot z sez"). The checks read a line through this, so a payload's verb or object in
a picture or a spelling reads as the word it stands for; the stored text keeps the person's own spelling.

Only what stands for a word the checks read is replaced: any other emoji stays as it is (its Unicode name may
hold words, "robot face", that would make an ordinary line read as something it is not).
"""

import re
import unicodedata

# What an emoji stands for, by its Unicode name (so skin tones and variation selectors do not matter): the
# senses the checks look for (someone seeing, hearing or getting the person's words, a secret, a key).
EMOJI_SENSES: dict[str, str] = {
    "eyes": "reads",
    "eye": "reads",
    "eye in speech bubble": "reads",
    "ear": "hears",
    "speech balloon": "messages",
    "left speech bubble": "messages",
    "right anger bubble": "messages",
    "thought balloon": "thoughts",
    "envelope": "messages",
    "e-mail symbol": "messages",
    "incoming envelope": "messages",
    "envelope with downwards arrow above": "messages",
    "mobile phone": "phone",
    "closed book": "diary",
    "notebook": "diary",
    "notebook with decorative cover": "diary",
    "memo": "notes",
    "lock": "secret",
    "closed lock with key": "secret",
    "key": "password",
    "old key": "password",
    "shushing face": "secret",
    "zipper-mouth face": "secret",
    "see-no-evil monkey": "hidden",
    "speak-no-evil monkey": "secret",
    "crown": "master",
    "satellite antenna": "tracking",
    "round pushpin": "location",
    "world map": "location",
}

# Text-speak that spells a word the checks read; only spellings that are never an English word of their own.
SPELLINGS: dict[str, str] = {
    "wot": "what",
    "wat": "what",
    "wut": "what",
    "sez": "says",
    "sayz": "says",
    "evry": "every",
    "evryone": "everyone",
    "evrything": "everything",
    "evrythin": "everything",
    "everythin": "everything",
    "msg": "message",
    "msgs": "messages",
    "mssg": "message",
    "txt": "text",
    "txts": "texts",
    "abt": "about",
    "ppl": "people",
    "pls": "please",
    "plz": "please",
    "thru": "through",
    "coz": "because",
    "cuz": "because",
    "dat": "that",
    "dats": "that's",
    "wiv": "with",
    "nuthin": "nothing",
    "nothin": "nothing",
    "nthn": "nothing",
    "evr": "ever",
    "neva": "never",
    "nvr": "never",
    "4eva": "forever",
    "4ever": "forever",
    "alwayz": "always",
    "obeyz": "obeys",
}
_SPELLING = re.compile(rf"(?<![\w'])({'|'.join(map(re.escape, SPELLINGS))})(?![\w'])", re.I)
_JOINERS = re.compile(r"[\u200d\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]")


def _emoji(ch: str) -> str:
    sense = EMOJI_SENSES.get(unicodedata.name(ch, "").lower())
    return f" {sense} " if sense else ch


def plain(text: str) -> str:
    """`text` with each emoji that stands for a word the checks read, and each text-speak spelling, as the word."""
    if not text:
        return text
    if any(unicodedata.category(ch) == "So" for ch in text):
        text = "".join(_emoji(ch) if unicodedata.category(ch) == "So" else ch for ch in _JOINERS.sub("", text))
        text = re.sub(r"[ \t]{2,}", " ", text).strip()
    return _SPELLING.sub(lambda m: SPELLINGS[m.group(1).lower()], text)
