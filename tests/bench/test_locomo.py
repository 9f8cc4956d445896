"""LoCoMo-format data is read turn by turn, every session in order, a shared picture named in its turn; missing
data is one line that says where to point it."""

import pytest

from bench import locomo
from tests.bench.running import SAID, locomo_file


def test_every_turn_of_every_session_is_read_in_order_with_its_picture(tmp_path):
    data = locomo.load(locomo_file(tmp_path, sessions=2))
    turns = list(locomo.turns(data))
    assert len(turns) == 2 * len(SAID)
    assert turns[0] == ("Caroline", f"{SAID[0][1]} (session 1)")
    assert turns[1] == ("Melanie", f"{SAID[1][1]} (session 1) [shares a photo of a painting of a sunrise]")
    assert turns[len(SAID)][1].endswith("(session 2)")


def test_missing_data_says_where_it_was_looked_for(tmp_path):
    with pytest.raises(SystemExit, match=f"LoCoMo data not found at {tmp_path / 'none.json'}; pass --locomo PATH"):
        locomo.load(tmp_path / "none.json")
