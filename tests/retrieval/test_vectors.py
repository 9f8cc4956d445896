import numpy as np

from anima.retrieval.vectors import VectorIndex


def unit(rows):
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_exact_until_built_then_approximate_and_they_agree():
    rng = np.random.default_rng(0)
    # Clustered like real embeddings (topics), not uniform noise.
    centers = rng.normal(size=(60, 384))
    data = unit((centers[rng.integers(0, 60, 3000)] + 0.6 * rng.normal(size=(3000, 384))).astype(np.float32))
    index = VectorIndex(384)
    index.add_many([("memory", i) for i in range(3000)], data)
    queries = unit((centers[:20] + 0.6 * rng.normal(size=(20, 384))).astype(np.float32))
    exact = [[k for k, _ in index.search(q, 10)] for q in queries]
    assert not index.approximate
    index.build()
    assert index.approximate
    approx = [[k for k, _ in index.search(q, 10)] for q in queries]
    overlap = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True)])
    assert overlap >= 0.95
    assert exact[0] == [k for k, _ in index.search(queries[0], 10, exact=True)]


def test_a_removed_key_is_never_returned_by_either_search():
    rng = np.random.default_rng(1)
    data = unit(rng.normal(size=(500, 384)).astype(np.float32))
    index = VectorIndex(384)
    index.add_many([("message", i) for i in range(500)], data)
    index.remove(("message", 7))
    assert ("message", 7) not in [k for k, _ in index.search(data[7], 5)]
    index.build()
    index.remove(("message", 8))
    for key in (("message", 7), ("message", 8)):
        assert key not in [k for k, _ in index.search(data[key[1]], 5)]
    assert len(index) == 498
