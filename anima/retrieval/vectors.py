"""The in-memory vector index over the embeddings stored in the soul.

Vectors live in the encrypted database; this index is only ever in memory
(never an hnswlib file on disk). Exact search over a numpy matrix answers from
the first moment; the approximate hnswlib index is built in the background and
takes over once ready. Forgetting an item removes it from both at once.

The built graph can be kept in the soul and read back (snapshot.py, through
the indexer): restore() takes it with the vectors as stored now. Vectors added
after the graph was built, or while it is read back, wait in a short tail that
is searched exactly beside the graph, and join the graph a few at a time in the
background, so a turn never waits for the graph to grow.
"""

import logging
import threading
import time
from collections.abc import Callable, Iterable, Set
from typing import Any, cast

import hnswlib
import numpy as np
import numpy.typing as npt

from . import snapshot

log = logging.getLogger(__name__)

Key = tuple[str, int]  # (item kind, item id)
Row = tuple[str, int, bytes]  # (kind, id, vector bytes), as read from the embeddings table
Matrix = npt.NDArray[np.float32]


class VectorIndex:
    # Below this many vectors exact search is as fast as hnswlib, and exact.
    APPROXIMATE_FROM = 5000
    # At most this many new vectors join the graph in the caller's thread (a turn's message and reply); more
    # join in the background, a batch at a time, searched exactly until then.
    GRAPH_AT_ONCE = 64
    GRAPH_BATCH = 32

    def __init__(self, dim: int = 384, ef_search: int = 128, m: int = 24, ef_construction: int = 200):
        self.dim = dim
        self.ef_search, self.m, self.ef_construction = ef_search, m, ef_construction
        self._lock = threading.RLock()
        self._built_listeners: list[Callable[[], None]] = []
        self._clear()

    def _clear(self) -> None:
        self._keys: list[Key | None] = []  # label -> key (None once removed)
        self._labels: dict[Key, int] = {}  # key -> label
        self._matrix: Matrix = np.zeros((0, self.dim), dtype=np.float32)
        self._count = 0
        self._hnsw: hnswlib.Index | None = None
        self._graphed = 0  # labels below this are in the graph
        self._building = False
        self._hold = False  # no graph built: a kept one is being read back
        self._grapher: threading.Thread | None = None
        self._generation = getattr(self, "_generation", 0) + 1  # a build of an older content is thrown away
        self.changes = getattr(self, "changes", 0) + 1  # bumped whenever what a search can find changes

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def approximate(self) -> bool:
        return self._hnsw is not None

    @property
    def pending(self) -> int:
        """Vectors waiting to join the graph (searched exactly meanwhile)."""
        with self._lock:
            return self._count - self._graphed if self._hnsw is not None else 0

    def on_built(self, listener: Callable[[], None]) -> None:
        """`listener()` hears, from the building thread, that a graph was built and took over."""
        self._built_listeners.append(listener)

    def load(self, rows: Iterable[Row]) -> int:
        """Add (kind, id, vector-bytes) rows as read from the embeddings table. Returns how many were usable."""
        stored = read(rows, self.dim, spare=0)
        if stored.keys:
            self.add_many(stored.keys, stored.vectors)
        return len(stored.keys)

    def replace(self, stored: "Stored", build: bool = True) -> int:
        """Hold exactly these vectors (read()), and nothing else; their matrix is taken as it is, not copied.
        `build`: False while a kept graph is read back (prepare), so none is built meanwhile."""
        with self._lock:
            self._clear()
            self._hold = not build
            self._matrix, self._count = stored.matrix, len(stored.keys)
            self._keys = list(stored.keys)
            self._labels = {k: i for i, k in enumerate(stored.keys)}  # (self._keys is a copy of them)
        if build and len(self) >= self.APPROXIMATE_FROM:
            self.build_in_background()
        return len(self)

    def add_many(self, keys: list[Key], vectors: npt.ArrayLike) -> None:
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
            self.changes += 1
            if self._hnsw is not None and not self._building:
                if self._graphed == start and len(keys) <= self.GRAPH_AT_ONCE:
                    self._graph_locked(start, need)
                else:
                    self._graph_tail_in_background()
        if self._hnsw is None and not self._hold and len(self) >= self.APPROXIMATE_FROM:
            self.build_in_background()

    def add(self, key: Key, vector: npt.ArrayLike) -> None:
        self.add_many([key], np.asarray(vector)[None, :])

    def remove(self, key: Key) -> None:
        with self._lock:
            if key in self._labels:
                self._remove_locked(key)

    def _remove_locked(self, key: Key) -> None:
        self.changes += 1
        label = self._labels.pop(key)
        self._keys[label] = None
        self._matrix[label] = 0.0
        if self._hnsw is not None and label < self._graphed:
            self._hnsw.mark_deleted(label)

    def _graph_locked(self, start: int, end: int) -> None:
        """Labels start..end join the graph (the lock held); removed ones are marked so at once."""
        hnsw = self._hnsw
        assert hnsw is not None  # called only where there is a graph
        if end > hnsw.get_max_elements():
            hnsw.resize_index(max(end, 2 * hnsw.get_max_elements()))
        hnsw.add_items(self._matrix[start:end], np.arange(start, end), num_threads=1)
        for label in range(start, end):
            if self._keys[label] is None:
                hnsw.mark_deleted(label)
        self._graphed = end

    def _graph_tail_in_background(self) -> None:
        if self._grapher is not None:
            return
        generation = self._generation

        def run() -> None:
            while True:
                with self._lock:
                    if self._generation != generation or self._hnsw is None:
                        return
                    start, end = self._graphed, min(self._count, self._graphed + self.GRAPH_BATCH)
                    if start >= end:
                        self._grapher = None
                        return
                    self._graph_locked(start, end)
                time.sleep(0.001)  # a search waiting for the lock goes first

        self._grapher = threading.Thread(target=run, name="vector graph tail", daemon=True)
        self._grapher.start()

    def wait_graphed(self, timeout: float | None = None) -> bool:
        """Until the tail has joined the graph (tests and benchmarks); False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.pending:
            if end is not None and time.monotonic() > end:
                return False
            time.sleep(0.005)
        return True

    def build_in_background(self) -> threading.Thread | None:
        with self._lock:
            self._hold = False
            if len(self) < self.APPROXIMATE_FROM:
                return None
            if self._building or self._hnsw is not None:
                return None
            self._building = True
        t = threading.Thread(target=self.build, name="vector index", daemon=True)
        t.start()
        return t

    def build(self) -> None:
        """Build the approximate index from the exact matrix; searches stay exact until it is done."""
        with self._lock:
            self._building = True
            generation = self._generation
            count = self._count
            data = self._matrix[:count].copy()
        index = hnswlib.Index(space="ip", dim=self.dim)
        index.init_index(max_elements=max(count * 2, 1024), ef_construction=self.ef_construction, M=self.m)
        index.set_num_threads(2)
        if count:
            index.add_items(data, np.arange(count))
        index.set_ef(self.ef_search)
        with self._lock:
            if self._generation != generation:
                return  # the index was replaced meanwhile: this graph is of content no longer held
            # Catch up with what changed while building.
            if self._count > count:
                if self._count > index.get_max_elements():
                    index.resize_index(2 * self._count)
                index.add_items(self._matrix[count : self._count], np.arange(count, self._count))
            for label in range(self._count):
                if self._keys[label] is None:
                    index.mark_deleted(label)
            self._hnsw = index
            self._graphed = self._count
            self._building = False
        log.info("approximate vector index ready over %d vectors", len(self))
        for listener in self._built_listeners:
            listener()

    def snapshot(self) -> tuple[dict[str, Any], list[Key | None]] | None:
        """The graph as hnswlib states it, and the item of each of its labels; None while there is none."""
        with self._lock:
            if self._hnsw is None or self._building:
                return None
            (state,) = self._hnsw.__getstate__()
            return state, list(self._keys[: self._graphed])

    def restore(
        self, state: dict[str, Any], keys: list[Key | None], rows: Iterable[Row], changed: Set[Key] = frozenset()
    ) -> int:
        """Hold exactly the (kind, id, vector-bytes) `rows`, with the graph snapshot.unpack() read (`state`,
        `keys`: the item of each of its labels). An item whose vector changed since the graph was kept
        (`changed`) or that is new to it joins it afresh; one no longer in `rows` is marked deleted. Returns how
        many vectors it holds. snapshot.BadSnapshot when the graph cannot be used (nothing changed then)."""
        return self.install(self.prepare(state, keys, read(rows, self.dim), changed))

    def prepare(
        self, state: dict[str, Any], keys: list[Key | None], stored: "Stored", changed: Set[Key] = frozenset()
    ) -> "_Restored":
        """restore()'s work, done without the lock (searches go on meanwhile); install() puts it in place.
        `stored` (read()) may be what replace() holds: when the graph's labels are the stored vectors' order, as
        they are unless items changed since it was kept, its matrix is shared, not copied."""
        labels = snapshot.labels_of(state)
        n, m = len(keys), len(stored.keys)
        # Every label below the graph's count is one of its nodes (the graph grows by whole runs of labels).
        if len(labels) != n or (n and not np.array_equal(np.sort(labels), np.arange(n, dtype=labels.dtype))):
            raise snapshot.BadSnapshot("its nodes and its items do not match")
        by_key = {k: i for i, k in enumerate(keys) if k is not None}
        # Where each stored vector goes: its label in the graph, or -1 (new to it, or changed since).
        at = np.fromiter((by_key.get(k, -1) for k in stored.keys), dtype=np.int64, count=m)
        if changed:
            for i, key in enumerate(stored.keys):
                if key in changed:
                    at[i] = -1
        known = at >= 0
        everything = bool(known.all())
        if everything and n == m and np.array_equal(at, np.arange(m)):
            matrix = stored.matrix
            held: list[Key | None] = list(stored.keys)  # in the graph's order already
            fresh = np.zeros(0, dtype=np.int64)
        else:
            fresh = np.nonzero(~known)[0]
            matrix = np.zeros((n + len(fresh) + SPARE, self.dim), dtype=np.float32)
            matrix[at[known]] = stored.vectors if everything else stored.vectors[known]
            alive = np.zeros(n, dtype=bool)
            alive[at[known]] = True
            held = [k if a else None for k, a in zip(keys, alive.tolist(), strict=True)]
        node_of = np.empty(n, dtype=np.int64)  # a label's node in the graph
        node_of[labels.astype(np.int64)] = np.arange(n)
        index = snapshot.fill(state, node_of[at[known]], stored.vectors if everything else stored.vectors[known])
        for label in [i for i, k in enumerate(held) if k is None]:
            try:
                index.mark_deleted(label)
            except RuntimeError:
                pass  # already marked when it was kept
        index.set_ef(self.ef_search)
        index.set_num_threads(2)
        return _Restored(index, matrix, n, held, [stored.keys[i] for i in fresh.tolist()], stored.vectors[fresh])

    def install(self, restored: "_Restored") -> int:
        """Put a prepared graph and its vectors in place of what is held (the caller follows the feed from the
        point its rows were read)."""
        with self._lock:
            self._clear()
            self._matrix, self._count, self._keys = restored.matrix, restored.count, restored.keys
            self._labels = {k: i for i, k in enumerate(restored.keys) if k is not None}
            self._hnsw, self._graphed = restored.index, restored.count
            if restored.fresh_keys:
                self.add_many(restored.fresh_keys, restored.fresh)
        return len(self)

    def vector(self, key: Key) -> Matrix | None:
        with self._lock:
            label = self._labels.get(key)
            return None if label is None else self._matrix[label].copy()

    def keys(self) -> set[Key]:
        with self._lock:
            return set(self._labels)

    def search(self, query: npt.ArrayLike, k: int, exact: bool = False) -> list[tuple[Key, float]]:
        """The k nearest keys by cosine similarity (vectors are normalised), best first."""
        q = np.asarray(query, dtype=np.float32).reshape(self.dim)
        with self._lock:
            live = len(self._labels)
            if live == 0:
                return []
            k = min(k, live)
            if self._hnsw is not None and not exact:
                found = self._approximate_locked(q, k)
                if found is not None:
                    return found
            return self._exact_locked(q, k, 0, self._count)

    def _exact_locked(self, q: Matrix, k: int, start: int, end: int) -> list[tuple[Key, float]]:
        if end <= start:
            return []
        scores = self._matrix[start:end] @ q
        alive = np.fromiter((key is not None for key in self._keys[start:end]), dtype=bool, count=end - start)
        scores = np.where(alive, scores, -np.inf)
        k = min(k, int(alive.sum()))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        # A removed label scores -inf, below every live one: the k best are live (a key, never None).
        return [(cast(Key, self._keys[start + int(i)]), float(scores[i])) for i in top]

    def _approximate_locked(self, q: Matrix, k: int) -> list[tuple[Key, float]] | None:
        """The graph's nearest and the tail's (exactly), merged; None if the graph cannot answer."""
        tail = self._exact_locked(q, k, self._graphed, self._count)
        in_tail = sum(1 for key in self._keys[self._graphed : self._count] if key is not None)
        in_graph = min(k, len(self._labels) - in_tail)
        found = list(tail)
        if in_graph > 0:
            hnsw = self._hnsw
            assert hnsw is not None  # called only where there is a graph
            hnsw.set_ef(max(self.ef_search, in_graph))
            try:
                labels, distances = hnsw.knn_query(q[None, :], k=in_graph)
            except RuntimeError:  # too few live nodes reachable (many deleted): exact answers instead
                return None
            found += [
                (key, 1.0 - float(d))
                for lab, d in zip(labels[0], distances[0], strict=True)  # k labels and k distances
                if (key := self._keys[int(lab)]) is not None
            ]
        found.sort(key=lambda kv: -kv[1])
        return found[:k]


class _Restored:
    def __init__(
        self,
        index: hnswlib.Index,
        matrix: Matrix,
        count: int,
        keys: list[Key | None],
        fresh_keys: list[Key],
        fresh: Matrix,
    ):
        self.index, self.matrix, self.count, self.keys = index, matrix, count, keys
        self.fresh_keys, self.fresh = fresh_keys, fresh


SPARE = 1024  # rows a matrix read from the soul has to grow into before it is copied to a larger one


class Stored:
    """Vectors as read from the embeddings table: their keys, and a writable matrix of them with room to grow
    (its rows past the keys' are unused)."""

    def __init__(self, keys: list[Key], matrix: Matrix):
        self.keys, self.matrix = keys, matrix

    @property
    def vectors(self) -> Matrix:
        return self.matrix[: len(self.keys)]


def read(rows: Iterable[Row], dim: int, spare: int = SPARE) -> Stored:
    """(kind, id, vector bytes) rows -> Stored (one of another dimension is left out, and said)."""
    width = 4 * dim
    rows = rows if isinstance(rows, list) else list(rows)
    matrix = np.empty((len(rows) + spare, dim), dtype="<f4")
    into = matrix.data.cast("B")  # each row's bytes copied straight in: no joined copy of them all
    keys: list[Key] = []
    for kind, item_id, blob in rows:
        if len(blob) != width:
            log.warning("skipping a stored vector of dimension %d (index is %d)", len(blob) // 4, dim)
            continue
        at = len(keys) * width
        into[at : at + width] = blob
        keys.append((kind, item_id))
    into.release()
    matrix[len(keys) :] = 0.0
    return Stored(keys, matrix)
