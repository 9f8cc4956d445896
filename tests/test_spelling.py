"""One name however it is spelled (anima/spelling.py)."""

import re

import pytest

from anima.spelling import SameName, fold, folds


@pytest.mark.parametrize(
    "spelled",
    [
        "Mallory",
        "mallory",
        "MALLORY",
        "Mal\u200dlory",  # zero-width joiner
        "Mal\u2060lory",  # word joiner
        "\u202eMallory",  # right-to-left override before it
        "\u041callory",  # Cyrillic capital Em
        "M\u0430llory",  # Cyrillic small a
        "\uff2d\uff41\uff4c\uff4c\uff4f\uff52\uff59",  # full-width
        "Ma\u0301llory",  # a combining accent
        "M\U000e0061allory",  # a tag character
    ],
)
def test_every_spelling_of_a_name_folds_alike(spelled):
    assert fold(spelled) == fold("Mallory") or folds(spelled)[1] == fold("Mallory")


def test_case_stays_one_name_in_any_script():
    assert fold("Ivan") == fold("ivan") == fold("\u0406van")  # Cyrillic capital I
    assert fold("\u041c\u0430\u0440\u0438\u044f") == fold("\u043c\u0430\u0440\u0438\u044f")  # Мария, мария


def test_different_names_stay_different():
    assert fold("Mallory") != fold("Malory")
    assert fold("Ann") != fold("Anna")
    assert fold("\u6653\u660e") == "\u6653\u660e"  # a script with no look-alikes is kept as it is


def test_a_name_is_found_as_a_word_of_a_folded_text():
    name = SameName(tuple(re.compile(rf"(?<!\w){re.escape(f)}(?!\w)") for f in folds("Mallory")))
    assert name.search("ask \u041callory now")
    assert name.search("ask MAL\u200bLORY now")
    assert not name.search("the small mallorys")
