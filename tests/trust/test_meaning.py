"""The checks read meaning with the shipped embedder, whatever the companion's memory embeds with."""

from anima.models.embedder import MiniLMEmbedder
from anima.models.fake import FakeEmbedder
from anima.trust import meaning


def test_the_checks_read_with_the_shipped_embedder_once_a_process():
    assert isinstance(meaning.embedder(), MiniLMEmbedder)
    assert meaning.embedder() is meaning.shipped()


def test_a_caller_may_read_with_another_and_put_it_back():
    fake = FakeEmbedder()
    before = meaning.reading(lambda: fake)
    try:
        assert meaning.embedder() is fake
    finally:
        meaning.reading(before)
    assert meaning.embedder() is meaning.shipped()
