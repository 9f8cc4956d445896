"""`anima bench latency` at its smallest: recall latency at two sizes, its recall against exact search, and the
ingest rate against the bare embedder's, from LoCoMo-format turns."""

import re

from tests.bench.running import bench, locomo_file


def test_recall_latency_and_ingest_are_reported_beside_their_references(tmp_path):
    ran = bench("latency", "--sizes", "30,60", "--queries", "5", "--base-texts", "20", locomo=locomo_file(tmp_path))
    assert ran.returncode == 0, ran.err
    # The base texts' vectors are mostly read from the bench's cache: the line says so, and how many were made.
    assert re.search(r"read or embedded \d+ base texts in [\d.]+ s \(\d+ embedded, the rest read\)", ran.out)
    figures = ran.figures
    assert figures["bench"] == "latency" and figures["memories"] == 60
    assert 0 < figures["p50_ms"] <= figures["p95_ms"] and 0 <= figures["recall_vs_exact@10"] <= 1
    assert figures["ingest_per_s"] > 0 and figures["bare_embed_per_s"] > 0 and figures["ingest_ratio"] > 0
