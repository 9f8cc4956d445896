"""How hard a passphrase is to guess, estimated by zxcvbn (Dropbox's estimator, kept by others, not written here).

A stolen soul can be attacked offline for as long as the thief likes, so what
matters is how many guesses a passphrase takes, not which characters it has:
"P@ssw0rd!" has four kinds and falls in seconds, four plain words take centuries.
The window shows this while the person types; the rule (keys.passphrase_problem)
refuses what an attacker would find among their first million guesses.
"""

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
    score: int          # 0 (very weak) .. 4 (very strong)
    guess_time: str     # how long an offline attacker at 10^4 guesses a second would take, in words
    warning: str        # what makes it weak ("This is a top-10 common password."), or ""
    suggestion: str     # one way to make it stronger, or ""

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
    if not passphrase:
        return Strength(0, "no time", "", "")
    found = zxcvbn.zxcvbn(passphrase[:_ESTIMATED_CHARS], user_inputs=[w for w in user_inputs if w])
    feedback = found.get("feedback") or {}
    suggestions = feedback.get("suggestions") or []
    return Strength(score=int(found["score"]),
                    guess_time=str(found["crack_times_display"]["offline_slow_hashing_1e4_per_second"]),
                    warning=feedback.get("warning") or "", suggestion=suggestions[0] if suggestions else "")
