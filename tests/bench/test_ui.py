"""`anima bench ui` at its smallest: launch to first paint against a bare PySide6 window, the event loop's stalls
while a reply streams and long jobs run, and a table filled against Qt's own."""

import pytest

from tests.bench.running import bench, locomo_file


@pytest.mark.slow  # launches windows, streams a reply on the real default model
def test_launch_stalls_and_table_fill_are_reported_beside_their_references(tmp_path):
    ran = bench("ui", "--launches", "1", locomo=locomo_file(tmp_path))
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "ui" and figures["bare_ms"] > 0 and figures["anima_ms"] > 0
    assert figures["startup_ratio"] > 0 and figures["anima_ready_ms"] > 0
    assert 0 <= figures["p99_stall_ms"] <= figures["max_stall_ms"]
    assert figures["table_fill_ms"] > 0 and figures["table_fill_ms_reference"] > 0
    # Conversations (issue 39): the longest opened, a search across all, with the history and the sidebar filled.
    assert figures["history_messages"] == 10_000 and figures["conversations"] == 200
    assert figures["open_conversation_ms"] > 0 and figures["search_ms"] > 0 and figures["paint_ratio"] > 0
    assert 0 <= figures["stall_p99_ms"] <= figures["stall_max_ms"]  # a fake model at the default model's pace
    # The default model's stream too, and how much of its longest stall the UI thread itself worked.
    assert 0 <= figures["stall_p99_ms_default_model"] <= figures["stall_max_ms_default_model"]
    assert 0 <= figures["stall_worked_max_ms_default_model"] <= figures["stall_max_ms_default_model"]
    assert figures["load_while_streaming"] >= 0
