"""`anima bench bundle`: time to a painted window and memory after one turn, from source (and from the bundle,
where `make dist` built one), beside a bare PySide6 window."""

import pytest

from tests.bench.running import bench
from tests.test_bundle import BUNDLE


@pytest.mark.slow  # launches windows and runs the selftest on the real models
def test_paint_and_memory_are_reported_from_source_and_from_the_bundle_where_there_is_one():
    ran = bench("bundle", "--launches", "1")
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "bundle" and figures["bundle"] == BUNDLE.exists()
    assert figures["bare_ms"] > 0 and figures["source_paint_ms"] > 0
    assert figures["rss_source_onnx_mb"] > 0 and figures["rss_source_torch_mb"] > 0
    if BUNDLE.exists():
        assert figures["bundle_paint_ms"] > 0 and figures["rss_bundle_mb"] > 0 and figures["size_mb"] > 0
