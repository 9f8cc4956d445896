"""An embedder that keeps every vector it made on disk, so a benchmark run again embeds only what is new.

Embedding the ~2,800 turns of the LoCoMo dev conversations with MiniLM takes minutes on a shared two-core machine;
a run that changes only how recall ranks needs none of them again. Vectors are kept by the text they were made
from (its SHA-256), in the cache folder (anima.paths.cache(): derived files, never the soul), one folder per
model: a `.npy` matrix and the texts' digests beside it, written whole and renamed into place.
"""

import hashlib
import os
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt

from anima import paths
from anima.models.embedder import Embedder


def folder(model: str) -> Path:
    return paths.cache() / "bench-embeddings" / model


class CachedEmbedder(Embedder):
    def __init__(self, inner: Embedder, where: Path | None = None):
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.where = where or folder(inner.name)
        self._lock = threading.Lock()
        self._rows: dict[str, int] = {}
        self._matrix = np.zeros((0, self.dim), dtype=np.float32)
        digests, vectors = self.where / "digests.txt", self.where / "vectors.npy"
        if digests.exists() and vectors.exists():
            keys = digests.read_text().split()
            matrix = np.load(vectors)
            if matrix.shape == (len(keys), self.dim):  # a torn pair (two runs at once) is made again
                self._rows = {k: i for i, k in enumerate(keys)}
                self._matrix = matrix.astype(np.float32)
        self.made = 0  # vectors made by the model in this process (the rest came from disk)

    @staticmethod
    def digest(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        keys = [self.digest(t) for t in texts]
        with self._lock:
            new = list(dict.fromkeys(k for k in keys if k not in self._rows))
        if new:
            text_of = dict(zip(keys, texts, strict=True))
            made = self.inner.embed_batch([text_of[k] for k in new])
            with self._lock:
                fresh = [(k, v) for k, v in zip(new, made, strict=True) if k not in self._rows]
                for k, _ in fresh:
                    self._rows[k] = len(self._rows)
                if fresh:
                    self._matrix = np.vstack([self._matrix, np.stack([v for _, v in fresh])])
                    self.made += len(fresh)
        with self._lock:
            return self._matrix[[self._rows[k] for k in keys]].copy()

    def save(self) -> None:
        """Writes what is kept, whole (a run stopped half way leaves the last complete pair)."""
        with self._lock:
            keys = sorted(self._rows, key=self._rows.__getitem__)
            matrix = self._matrix
        self.where.mkdir(parents=True, exist_ok=True)
        tmp = f".{os.getpid()}.tmp"
        np.save(self.where / f"vectors{tmp}.npy", matrix)
        (self.where / f"digests{tmp}").write_text("\n".join(keys))
        os.replace(self.where / f"vectors{tmp}.npy", self.where / "vectors.npy")
        os.replace(self.where / f"digests{tmp}", self.where / "digests.txt")
