import logging

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


def test_a_graph_of_several_shards_finds_what_exact_search_finds_and_forgets_across_them(monkeypatch):
    """The graph is read back a shard at a time (hnswlib holds the GIL while it reads one, and the window waits
    that long), so it is built as shards of SHARD labels, each searched, the results merged."""
    monkeypatch.setattr(VectorIndex, "SHARD", 256)
    rng = np.random.default_rng(4)
    centers = rng.normal(size=(40, 384))
    data = unit((centers[rng.integers(0, 40, 1100)] + 0.6 * rng.normal(size=(1100, 384))).astype(np.float32))
    index = VectorIndex(384)
    index.add_many([("message", i) for i in range(1000)], data[:1000])
    index.build()
    assert [s.get_current_count() for s in index._shards] == [256, 256, 256, 232]
    # What comes after joins the last shard, then begins new ones (searched exactly until then).
    index.add_many([("message", i) for i in range(1000, 1100)], data[1000:])
    assert index.wait_graphed(10)
    assert [s.get_current_count() for s in index._shards] == [256, 256, 256, 256, 76]
    for gone in (3, 300, 700, 1050):
        index.remove(("message", gone))
    queries = unit((centers[:20] + 0.6 * rng.normal(size=(20, 384))).astype(np.float32))
    approx = [[k for k, _ in index.search(q, 10)] for q in queries]
    exact = [[k for k, _ in index.search(q, 10, exact=True)] for q in queries]
    overlap = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True)])
    assert overlap >= 0.95
    for gone in (3, 300, 700, 1050):
        found = [k for k, _ in index.search(data[gone], 5)]
        assert ("message", gone) not in found and found  # its neighbours are still found
    assert index.search(data[301], 1)[0][0] == ("message", 301)


def test_stored_vectors_are_read_in_order_across_chunks_and_one_of_another_dimension_is_left_out(caplog):
    from anima.retrieval import vectors

    rng = np.random.default_rng(3)
    want = rng.standard_normal((vectors.READ_CHUNK + 5, 8)).astype("<f4")
    rows = [("message", i, want[i].tobytes()) for i in range(len(want))]
    rows.insert(7, ("memory", 99, np.zeros(6, dtype="<f4").tobytes()))  # an older embedder's, 6 dimensions
    with caplog.at_level(logging.WARNING, logger="anima.retrieval.vectors"):
        stored = vectors.read(rows, 8, spare=3)
    assert stored.keys == [("message", i) for i in range(len(want))]
    assert np.array_equal(stored.vectors, want)
    assert stored.matrix.shape == (len(want) + 3, 8) and not stored.matrix[len(want) :].any()
    assert "skipping a stored vector of dimension 6 (index is 8)" in caplog.text
