"""The benchmarks' embedding cache: a text embedded once is read from disk after, by any later run."""

import numpy as np

from anima.models.fake import FakeEmbedder
from bench.embeddings import CachedEmbedder


class Counting(FakeEmbedder):
    def __init__(self):
        super().__init__()
        self.asked: list[str] = []

    def embed_batch(self, texts):
        self.asked += texts
        return super().embed_batch(texts)


def test_a_later_run_embeds_only_the_texts_it_has_not_seen(tmp_path):
    first = CachedEmbedder(Counting(), tmp_path)
    made = first.embed_batch(["a red kite", "the blue sea", "a red kite"])
    assert first.inner.asked == ["a red kite", "the blue sea"]  # one text asked for twice is embedded once
    first.save()

    later = CachedEmbedder(Counting(), tmp_path)
    again = later.embed_batch(["the blue sea", "a green field", "a red kite"])
    assert later.inner.asked == ["a green field"]
    assert np.array_equal(again[0], made[1]) and np.array_equal(again[2], made[0])
    assert np.array_equal(again[1], FakeEmbedder().embed("a green field"))
    assert later.made == 1


def test_vectors_that_do_not_match_their_digests_are_made_again(tmp_path):
    cache = CachedEmbedder(Counting(), tmp_path)
    cache.embed_batch(["one", "two"])
    cache.save()
    (tmp_path / "digests.txt").write_text(CachedEmbedder.digest("one"))  # torn: two vectors, one digest

    again = CachedEmbedder(Counting(), tmp_path)
    again.embed_batch(["one"])
    assert again.inner.asked == ["one"]
