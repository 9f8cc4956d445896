"""`anima bench turn` at its smallest: time to first token of a turn, cold and warm, and raw llama.cpp's on the
same prompt, in the same run."""

import pytest

from tests.bench.running import bench, locomo_file


@pytest.mark.slow  # runs the real default model
def test_cold_and_warm_first_tokens_are_reported_beside_raw_llama_cpp(tmp_path):
    ran = bench("turn", "--transcript-tokens", "100", locomo=locomo_file(tmp_path))
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "turn" and figures["prompt_tokens"] > 0
    for key in (
        "cold_ttft_ms",
        "warm_ttft_ms",
        "warm_read_along_ttft_ms",
        "warm_first_words_shown_ms",
        "raw_cold_ttft_ms",
        "raw_warm_ttft_ms",
        "raw_same_as_warm_ttft_ms",
        "raw_shipped_file_cold_ttft_ms",
    ):
        assert figures[key] > 0, key
