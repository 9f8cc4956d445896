"""`anima bench store` at its smallest: a writer killed mid-write a few times; no acknowledged write lost, every
open passes its integrity checks, and the last line gives the figures."""

import pytest

from tests.bench.running import bench


@pytest.mark.slow  # kills and reopens a real encrypted soul
def test_the_crash_loop_loses_no_acknowledged_write_and_reports_its_figures():
    ran = bench("store", "--kills", "3")
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "store" and figures["kills"] == 3 and figures["acknowledged_writes"] > 0
    assert figures["acknowledged_lost"] == 0 and figures["integrity_failures"] == 0
    assert 0 < figures["open_p50_ms"] <= figures["open_p95_ms"]
    assert 0 < figures["write_p50_ms"] <= figures["write_p95_ms"]
