"""`anima bench reflection` at its smallest: quick and deep reflection on the default model, and a reply's first
token while deep reflection runs against one when idle."""

import pytest

from tests.bench.running import bench, locomo_file


@pytest.mark.slow  # runs the real default model
def test_reflection_costs_and_the_reply_beside_it_are_reported(tmp_path):
    ran = bench("reflection", "--messages", "8", "--quick-runs", "1", "--offsets", "1", locomo=locomo_file(tmp_path))
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "reflection" and figures["quick_s"] > 0 and figures["deep_s_200"] > 0
    assert figures["reply_latency_ratio_during_deep"] > 0
