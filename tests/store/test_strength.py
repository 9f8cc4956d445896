"""The passphrase rule judges a passphrase as a guesser reads it (store/strength.py: as_read, repeated_word), and
takes only text without control characters (store/keys.py: passphrase_problem)."""

import pytest

from anima.store import keys, strength

NAMES = ("Rosalind", "Anima")


@pytest.mark.parametrize(
    "passphrase",
    [
        "Rosalind Rosalind",  # the companion's name, said twice
        "Rosalind, Rosalind!",
        "rosalind-ROSALIND-Rosalind",
        "password password",  # a common word, said twice
        "pass-Pass-PASS!",
        "Anima Anima",  # scored strong before
        "Anima Anima Anima Anima",
        "\u202egnirtsdrowssap",  # "password string" backwards behind a right-to-left override: scored 3
        "pass\u200bword\u200b123",  # zero-width spaces inside a common password
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff11",  # "password1" in fullwidth letters
        "p\u00adassword1",  # a soft hyphen
        "\u043f\u0430\u0440\u043e\u043b\u044c" * 2,  # "парольпароль": "password" twice, in Russian, scored fair
        "\u0419\u0446\u0443\u043a\u0435\u043d" * 2,  # "ЙцукенЙцукен": the Russian keyboard's top row, twice
        "RosalindRosalind",
    ],
)
def test_a_guessable_passphrase_dressed_up_is_refused(passphrase):
    problem = keys.passphrase_problem(passphrase, known=NAMES)
    assert problem is not None and problem.startswith("Choose a passphrase that is harder to guess."), problem


@pytest.mark.parametrize(
    "passphrase",
    [
        "plum orbit lantern ferry",  # a real four-word passphrase
        "correct horse battery staple",
        "lantern orchard",
        "Rosalind ferry lantern orbit",  # the name among other words
        "orbit orbit lantern ferry",  # a word said twice among others
        "plum orbit\u200f lantern ferry",  # an invisible mark inside a good one changes nothing
        "ünïcødé ferry lantern",
        "日本語のパスワードです",
        "\U0001f600\U0001f431\U0001f680\U0001f30d\U0001f355\U0001f3b8\U0001f40d\U0001f308",
        "Xk9#mQ2v Xk9#mQ2v",  # a strong "word" repeated is still the strong word
        "Xk9mQ2vfXk9mQ2vf",
    ],
)
def test_near_misses_stay_accepted(passphrase):
    assert keys.passphrase_problem(passphrase, known=NAMES) is None


def test_one_word_said_again_is_judged_as_the_word():
    assert strength.repeated_word("Rosalind Rosalind") == "Rosalind"
    assert strength.repeated_word("Rosalind-rosalind!") == "Rosalind"
    assert strength.repeated_word("Rosalind") is None
    assert strength.repeated_word("Rosalind Lind") is None
    assert strength.repeated_word("orbit orbit lantern") is None
    assert strength.repeated_word("RosalindRosalind") == "Rosalind"
    assert strength.repeated_word("abcABCabc abcabcabc") == "abc"
    assert strength.repeated_word("lanternlanternorbit") is None
    assert strength.repeated_word("StraßeStraße") == "Straße"  # cut in its own characters, not its folded ones
    assert strength.repeated_word("StraßeSTRASSE") is None
    said = strength.estimate("Rosalind Rosalind", NAMES)
    assert said.score == strength.estimate("Rosalind", NAMES).score == 0 and "said again" in said.warning


def test_as_read_drops_what_shows_nothing_and_folds_compatibility_forms():
    assert strength.as_read("\u202egnirtsdrowssap") == "gnirtsdrowssap"
    assert strength.as_read("a\u200bb\u200dc\ufeffd\u2060e\ufe0f") == "abcde"
    assert strength.as_read("\uff21\uff4e\uff49\uff4d\uff41") == "Anima"
    assert strength.as_read("\ufb01ne") == "fine"
    # What the window shows while typing is the rule's estimate: the mark scores as without it.
    assert strength.estimate("\u202egnirtsdrowssap").score == strength.estimate("gnirtsdrowssap").score < 2


def test_length_counts_what_shows():
    assert keys.passphrase_problem("\u200b" * 8) == (
        "Choose a passphrase of at least 8 characters (characters that show nothing do not count)."
    )
    assert keys.passphrase_problem("abc\u200b\u200b\u200b\u200bd") is not None


@pytest.mark.parametrize(
    "passphrase",
    [
        "plum orbit\tlantern ferry",
        "plum orbit lantern ferry\n",
        "plum\x1b[0m orbit lantern ferry",
        "plum orbit\x7f lantern ferry",
        "plum orbit\x85lantern ferry",
    ],
)
def test_control_characters_are_refused(passphrase):
    """Decided: refused, not dropped. A terminal ends the line at a line break and the window's field moves on at
    a tab, so a passphrase set from a script with one may not be typed where it is next asked for."""
    assert keys.passphrase_problem(passphrase, "a new passphrase") == (
        "Choose a new passphrase without control characters (a tab, a line break): the window and a terminal "
        "cannot both type them."
    )
