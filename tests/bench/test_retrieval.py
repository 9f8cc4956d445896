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
