"""`anima bench limits` at its smallest: the window's stalls while a 1,000,000-character paste arrives and is
sent, and while a message past the typed limit is typed, beside the machine's own idle floor."""

import pytest

from tests.bench.running import bench


@pytest.mark.slow  # a window on a real soul; two pastes of 1,000,000 characters sent and answered
def test_paste_and_typing_stalls_are_reported_and_the_refused_message_is_kept():
    ran = bench("limits", "--repeats", "1")
    assert ran.returncode == 0, ran.err
    f = ran.figures
    assert f["bench"] == "limits" and f["idle_stall_ms"] >= 0
    assert 0 < f["paste_stall_ms_one_line"] <= f["paste_stall_ms"] and f["paste_sent_ms_many_lines"] > 0
    assert f["typing_stall_ms"] >= 0
    assert f["typed_kept"] == 16_050  # past the limit: all of it stays in the box
    assert "holds at most 16,000" in f["typed_refused_with"]
    assert "a paste of 1,000,000 characters, one line" in ran.out
