"""How hard a passphrase is to guess, estimated by zxcvbn (Dropbox's estimator, kept by others, not written here).

A stolen soul can be attacked offline for as long as the thief likes, so what
matters is how many guesses a passphrase takes, not which characters it has:
"P@ssw0rd!" has four kinds and falls in seconds, four plain words take centuries.
The window shows this while the person types; the rule (keys.passphrase_problem)
refuses what an attacker would find among their first million guesses.

A passphrase is judged as a guesser reads it (as_read): compatibility forms
folded (NFKC: fullwidth letters, ligatures), and characters that show nothing
dropped (a right-to-left mark, zero-width spaces and joiners, controls), so an
invisible character cannot make "password" backwards look random. One word
said again, with separators or without ("Rosalind Rosalind", "pass-pass-pass",
"парольпароль"), is judged as that word: a guesser tries repeats of each word
it tries.
"""

import unicodedata
from dataclasses import dataclass

import zxcvbn

# zxcvbn refuses longer input. A passphrase's first 72 characters are never harder to guess than all of it, so
# the estimate of a longer one is a lower bound: it can understate, never overstate.
_ESTIMATED_CHARS = 72

WORDS = ("very weak", "weak", "fair", "strong", "very strong")
# Score 2 and up: at least 10^6 guesses. Our scrypt cost (keys.DEFAULT_COST) makes each guess ~0.5 s of a
# laptop's CPU; zxcvbn's "slow hashing" attacker (10^4 guesses/s on dedicated hardware) still needs minutes to
# days at score 2, and years from score 3.
ACCEPTED_SCORE = 2


@dataclass(frozen=True)
class Strength:
    score: int  # 0 (very weak) .. 4 (very strong)
    guess_time: str  # how long an offline attacker at 10^4 guesses a second would take, in words
    warning: str  # what makes it weak ("This is a top-10 common password."), or ""
    suggestion: str  # one way to make it stronger, or ""

    @property
    def words(self) -> str:
        return WORDS[self.score]

    @property
    def accepted(self) -> bool:
        return self.score >= ACCEPTED_SCORE

    def __str__(self) -> str:
        """One line for the person: "weak: about 2 seconds to guess offline. This is similar to..."."""
        advice = " ".join(s for s in (self.warning, self.suggestion) if s)
        return f"{self.words.capitalize()}: {self.guess_time} to guess offline." + (f" {advice}" if advice else "")


def estimate(passphrase: str, user_inputs: tuple[str, ...] = ()) -> Strength:
    """`user_inputs`: words the person is known by (the companion's name, theirs), which guessing tries first."""
    read = as_read(passphrase)
    if not read:
        return Strength(0, "no time", "", "")
    word = repeated_word(read)
    found = zxcvbn.zxcvbn((word or read)[:_ESTIMATED_CHARS], user_inputs=[as_read(w) for w in user_inputs if w])
    feedback = found.get("feedback") or {}
    suggestions = feedback.get("suggestions") or []
    warning = feedback.get("warning") or ""
    if word and not warning:
        warning = "A word said again is guessed about as fast as the word once."
    return Strength(
        score=int(found["score"]),
        guess_time=str(found["crack_times_display"]["offline_slow_hashing_1e4_per_second"]),
        warning=warning,
        suggestion=suggestions[0] if suggestions else "",
    )


# Default-ignorable characters outside the format (Cf) and control (Cc) categories: they draw nothing either.
_BLANK = {
    0x034F,
    0x115F,
    0x1160,
    0x17B4,
    0x17B5,
    0x180B,
    0x180C,
    0x180D,
    0x180F,
    0x3164,
    0xFFA0,
    *range(0xFE00, 0xFE10),
    *range(0xE0100, 0xE01F0),
}


def shows_nothing(c: str) -> bool:
    return unicodedata.category(c) in ("Cf", "Cc") or ord(c) in _BLANK


def as_read(passphrase: str) -> str:
    """The passphrase as a guesser reads it: what shows nothing dropped, compatibility forms folded (NFKC)."""
    return unicodedata.normalize("NFKC", "".join(c for c in passphrase if not shows_nothing(c)))


def repeated_word(read: str) -> str | None:
    """The word, when `read` is one word (letters, marks and digits) said at least twice, with separators between
    (spaces, punctuation, symbols) or none, and nothing else, its case aside: "Anima Anima", "pass-Pass-PASS!",
    "парольпароль"."""
    words, word = [], ""
    for c in read:
        if unicodedata.category(c)[0] in "LMN":
            word += c
        elif word:
            words.append(word)
            word = ""
    words += [word] if word else []
    if not words or len({w.casefold() for w in words}) != 1:
        return None
    once = _said_once(words[0])
    return once if len(words) > 1 or once != words[0] else None


def _said_once(word: str) -> str:
    """The shortest piece `word` is that piece said over and over ("abcabc": "abc"), or `word`. zxcvbn reads
    such a repeat as the piece plus a little, and the piece in a dictionary it lacks (it knows English) as
    random letters: "парольпароль" ("password" twice in Russian) scored higher than "пароль пароль" does."""
    # Folded by character: "ß" folds to "ss", and `word` is cut at the piece's length in characters.
    folded = [c.casefold() for c in word]
    for size in range(1, len(folded) // 2 + 1):
        if len(folded) % size == 0 and folded[:size] * (len(folded) // size) == folded:
            return word[:size]
    return word
