"""How the person says they feel, found by code: a plain statement about themselves, in their words."""

import pytest

from anima.self.self_report import stated_feeling


@pytest.mark.parametrize(
    "text, label",
    [
        ("I'm fine", "fine"),
        ("I'm fine, really.", "fine"),
        ("im fine", "fine"),
        ("I’m okay. Work was long.", "okay"),
        ("I feel great!", "great"),
        ("I'm not stressed, just busy", "not stressed"),
        ("I don't feel great", "not great"),
        ("I'm not feeling stressed about it", "not stressed"),
        ("I am really tired after the night shift", "really tired"),
        ("I've been so exhausted lately", "so exhausted"),
        ("Honestly I'm stressed out.", "stressed out"),
    ],
)
def test_a_statement_of_how_they_feel_is_found_in_their_words(text, label):
    assert stated_feeling(text).label == label


@pytest.mark.parametrize(
    "text",
    [
        "I'm good at chess",
        "I'm fine with pizza",
        "I'm well aware",
        "I am going home",
        "I'm down to help",
        "She said she is fine",
        "ok",
    ],
)
def test_other_sentences_are_not_statements_of_feeling(text):
    assert stated_feeling(text) is None


def test_a_statement_has_a_side_and_says_when_a_read_contradicts_it():
    fine, not_stressed, tired = (stated_feeling(t) for t in ("I'm fine", "I'm not stressed", "I'm tired"))
    assert fine.valence > 0 and tired.valence < 0 and not_stressed.valence > 0
    assert fine.contradicts(-0.6) and not fine.contradicts(0.2)
    assert tired.contradicts(0.5) and not tired.contradicts(-0.4)
    assert not_stressed.contradicts(0.1, "a bit stressed about work")  # names what they said they are not
