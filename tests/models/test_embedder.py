import numpy as np
import pytest

from anima.models.embedder import MiniLMEmbedder

pytestmark = pytest.mark.slow  # the real embedder


def test_the_bundled_minilm_embeds_offline_normalised_and_by_meaning():
    e = MiniLMEmbedder().start_loading()
    v = e.embed_batch(["My dog is called Max.", "I have a puppy named Max.", "The quarterly tax return is due."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert np.allclose(e.embed("My dog is called Max."), v[0], atol=1e-5)
    assert e.embed_batch([]).shape == (0, 384)


def test_a_single_query_through_onnx_is_the_same_vector_as_through_torch():
    e = MiniLMEmbedder().start_loading()
    assert e._model.get()[1] is not None  # the fast path loaded (its failure would be a logged fallback)
    texts = ["What did Caroline say about her painting last week?", "", "猫の名前はミソです 🐱",
             "Привет, как дела? مرحبا", "word " * 2000]  # the last is over the model's 256 tokens
    batch = e.embed_batch(texts)
    for text, expected in zip(texts, batch):
        got = e.embed(text)
        assert got.dtype == np.float32 and got.shape == (384,)
        assert float(got @ expected) > 0.9999, text[:30]
