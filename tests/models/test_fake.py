import threading

import numpy as np

from anima.models.chat import StopReason
from anima.models.fake import FakeChatModel, FakeEmbedder


def test_the_fake_streams_what_was_enqueued_and_records_the_call():
    model = FakeChatModel().enqueue("Hello there, friend.")
    stream = model.stream([{"role": "user", "content": "hi"}])
    assert list(stream) == ["Hello ", "there, ", "friend."]
    assert stream.stop_reason is StopReason.END
    assert model.history[0]["messages"] == [{"role": "user", "content": "hi"}]


def test_the_fake_honours_cancel_stop_strings_and_the_token_cap():
    cancel = threading.Event()
    cancel.set()
    model = FakeChatModel().enqueue("one two three", "one two END three", "a b c d e")
    s = model.stream([], cancel=cancel)
    assert s.read() == "" and s.stop_reason is StopReason.CANCELLED
    s = model.stream([], stop=("END",))
    assert s.read() == "one two " and s.stop_reason is StopReason.STOP_SEQUENCE
    s = model.stream([], max_tokens=2)
    assert s.read() == "a b " and s.stop_reason is StopReason.LENGTH


def test_the_fake_embedder_is_normalised_and_puts_shared_words_near():
    e = FakeEmbedder()
    v = e.embed_batch(["my cat Miso", "the cat Miso sleeps", "quarterly tax forms"])
    assert v.shape == (3, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert v[0] @ v[1] > v[0] @ v[2]


def test_the_fake_embedder_reads_of_a_long_text_what_the_real_one_reads():
    """As MiniLMEmbedder, the first READ_MOST characters: a pasted million characters embeds as its beginning (and
    in milliseconds), whatever comes after it."""
    import time

    from anima.models.embedder import READ_MOST

    e = FakeEmbedder()
    start = "a letter about the garden and the rain " * (READ_MOST // 39 + 1)
    t = time.perf_counter()
    pasted = e.embed(start + "tax invoices quarterly numbers " * 30_000)
    assert time.perf_counter() - t < 0.5
    assert np.allclose(pasted, e.embed(start))
    assert not np.allclose(e.embed("tax invoices quarterly numbers"), e.embed("garden rain letter"))
