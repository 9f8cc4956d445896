"""`anima bench scale` at its smallest: a soul of many messages against an empty one and a small one, same run."""

import pytest

from tests.bench.running import bench, locomo_file


@pytest.mark.slow  # builds souls, runs the real default model and launches windows
def test_a_large_soul_is_reported_against_an_empty_one(tmp_path):
    # The built souls are cached in the temporary folder: the test's own.
    ran = bench(
        "scale",
        "--messages",
        "60",
        "--reference",
        "20",
        "--windows",
        "1",
        "--session-turns",
        "3",
        "--locomo",
        str(locomo_file(tmp_path)),
        env={"TMPDIR": str(tmp_path)},
    )
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "scale" and figures["messages"] == 60
    for key in (
        "first_token_ms",
        "first_token_ms_empty",
        "first_token_ms_20",
        "first_token_cold_ms",
        "first_token_cold_ms_empty",
        "recall_ms",
        "recall_p95_ms",
        "export_s",
        "import_s",
        "rss_mb",
    ):
        assert figures[key] > 0, key
    assert figures["forget_lock_ms"] >= 0 and figures["forget_s"] > 0
