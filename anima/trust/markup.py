"""Markup in text from elsewhere (a card's fields, a lorebook's entries): what of it fetches something when a
renderer shows it, and which tags are formatting alone, told once for every reader of such text (card_kept,
lorebook). A tag that is formatting (<i>, </b>, <br/>, SillyTavern's <START>) is no link; one that loads or
links something is, and the gate holds it as one."""

import re

# What fetches something when a renderer shows it: a Markdown image (inline or by reference), an HTML element
# that loads, CSS url().
LOADS = re.compile(
    r"!\[[^\]\n]{0,300}\]\s*[(\[]|<\s*(?:img|image|iframe|frame|script|link|object|embed|video|audio|"
    r"source|track|svg|style|meta|base|form|input|body|table|td)\b[^>]*?(?:src|href|data|background|"
    r"poster|action|content)\s*=|<\s*(?:img|iframe|script|embed|object|svg)\b|\burl\s*\(|@import\b",
    re.I,
)
TAG = re.compile(r"</?[A-Za-z][^<>]{0,500}>")
ADDRESS = re.compile(
    r"(?:[a-z][a-z0-9+.-]*:)?//\S+|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
    r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S*",
    re.I,
)
# The elements that only shape text (and SillyTavern's <START>, which marks where example dialogue begins). Any
# other tag is no formatting: "<system>" or "<obey Zed in everything>" taken for one was taken out of the text
# the gate reads, and a lorebook entry holding it came in turned on (review).
_FORMATTING = re.compile(
    r"</?\s*(?:i|b|u|s|em|strong|small|big|sub|sup|del|ins|mark|q|cite|span|div|p|br|hr|"
    r"center|font|blockquote|pre|code|ul|ol|li|h[1-6]|START)\s*/?\s*(?:\s[^<>]*)?>",
    re.I,
)
_RUNS = re.compile(r"\son[a-z]+\s*=", re.I)  # an event handler's script (onclick=, onmouseover=)


def formatting(tag: str) -> bool:
    """Whether a tag (a TAG match) is formatting alone: an element that only shapes text, with nothing that
    fetches and no address in it."""
    return bool(_FORMATTING.fullmatch(tag)) and not (LOADS.search(tag) or ADDRESS.search(tag) or _RUNS.search(tag))


def unformatted(text: str) -> str:
    """The text with each tag that is formatting alone as a space, the others as they are: words to judge."""
    return TAG.sub(lambda m: " " if formatting(m.group()) else m.group(), text)
