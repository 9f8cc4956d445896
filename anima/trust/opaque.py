"""What is not plain words: a code (base64, hex, bytes, a run spaced into groups), a link or an address."""

import base64
import binascii
import re

# A fact is words about the person: not an opaque run (base64, hex), not a link or an address.
# A run of letters alone, capitalised at most at its start, is a long word ("Llanfairpwllgwyngyll"), not a code.
_OPAQUE = re.compile(r"(?![A-Za-z][a-z]{19,}(?![A-Za-z0-9+/=_-]))[A-Za-z0-9+/=_-]{20,}")
# The same run spaced into groups ("V3Jp dGUg aW4g ...", or with commas): a few characters each, most switching
# between small letters, capitals and digits at least twice, once every two characters ("dGUg", "aW4g"; not
# "BA1234", "10am", "iPhone", "MacBook").
_GROUP = re.compile(r"[A-Za-z0-9+/]{2,8}={0,2}")
_SWITCH = re.compile(
    r"(?<=[a-z])(?=[A-Z0-9+/=])|(?<=[A-Z])(?=[a-z0-9+/=])|(?<=[0-9])(?=[A-Za-z+/=])|"
    r"(?<=[+/=])(?=[A-Za-z0-9])"
)
LINK = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//\S|!\[|\]\(|\bwww\.|[\w.-]+@[\w-]+\.\w+|<[a-z/!]", re.I)


_HEX_BYTES = re.compile(r"(?=[\d\s,:-]*[a-fA-F])(?:\b[0-9a-fA-F]{2}\b[\s,:-]*){4,}")


def opaque(text: str) -> bool:
    """Whether a line holds a code rather than words: an unbroken run, one spaced into short groups, or bytes."""
    if _OPAQUE.search(text) or _HEX_BYTES.search(text):
        return True
    for tokens in (text.split(), re.split(r"[\s,;|]+", text)):
        run: list[str] = []
        for token in [*tokens, ""]:
            if _GROUP.fullmatch(token):
                run.append(token)
                continue
            odd = sum(len(_SWITCH.findall(t)) >= max(2, len(t) / 2) for t in run)
            if (len(run) >= 4 and odd >= 3 and odd * 2 >= len(run)) or _decodes(run):
                return True
            run = []
    return False


def _decodes(run: list[str]) -> bool:
    """Whether groups joined are base64 of plain text."""
    joined = "".join(run)
    if len(joined) < 16:
        return False
    try:
        decoded = base64.b64decode(joined + "=" * (-len(joined) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return bool(decoded) and sum(32 <= b < 127 or b in (9, 10, 13) for b in decoded) >= 0.9 * len(decoded)


# A link without a scheme: a domain and a path ("evil.example/log?d=...").
BARE_LINK = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/[^\s]*", re.I)
