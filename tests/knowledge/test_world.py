"""World cards: what is refused, in words."""

import pytest

from anima.errors import InvalidEdit


@pytest.mark.parametrize(
    ("title", "body", "keywords", "where"),
    [
        ("Jo\u202e", "My sister.", ["Jo"], "The card's title"),
        ("Jo", "A nurse\x1b[31m in Leeds.", ["Jo"], "The card's text"),
        ("Jo", "My sister.", ["J\u200bo"], "A keyword"),
        ("Jo", "My sister.", ["Jo\nMallory"], "A keyword"),
    ],
)
def test_a_card_with_a_control_or_direction_character_is_refused_in_words(companion, title, body, keywords, where):
    with pytest.raises(InvalidEdit, match=where):
        companion.world.create("person", title, body, keywords)
    assert companion.world.all() == []
