"""`anima bench retrieval --locomo PATH`: evidence recall over a LoCoMo-format conversation, questions without
evidence (category 5) left out."""

from tests.bench.running import bench, locomo_file


def test_recall_at_each_k_over_the_questions_with_evidence(tmp_path):
    ran = bench("retrieval", "--locomo", str(locomo_file(tmp_path)))
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "retrieval" and figures["questions"] == 3
    recalls = [figures[f"recall@{k}"] for k in (1, 5, 10, 20)]
    assert recalls == sorted(recalls) and 0 < recalls[0] and recalls[-1] == 1.0  # more found at a larger k


def test_a_split_is_measured_alone_and_the_vectors_are_kept_for_the_next_run(tmp_path):
    import json
    import os
    from pathlib import Path

    one = json.loads(locomo_file(tmp_path).read_text())[0]
    path = tmp_path / "two.json"
    path.write_text(json.dumps([one, {**one, "sample_id": "other", "qa": one["qa"][:1]}]))
    ran = bench("retrieval", "--locomo", str(path), "--conversations", "other")
    assert ran.returncode == 0, ran.err
    assert ran.figures["questions"] == 1 and "1 conversations" in ran.out
    assert "recall by category" in ran.out
    kept = Path(os.environ["ANIMA_CACHE"]) / "bench-embeddings" / "all-MiniLM-L6-v2"
    assert len((kept / "digests.txt").read_text().split()) >= 24  # the 24 turns, and the question asked
    assert bench("retrieval", "--locomo", str(path), "--conversations", "nobody").returncode != 0
