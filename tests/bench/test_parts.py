"""`anima bench parts --no-model`: the store's figures for parts (storing, the index, recall, patches)."""

from tests.bench.running import bench


def test_the_stores_figures_come_without_a_model():
    ran = bench("parts", "--no-model", "--parts", "60")
    assert ran.returncode == 0, ran.err
    assert "Parts in the store (60 parts)" in ran.out
    figures = ran.figures
    assert figures["bench"] == "parts" and figures["recall_p95_ms_10k"] > 0 and figures["patch_p95_ms"] > 0
    assert figures["valid_rate"] is None and figures["warm_ttft_ms_parts"] is None  # what only the model gives
