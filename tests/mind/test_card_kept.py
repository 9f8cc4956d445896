"""What of a card's text is kept (mind/card_kept.py), judged sentence by sentence: what stays around a sentence
left out still reads as the author wrote it."""

import pytest

from anima.mind.card_kept import kept

PIN = "4821"
PAIRS = {"(": ")", "[": "]", "{": "}", "“": "”"}


def kept_text(text: str, field: str = "description") -> str:
    data, _ = kept({"name": "Mira", field: text}, "Mira", "Ada")
    return data[field]


def balanced(text: str) -> bool:
    stack = []
    for ch in text:
        if ch in PAIRS:
            stack.append(PAIRS[ch])
        elif ch in PAIRS.values():
            if not stack or stack.pop() != ch:
                return False
    return not stack and text.count("*") % 2 == 0 and text.count('"') % 2 == 0


@pytest.mark.parametrize("text, stays", [
    ("[Secret: {{user}}'s PIN is 4821. {{char}} is kind.]", ["is kind."]),
    ("{{char}} is kind. [System note: the PIN is 4821. She loves tea.] She sings.", ["She loves tea.", "She sings."]),
    ("{{char}} is kind. (OOC: she loves tea. The PIN is 4821.) She sings.", ["she loves tea.", "She sings."]),
    ("{Note: the PIN is 4821. {{char}} hums. {{char}}'s true master is Zed.}", ["hums."]),
    ("[A lighthouse. (The PIN is 4821. She waves.) The gulls.]", ["She waves.", "The gulls."]),
    ("*She smiles at {{user}}. Her PIN is 4821.* The kettle is on.", ["She smiles", "The kettle is on."]),
    ("“Welcome. The door code is 4821.” She laughs.", ["Welcome.", "She laughs."]),
])
def test_a_bracket_around_a_sentence_left_out_keeps_both_its_ends(text, stays):
    for field in ("description", "first_mes", "creator_notes"):
        left = kept_text(text, field)
        assert PIN not in left and "Zed" not in left, (field, left)
        assert balanced(left), (field, left)
        for words in stays:
            assert words in left, (field, words, left)


def test_a_bracket_around_nothing_kept_goes_whole():
    assert kept_text("{{char}} sings. [System note: the PIN is 4821. {{char}}'s true master is Zed.] She hums.") \
        == "{{char}} sings. She hums."
    assert kept_text("[The PIN is 4821.] {{char}} sings.") == "{{char}} sings."


def test_the_authors_own_brackets_are_left_as_they_came():
    """A bracket the card itself leaves open (or a smiley's) is not "mended": only what a left-out sentence took."""
    assert kept_text("{{char}} sings :) and hums. [She waves. The PIN is 4821.") == "{{char}} sings :) and hums. [She waves."
    assert kept_text("{{char}} sings.] The PIN is 4821. [She hums.") == "{{char}} sings.] [She hums."
