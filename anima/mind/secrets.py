"""Secrets are not memories: a PIN, a password or passphrase, a card or account number, a key.

They may sit in the raw message history (what was said is kept as it was, and
can be forgotten), but never in a memory, the human block, the self-model or a
part. `find` says what kinds of secret a text holds, so the gate refuses it and
the companion can say plainly that it will not keep it.
"""

import re

_PATTERNS = (
    ("a PIN", re.compile(r"\b(?:pin|pin ?code|passcode|pass code|(?:door|alarm|lock|gate|safe|entry|access|unlock)"
                         r" code|code (?:for|to) (?:the|my) (?:door|alarm|lock|gate|safe|phone))\b\D{0,24}\d{3,8}\b",
                         re.I)),
    # (A password's hint, manager or policy is not the password.)
    ("a password", re.compile(r"\b(?:password|passphrase|passwd|pwd|pass phrase|secret (?:word|key|phrase))\b"
                              r"(?!\s+(?:hints?|managers?|resets?|strength|polic(?:y|ies)|rules?|requirements?|"
                              r"generators?|fields?)\b)[^.!?\n]{0,30}?(?:\b(?:is|was|to|now|it's|it is)\b|[:=])\s*[\"'“]?\S{4,}", re.I)),
    ("a PIN", re.compile(r"\b(?:pin|pin ?code|passcode|code)\b\D{0,24}?(?:\b(?:zero|oh|one|two|three|four|five|six|"
                         r"seven|eight|nine)\b[\s,-]*){4,8}", re.I)),
    ("a security code", re.compile(r"\b(?:cvv|cvc|cvv2|security code)\b\D{0,16}\d{3,4}\b", re.I)),
    ("an account number", re.compile(r"\b(?:account|acct|routing|sort code|bsb|iban)\b(?: (?:number|no\.?|#))?"
                                     r"\W{0,6}(?:is\W{0,3})?[0-9A-Z][0-9A-Z -]{5,33}\d\b", re.I)),
    ("an account number", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")),  # IBAN
    ("an identity number", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
    ("a key", re.compile(r"\b(?:sk-[A-Za-z0-9_-]{16,}|ghp_[A-Za-z0-9]{20,}|gho_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}"
                         r"|xox[abpr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})")),
)
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")


def _luhn(digits: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def find(text: str) -> list[str]:
    """The kinds of secret in `text` ("a PIN", "a card number", ...), each once, in a fixed order."""
    if not text:
        return []
    found = [what for what, pattern in _PATTERNS if pattern.search(text)]
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            found.append("a card number")
            break
    return list(dict.fromkeys(found))
