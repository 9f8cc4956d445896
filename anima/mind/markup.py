"""Markup in text from elsewhere (a card's fields, a lorebook's entries): what of it fetches something when a
renderer shows it, and which tags are formatting alone, told once for every reader of such text (card_kept,
lorebook). A tag that is formatting (<i>, </b>, <br/>, SillyTavern's <START>) is no link; one that loads or
links something is, and the gate holds it as one."""

import re

# What fetches something when a renderer shows it: a Markdown image (inline or by reference), an HTML element
# that loads, CSS url().
LOADS = re.compile(r"!\[[^\]\n]{0,300}\]\s*[(\[]|<\s*(?:img|image|iframe|frame|script|link|object|embed|video|audio|"
                   r"source|track|svg|style|meta|base|form|input|body|table|td)\b[^>]*?(?:src|href|data|background|"
                   r"poster|action|content)\s*=|<\s*(?:img|iframe|script|embed|object|svg)\b|\burl\s*\(|@import\b",
                   re.I)
TAG = re.compile(r"</?[A-Za-z][^<>]{0,500}>")
ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//\S+|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
                     r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S*", re.I)
# Elements that load, run or link something whatever their attributes say (a bare <script> runs; <a> links).
_ACTIVE = re.compile(r"</?(?:a|img|image|iframe|frame|frameset|script|link|style|object|embed|applet|param|portal|"
                     r"video|audio|source|track|svg|meta|base|form|input|button)\b", re.I)


def formatting(tag: str) -> bool:
    """Whether a tag (a TAG match) is formatting alone: no element that loads, runs or links, nothing that
    fetches, no address."""
    return not (_ACTIVE.match(tag) or LOADS.search(tag) or ADDRESS.search(tag))


def unformatted(text: str) -> str:
    """The text with each tag that is formatting alone as a space, the others as they are: words to judge."""
    return TAG.sub(lambda m: " " if formatting(m.group()) else m.group(), text)
