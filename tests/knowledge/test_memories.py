"""Memories: what is refused, in words."""

import pytest

from anima.errors import InvalidEdit


@pytest.mark.parametrize("bad", ["\u202e", "\x1b[2J", "\u200b", "\U000e0041"])
def test_a_memory_with_a_control_or_direction_character_is_refused_in_words(companion, bad):
    with pytest.raises(InvalidEdit, match=r"The memory holds a control or invisible character \(U\+[0-9A-F]{4,}\)"):
        companion.memories.remember(f"Likes {bad}tea")
    assert companion.memories.current() == []
