"""The in-memory vector index over the embeddings stored in the soul.

Vectors live in the encrypted database; this index is only ever in memory
(never an hnswlib file on disk). Exact search over a numpy matrix answers from
the first moment; the approximate hnswlib index is built in the background and
takes over once ready. Forgetting an item removes it from both at once.
"""

import logging
import threading

import hnswlib
import numpy as np

log = logging.getLogger(__name__)

Key = tuple[str, int]  # (item kind, item id)


class VectorIndex:
    # Below this many vectors exact search is as fast as hnswlib, and exact.
    APPROXIMATE_FROM = 5000

    def __init__(self, dim: int = 384, ef_search: int = 128, m: int = 24, ef_construction: int = 200):
        self.dim = dim
        self.ef_search, self.m, self.ef_construction = ef_search, m, ef_construction
        self._lock = threading.RLock()
        self._keys: list[Key | None] = []          # label -> key (None once removed)
        self._labels: dict[Key, int] = {}          # key -> label
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._count = 0
        self._hnsw: hnswlib.Index | None = None
        self._building = False

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def approximate(self) -> bool:
        return self._hnsw is not None

    def load(self, rows) -> int:
        """Add (kind, id, vector-bytes) rows as read from the embeddings table. Returns how many were usable."""
        keys, vectors = [], []
        for kind, item_id, blob in rows:
            v = np.frombuffer(blob, dtype="<f4")
            if v.size != self.dim:
                log.warning("skipping a stored vector of dimension %d (index is %d)", v.size, self.dim)
                continue
            keys.append((kind, item_id))
            vectors.append(v)
        if keys:
            self.add_many(keys, np.vstack(vectors))
        return len(keys)

    def add_many(self, keys: list[Key], vectors: np.ndarray) -> None:
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        with self._lock:
            for key in keys:
                if key in self._labels:
                    self._remove_locked(key)
            start = self._count
            need = start + len(keys)
            if need > len(self._matrix):
                grown = np.zeros((max(need, 2 * len(self._matrix), 1024), self.dim), dtype=np.float32)
                grown[:start] = self._matrix[:start]
                self._matrix = grown
            self._matrix[start:need] = vectors
            for i, key in enumerate(keys):
                self._keys.append(key)
                self._labels[key] = start + i
            self._count = need
            if self._hnsw is not None:
                if need > self._hnsw.get_max_elements():
                    self._hnsw.resize_index(max(need, 2 * self._hnsw.get_max_elements()))
                self._hnsw.add_items(vectors, np.arange(start, need))
        if self._hnsw is None and len(self) >= self.APPROXIMATE_FROM:
            self.build_in_background()

    def add(self, key: Key, vector) -> None:
        self.add_many([key], np.asarray(vector)[None, :])

    def remove(self, key: Key) -> None:
        with self._lock:
            if key in self._labels:
                self._remove_locked(key)

    def _remove_locked(self, key: Key) -> None:
        label = self._labels.pop(key)
        self._keys[label] = None
        self._matrix[label] = 0.0
        if self._hnsw is not None:
            self._hnsw.mark_deleted(label)

    def build_in_background(self) -> threading.Thread | None:
        with self._lock:
            if self._building or self._hnsw is not None:
                return None
            self._building = True
        t = threading.Thread(target=self.build, name="vector index", daemon=True)
        t.start()
        return t

    def build(self) -> None:
        """Build the approximate index from the exact matrix; searches stay exact until it is done."""
        with self._lock:
            count = self._count
            data = self._matrix[:count].copy()
        index = hnswlib.Index(space="ip", dim=self.dim)
        index.init_index(max_elements=max(count * 2, 1024), ef_construction=self.ef_construction, M=self.m)
        index.set_num_threads(2)
        if count:
            index.add_items(data, np.arange(count))
        index.set_ef(self.ef_search)
        with self._lock:
            # Catch up with what changed while building.
            if self._count > count:
                index.add_items(self._matrix[count:self._count], np.arange(count, self._count))
            for label in range(self._count):
                if self._keys[label] is None:
                    index.mark_deleted(label)
            self._hnsw = index
            self._building = False
        log.info("approximate vector index ready over %d vectors", len(self))

    def vector(self, key: Key):
        with self._lock:
            label = self._labels.get(key)
            return None if label is None else self._matrix[label].copy()

    def search(self, query, k: int, exact: bool = False) -> list[tuple[Key, float]]:
        """The k nearest keys by cosine similarity (vectors are normalised), best first."""
        q = np.asarray(query, dtype=np.float32).reshape(self.dim)
        with self._lock:
            live = len(self._labels)
            if live == 0:
                return []
            k = min(k, live)
            if self._hnsw is not None and not exact:
                self._hnsw.set_ef(max(self.ef_search, k))
                labels, distances = self._hnsw.knn_query(q[None, :], k=k)
                return [(self._keys[int(lab)], 1.0 - float(d)) for lab, d in zip(labels[0], distances[0])
                        if self._keys[int(lab)] is not None]
            scores = self._matrix[:self._count] @ q
            alive = np.fromiter((key is not None for key in self._keys), dtype=bool, count=self._count)
            scores = np.where(alive, scores, -np.inf)
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top])]
            return [(self._keys[int(i)], float(scores[i])) for i in top]
