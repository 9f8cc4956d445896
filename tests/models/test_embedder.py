import numpy as np

from anima.models.embedder import MiniLMEmbedder


def test_the_bundled_minilm_embeds_offline_normalised_and_by_meaning():
    e = MiniLMEmbedder().start_loading()
    v = e.embed_batch(["My dog is called Max.", "I have a puppy named Max.", "The quarterly tax return is due."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert np.allclose(e.embed("My dog is called Max."), v[0], atol=1e-5)
    assert e.embed_batch([]).shape == (0, 384)
