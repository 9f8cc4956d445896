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

The graph is a row of shards, one hnswlib graph for each run of SHARD labels, searched each and merged. hnswlib
holds the GIL for the whole of reading a graph back (Index.__setstate__ copies every node in): one graph of
100,000 vectors held it 149-225 ms, and the window, which needs the GIL to paint, stalled that long while a large
soul opened. A shard is read back in a few milliseconds, and the window gets the GIL between two of them.
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
    # Labels per shard of the graph: one shard is read back in 15-20 ms on two busy cores (the window's longest
    # stall while a large soul opens), and a search asks each shard (13 at 100,000 vectors).
    SHARD = 8192

    # ef_search is each shard's: measured on the 100,000-message soul (13 shards) against exact search, top 10 of
    # queries near a stored vector / far from any: one graph at 128, 1.000 / 0.62 in 0.33 ms of CPU; shards at 128,
    # 0.999 / 0.92 in 4.2 ms; at 64, 0.998 / 0.80 in 2.7 ms (p95 3.1); at 32, 0.993 / 0.67 in 2.0 ms.
    def __init__(self, dim: int = 384, ef_search: int = 64, m: int = 24, ef_construction: int = 200):
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
        self._shards: list[hnswlib.Index] | None = None  # the graph: shard i holds labels i*SHARD..(i+1)*SHARD
        self._alive: list[int] = []  # live (not removed) labels in each shard
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
        return self._shards is not None

    @property
    def pending(self) -> int:
        """Vectors waiting to join the graph (searched exactly meanwhile)."""
        with self._lock:
            return self._count - self._graphed if self._shards is not None else 0

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
            if self._shards is not None and not self._building:
                if self._graphed == start and len(keys) <= self.GRAPH_AT_ONCE:
                    self._graph_locked(start, need)
                else:
                    self._graph_tail_in_background()
        if self._shards is None and not self._hold and len(self) >= self.APPROXIMATE_FROM:
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
        if self._shards is not None and label < self._graphed:
            self._shards[label // self.SHARD].mark_deleted(label)
            self._alive[label // self.SHARD] -= 1

    def _new_shard(self) -> hnswlib.Index:
        shard = hnswlib.Index(space="ip", dim=self.dim)
        shard.init_index(max_elements=self.SHARD, ef_construction=self.ef_construction, M=self.m)
        shard.set_ef(self.ef_search)
        return shard

    def _graph_locked(self, start: int, end: int) -> None:
        """Labels start..end join the graph (the lock held); removed ones are marked so at once."""
        shards = self._shards
        assert shards is not None  # called only where there is a graph
        _add(shards, self._alive, self._new_shard, self._matrix, self._keys, start, end, self.SHARD, threads=1)
        self._graphed = end

    def _graph_tail_in_background(self) -> None:
        if self._grapher is not None:
            return
        generation = self._generation

        def run() -> None:
            while True:
                with self._lock:
                    if self._generation != generation or self._shards is None:
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
            if self._building or self._shards is not None:
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
            keys = list(self._keys[:count])
        shards: list[hnswlib.Index] = []
        alive: list[int] = []
        _add(shards, alive, self._new_shard, data, keys, 0, count, self.SHARD, threads=2)
        del data
        with self._lock:
            if self._generation != generation:
                return  # the index was replaced meanwhile: this graph is of content no longer held
            # Catch up with what changed while building: what was added joins, what was removed is marked.
            _add(shards, alive, self._new_shard, self._matrix, self._keys, count, self._count, self.SHARD, threads=2)
            for label in range(count):
                if self._keys[label] is None and keys[label] is not None:
                    shards[label // self.SHARD].mark_deleted(label)
                    alive[label // self.SHARD] -= 1
            self._shards, self._alive = shards, alive
            self._graphed = self._count
            self._building = False
        log.info("approximate vector index ready over %d vectors", len(self))
        for listener in self._built_listeners:
            listener()

    def snapshot(self) -> tuple[list[dict[str, Any]], list[Key | None], int] | None:
        """The graph as hnswlib states each shard, the item of each of its labels, and the labels per shard; None
        while there is none, or when the graph was replaced or began a shard while it was read."""
        with self._lock:
            if self._shards is None or self._building:
                return None
            shards, generation = self._shards, self._generation
            n = len(shards)
        states: list[dict[str, Any]] = []
        keys: list[Key | None] = []
        for i in range(n):
            # A shard at a time: a search waits for one at most, and the window gets the GIL between two.
            with self._lock:
                if self._generation != generation or self._shards is not shards or len(shards) != n:
                    return None
                (state,) = shards[i].__getstate__()
                states.append(state)
                if i == n - 1:  # only the last shard grows: the labels it holds now are the graph's
                    keys = list(self._keys[: self._graphed])
            time.sleep(0)
        return states, keys, self.SHARD

    def restore(
        self,
        states: list[dict[str, Any]],
        keys: list[Key | None],
        rows: Iterable[Row],
        changed: Set[Key] = frozenset(),
        shard: int | None = None,
    ) -> int:
        """Hold exactly the (kind, id, vector-bytes) `rows`, with the graph snapshot.unpack() read (`states`: of
        each shard, `keys`: the item of each of its labels, `shard`: labels per shard). An item whose vector changed
        since the graph was kept (`changed`) or that is new to it joins it afresh; one no longer in `rows` is marked
        deleted. Returns how many vectors it holds. snapshot.BadSnapshot when the graph cannot be used (nothing
        changed then)."""
        return self.install(self.prepare(states, keys, read(rows, self.dim), changed, shard))

    def prepare(
        self,
        states: list[dict[str, Any]],
        keys: list[Key | None],
        stored: "Stored",
        changed: Set[Key] = frozenset(),
        shard: int | None = None,
    ) -> "_Restored":
        """restore()'s work, done without the lock (searches go on meanwhile); install() puts it in place.
        `stored` (read()) may be what replace() holds: when the graph's labels are the stored vectors' order, as
        they are unless items changed since it was kept, its matrix is shared, not copied."""
        size = self.SHARD
        if shard is not None and shard != size:
            raise snapshot.BadSnapshot(f"shards of {shard} labels, not {size}")
        n, m = len(keys), len(stored.keys)
        # Every label below the graph's count is one of its nodes, each in its run's shard (the graph grows by
        # whole runs of labels).
        if len(states) != -(-n // size):
            raise snapshot.BadSnapshot("its shards and its items do not match")
        labels = []
        for i, state in enumerate(states):
            these = snapshot.labels_of(state)
            if not np.array_equal(np.sort(these), np.arange(i * size, min(n, (i + 1) * size), dtype=these.dtype)):
                raise snapshot.BadSnapshot("its nodes and its items do not match")
            labels.append(these)
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
            stays = np.zeros(n, dtype=bool)
            stays[at[known]] = True
            held = [k if a else None for k, a in zip(keys, stays.tolist(), strict=True)]
        node_of = np.empty(n, dtype=np.int64)  # a label's node in its shard
        for these in labels:
            node_of[these.astype(np.int64)] = np.arange(len(these))
        placed = at[known]  # the label of each stored vector the graph holds
        vectors = stored.vectors if everything else stored.vectors[known]
        shards: list[hnswlib.Index] = []
        for i, state in enumerate(states):
            mine = (placed >= i * size) & (placed < (i + 1) * size) if len(states) > 1 else slice(None)
            shards.append(snapshot.fill(state, node_of[placed[mine]], vectors[mine]))
            time.sleep(0)  # hnswlib held the GIL while it read the shard: the window's turn
        alive = [0] * len(shards)
        for label, item in enumerate(held):
            if item is None:
                try:
                    shards[label // size].mark_deleted(label)
                except RuntimeError:
                    pass  # already marked when it was kept
            else:
                alive[label // size] += 1
        for s in shards:
            s.set_ef(self.ef_search)
            s.set_num_threads(1)
        return _Restored(
            shards, alive, matrix, n, held, [stored.keys[i] for i in fresh.tolist()], stored.vectors[fresh]
        )

    def install(self, restored: "_Restored") -> int:
        """Put a prepared graph and its vectors in place of what is held (the caller follows the feed from the
        point its rows were read)."""
        with self._lock:
            self._clear()
            self._matrix, self._count, self._keys = restored.matrix, restored.count, restored.keys
            self._labels = {k: i for i, k in enumerate(restored.keys) if k is not None}
            self._shards, self._alive, self._graphed = restored.shards, restored.alive, restored.count
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
            if self._shards is not None and not exact:
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
        """Each shard's nearest and the tail's (exactly), merged; None if the graph cannot answer."""
        found = self._exact_locked(q, k, self._graphed, self._count)
        shards = self._shards
        assert shards is not None  # called only where there is a graph
        query = q[None, :]
        for shard, alive in zip(shards, self._alive, strict=True):
            want = min(k, alive)
            if want <= 0:
                continue
            shard.set_ef(max(self.ef_search, want))
            try:
                labels, distances = shard.knn_query(query, k=want)
            except RuntimeError:  # too few live nodes reachable (many deleted): exact answers instead
                return None
            found += [
                (key, 1.0 - float(d))
                for lab, d in zip(labels[0].tolist(), distances[0].tolist(), strict=True)  # k labels, k distances
                if (key := self._keys[lab]) is not None
            ]
        found.sort(key=lambda kv: -kv[1])
        return found[:k]


def _add(
    shards: list[hnswlib.Index],
    alive: list[int],
    new_shard: Callable[[], hnswlib.Index],
    matrix: Matrix,
    keys: list[Key | None],
    start: int,
    end: int,
    size: int,
    threads: int,
) -> None:
    """Labels start..end (rows of `matrix`, items `keys`) join the shards they fall in, a new shard begun where the
    last is full; a removed one (its key None) is marked deleted at once."""
    at = start
    while at < end:
        i = at // size
        if i == len(shards):
            shards.append(new_shard())
            alive.append(0)
        stop = min(end, (i + 1) * size)
        shards[i].add_items(matrix[at:stop], np.arange(at, stop), num_threads=threads)
        for label in range(at, stop):
            if keys[label] is None:
                shards[i].mark_deleted(label)
            else:
                alive[i] += 1
        at = stop


class _Restored:
    def __init__(
        self,
        shards: list[hnswlib.Index],
        alive: list[int],
        matrix: Matrix,
        count: int,
        keys: list[Key | None],
        fresh_keys: list[Key],
        fresh: Matrix,
    ):
        self.shards, self.alive, self.matrix, self.count, self.keys = shards, alive, matrix, count, keys
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


# Rows joined and copied into the matrix this many at a time: one copy of a few MB, never of them all. Row by row
# (a slice of the matrix's bytes assigned per row) the copy of 100,000 vectors took 357 ms of Python bytecode on
# the indexer's thread, and the window's thread, which retakes the GIL at each PySide call it makes while it places
# the history's bubbles, stalled 190-300 ms behind it as a large soul opened (bench scale's opening_stall_ms).
READ_CHUNK = 4096


def read(rows: Iterable[Row], dim: int, spare: int = SPARE) -> Stored:
    """(kind, id, vector bytes) rows -> Stored (one of another dimension is left out, and said)."""
    width = 4 * dim
    rows = rows if isinstance(rows, list) else list(rows)
    fit = [r for r in rows if len(r[2]) == width]
    if len(fit) != len(rows):
        for _, _, blob in rows:
            if len(blob) != width:
                log.warning("skipping a stored vector of dimension %d (index is %d)", len(blob) // 4, dim)
    matrix = np.empty((len(fit) + spare, dim), dtype="<f4")
    for at in range(0, len(fit), READ_CHUNK):
        part = fit[at : at + READ_CHUNK]
        joined = b"".join([blob for _, _, blob in part])
        matrix[at : at + len(part)] = np.frombuffer(joined, dtype="<f4").reshape(len(part), dim)
    keys: list[Key] = [(kind, item_id) for kind, item_id, _ in fit]
    matrix[len(fit) :] = 0.0
    return Stored(keys, matrix)
