"""`anima bench mind` at its smallest: the default model raw and through our interface on the same long prompt,
structured output, and the embedder, each beside its reference in the same run."""

import pytest

from tests.bench.running import bench, locomo_file


@pytest.mark.slow  # runs the real default model
def test_the_model_through_our_interface_is_reported_beside_raw_llama_cpp(tmp_path):
    ran = bench(
        "mind",
        "--runs",
        "1",
        "--structured-calls",
        "1",
        "--embed-texts",
        "5",
        "--locomo",
        str(locomo_file(tmp_path, sessions=12)),
    )
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "mind" and figures["prompt_tokens"] > 0
    assert figures["ttft_ms"] > 0 and figures["raw_ttft_ms"] > 0 and figures["ttft_ratio"] > 0
    assert figures["tok_s"] > 0 and figures["raw_tok_s"] > 0 and figures["tok_s_ratio"] > 0
    assert 0 <= figures["structured_valid_rate"] <= 1 and figures["structured_median_s"] > 0
    assert figures["embed_per_s"] > 0
