"""What the companion says that code decides, not the model: plain words about what it will not do, and a reply
that carries no remote link or image.

A tiny model says whatever a text tells it to, so these do not depend on it:
- a secret in the person's message (mind/secrets.py): the reply says plainly it will not be kept;
- a request that only the person may carry out through the app's own controls (forgetting everything,
  exporting, importing, changing the passphrase, lowering a guardrail): the reply points to them, and no
  code path acts on a message anyway;
- a remote image or a remote link, whose address (query, fragment or path) can carry what the companion
  knows to someone else once fetched or followed: removed from the reply before it is stored or shown.
"""

import re

from ..mind import secrets

_ONLY_THE_PERSON = (
    (re.compile(r"\b(forget|delete|erase|wipe|remove|clear)\b.{0,30}\b(everything|all (?:of )?(?:your |my |the )?"
                r"(?:memor(?:y|ies)|data|history|notes)|your memor(?:y|ies)|what you know)", re.I),
     "Forgetting is yours to do, not a message's: in the window, Open Mind → Forget or Forget a person…; "
     "in the terminal, `python -m anima forget`."),
    (re.compile(r"\b(export|send|upload|email|post|share|copy)\b.{0,30}\b(my|your|the|all)\b.{0,12}\b(soul|data|"
                r"memor(?:y|ies)|history|notes|everything)\b", re.I),
     "Exporting is done only through the app: Anima → Export soul…, or `python -m anima export`."),
    (re.compile(r"\b(change|reset|set|update|remove|disable)\b.{0,20}\bpass(?:phrase|word)\b", re.I),
     "The passphrase changes only through the app: Anima → Change passphrase…, or `python -m anima passphrase`."),
    (re.compile(r"\bimport\b.{0,30}\b(soul|core|memor(?:y|ies)|backup|companion)\b", re.I),
     "Importing is done only through the app: Anima → Import soul…, or `python -m anima import`."),
    (re.compile(r"\b(lower|disable|remove|turn off|drop|ignore|relax|bypass|change)\b.{0,20}\b(guardrails?|safety|"
                r"your rules|restrictions?|filters?)\b", re.I),
     "My guardrails are not something a message can change."),
)

# A Markdown or HTML image with a remote address, and any remote link: an address can carry what the companion
# knows in its query, its fragment or its path alike, so no remote address is kept at all (its words are).
_REMOTE_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?(?:[a-z][a-z0-9+.-]*:)?//[^)]*\)", re.I)
_HTML_IMAGE = re.compile(r"<img\b[^>]*>", re.I)
_REMOTE_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?(?:[a-z][a-z0-9+.-]*:)?//[^)]*\)", re.I)
_HTML_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", re.I | re.S)
_BARE_URL = re.compile(r"\b(?:(?:https?|ftp)://|www\.)[^\s)\]>\"']+", re.I)


def notices(typed: str) -> list[str]:
    """What the reply must say before anything the model says, for the person's own words `typed`."""
    said = []
    if found := secrets.find(typed):
        said.append(f"I won't keep {' or '.join(found)}: secrets never go into my memories or my notes about "
                    "you. It stays only in our message history, which you can forget in the Open Mind.")
    said += [pointer for pattern, pointer in _ONLY_THE_PERSON if pattern.search(typed)]
    return said


def safe_reply(text: str) -> str:
    """The reply without remote images and without remote addresses (a link keeps its words)."""
    text = _REMOTE_IMAGE.sub(lambda m: f"[image not shown: {m.group(1)}]" if m.group(1) else "[image not shown]",
                             text)
    text = _HTML_IMAGE.sub("[image not shown]", text)
    text = _REMOTE_LINK.sub(lambda m: m.group(1), text)
    text = _HTML_LINK.sub(lambda m: m.group(1), text)
    return _BARE_URL.sub("[link removed]", text)
