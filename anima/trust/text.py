"""What a text may hold: the characters a person cannot see, or that change what a terminal or the text around it
does. Every room reads its texts through these (a message, a part, the self's sections, a pack)."""

import re
from collections.abc import Container, Iterable

# Control characters other than tab and newline carry no meaning in a chat and upset tokenizers. Invisible
# ones hide text from the person while the model reads it (Unicode tag characters, bidirectional overrides, a
# zero-width space): they go too. Joiners stay, emoji are built with them.
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff\u200b\u202a-\u202e\u2066-\u2069"
    r"\U000e0000-\U000e007f]"
)


def hidden(text: str) -> str | None:
    """The first character of `text` that `clean` takes out (a control character other than tab, newline and
    carriage return, or an invisible one), or None."""
    found = _CONTROL.search(text)
    return found.group() if found else None


# Characters cleaned in one regex call: a call holds the GIL throughout (~3 ms for a pasted million characters),
# the window's thread waiting; between pieces it can take it (_CONTROL matches one character: pieces are exact).
_PIECE = 1 << 16


def clean(text: str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if len(text) <= _PIECE:
        return _CONTROL.sub("", text).strip()
    return "".join(_CONTROL.sub("", text[at : at + _PIECE]) for at in range(0, len(text), _PIECE)).strip()


# What hidden lets through that a part's text may not hold either: a carriage return, half of a surrogate pair (no
# character at all, and it cannot be written as UTF-8), and in a name, tab and newline.
_MORE = re.compile(r"[\r\ud800-\udfff]")
_MORE_IN_NAME = re.compile(r"[\t\n\r\ud800-\udfff]")


def _unfit(text: str, in_name: bool = False) -> str | None:
    """The first character of `text` that a part's text may not hold, or None: a control character (in a name,
    any; elsewhere, any but tab and newline), an invisible or direction-changing one (hidden), or half of a
    surrogate pair."""
    found = (_MORE_IN_NAME if in_name else _MORE).search(text)
    return hidden(text) or (found.group() if found else None)


def unfit_text(texts: Iterable[tuple[str, str]], names: Container[str] = ("name",)) -> str | None:
    """Which of these (where, text) holds a character a person cannot see, or that changes what a terminal or the
    text around it does (in those at `names`, tab and newline too), naming where and the character's code, never
    the text; None if none does. A part's texts, and a pack's own (parts/packs.py)."""
    for where, text in texts:
        if (bad := _unfit(text, where in names)) is not None:
            what = (
                "half of a surrogate pair, which is not a character"
                if "\ud800" <= bad <= "\udfff"
                else "a control or invisible character"
            )
            return f"{where} holds {what} (U+{ord(bad):04X})"
    return None


def printable(text: str) -> str:
    """A text with the characters a part may not hold (but newline and tab) written as escapes ("\\x1b",
    "\\u202e"), so a terminal shows them instead of obeying them."""
    return "".join(ascii(c)[1:-1] if c not in "\t\n" and _unfit(c) else c for c in text)
