"""The shipped embedder (all-MiniLM-L6-v2) as the checks read meaning with it: one a process, loaded the first time
a check asks (~1 s on two cores), whatever embedder the companion's memory uses (a test's fake one included: what a
text means to the checks does not depend on it). None where its file is missing (a copy installed without `make
setup`): the checks then read structure and words alone, and say so in the log."""

import functools
import logging
from collections.abc import Callable

from ..models.embedder import MODEL_FILE, Embedder, MiniLMEmbedder, onnx_dir

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def shipped() -> Embedder | None:
    folder = onnx_dir()
    if not (folder / MODEL_FILE).is_file():
        log.warning("the embedder's file is not in %s: the checks read structure and words alone", folder)
        return None
    return MiniLMEmbedder(onnx=folder)


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
