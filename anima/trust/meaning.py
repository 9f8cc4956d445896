"""The shipped embedder (all-MiniLM-L6-v2) as the checks read meaning with it: one a process, loaded the first time
a check asks (~1 s on two cores; then ~3 ms a sentence), whatever embedder the companion's memory uses (a test's fake
one included: what a text means to the checks does not depend on it). None where it is not installed at all: the
checks then read structure and words alone (stricter: feedback in other words than its lesson is then dropped), and
say so in the log."""

import functools
import logging
from collections.abc import Callable

from ..models.chat import ModelError
from ..models.embedder import MODEL_FILE, Embedder, MiniLMEmbedder, minilm_path, onnx_dir

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def shipped() -> Embedder | None:
    """The ONNX export, or the torch weights it was made from (as MiniLMEmbedder falls back); None without both."""
    folder = onnx_dir()
    try:
        weights: str | None = minilm_path()
    except ModelError:
        weights = None
    if not (folder / MODEL_FILE).is_file() and weights is None:
        log.warning("the embedder is not installed: the checks read structure and words alone")
        return None
    return MiniLMEmbedder(weights, onnx=folder)


# Who reads: the shipped embedder, unless a caller (a test) gives another through `reading`.
_reader: Callable[[], Embedder | None] = shipped


def embedder() -> Embedder | None:
    """The embedder the checks read meaning with now (None: structure and words alone)."""
    return _reader()


def reading(reader: Callable[[], Embedder | None]) -> Callable[[], Embedder | None]:
    """Read with `reader` from now on (a test's, or `lambda: None`: structure and words alone); returns the one it
    replaces, to put back."""
    global _reader
    before, _reader = _reader, reader
    return before
