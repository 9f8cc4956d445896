"""`anima bench ui` at its smallest: launch to first paint against a bare PySide6 window, the event loop's stalls
while a reply streams and long jobs run, and a table filled against Qt's own."""

import pytest

from bench.ui import PACE, stall_figures, stall_rows
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
    assert 0 <= figures["stall_p99_ms"] <= figures["stall_max_ms"]  # the real default model streaming (issue 39)
    # How much of its longest stall the UI thread itself worked, and a fake model at the default model's pace.
    assert 0 <= figures["stall_worked_max_ms_default_model"] <= figures["stall_max_ms"]
    assert 0 <= figures["stall_p99_ms_paced"] <= figures["stall_max_ms_paced"]
    assert figures["load_while_streaming"] >= 0


def test_the_stall_figures_are_the_default_models_and_the_paced_ones_say_so():
    """Issue 39's `stall_p99_ms` and `stall_max_ms` are the stalls while the real default model streams; the fake
    model at PACE tokens/s has its own, `_paced`; the table's target rows show both, each labelled."""
    streaming = [float(ms) for ms in range(1, 201)]  # the real model: its threads share the CPU with the window
    paced = [1.0] * 98 + [6.0, 7.0]  # the window alone, at the default model's pace
    figures = stall_figures(streaming, paced)
    assert figures == {
        "stall_p99_ms": 198.0,
        "stall_max_ms": 200.0,
        "stall_p99_ms_paced": 6.0,
        "stall_max_ms_paced": 7.0,
    }
    rows = stall_rows(streaming, paced)
    assert [(r[1], r[2]) for r in rows] == [(198.0, 10), (200.0, 50), (6.0, 10), (7.0, 50)]
    assert all("default model" in r[0] for r in rows[:2])
    assert all(f"fake model streams at {PACE} tokens/s" in r[0] and "_paced" in r[0] for r in rows[2:])
