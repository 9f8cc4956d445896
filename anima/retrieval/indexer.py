"""Keeping vectors in step with the soul: embed what is stored, index it in memory, drop what is forgotten.

An item and its vector are written in one transaction (`transaction()` and `put()`; `index_items()` for an
item already stored): a full disk leaves both or neither. The vector is embedded before the transaction, so
the slow part holds no lock, and joins the in-memory index once the transaction commits.

Several programs may have one soul open (the window and `python -m anima chat`). Each keeps its own in-memory
index, so each follows what the others wrote through the soul's vector feed (store/migrations.py, m011):
triggers on `embeddings` append every change to it, and before each recall `catch_up()` applies what it has
not seen yet. `PRAGMA data_version` changes only when another connection commits, so while nobody else writes
a catch-up costs that one pragma.

The built approximate graph is kept in the soul (snapshot.py: its links, never its vectors), saved in the
background after a build and after enough changes, and read at unlock instead of being built again; what
changed since it was kept is caught up from the feed.
"""

import gc
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt
import sqlcipher3

from ..errors import KnownError, SoulClosed
from ..models.embedder import Embedder
from ..store import recallable, vector_rows
from ..store.kinds import KINDS, RECALLED
from ..store.soul import Soul, Standing
from . import snapshot
from .vectors import VectorIndex, read

log = logging.getLogger(__name__)

Key = tuple[str, int]
PART = 1 << 20  # bytes of a kept graph per row, each written in a transaction of its own (short: never a turn's wait)


def key_text(kind: str, row: dict[str, Any]) -> str:
    """The text an item's vector is made from: its kind's `embedded` columns (store/kinds.py), "Speaker: text",
    "Title: body" (recall shapes a question that names a speaker the same way)."""
    return ": ".join(row[c] for c in KINDS[kind].embedded if row.get(c))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while the stored vectors are read back. Their 100,000 rows,
    keys and graph states are objects made at once: they set off ~750 collections (~130 ms), each holding the
    GIL, a full one ~40 ms, while the window's thread waited to paint (bench scale's opening_stall_ms). Nothing
    read is a cycle: reference counting frees what is dropped, and the collector runs again after."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.freeze()  # what it read lives as long as the index: to the oldest generation at once, not walked
            gc.unfreeze()  # by a young collection of all of it (~40 ms) the moment the collector is on again
            gc.enable()


class Indexer:
    # The graph is saved again after this many changes (or this share of its size, if more) since it was kept.
    SAVE_EVERY, SAVE_SHARE = 1000, 0.05
    # At close it is saved when this is cheap: up to this many vectors (about a second on two cores).
    SAVE_AT_CLOSE_UP_TO = 250_000
    # The feed's rows are pruned once a kept graph holds them and they are this old: a program that has not
    # looked at the feed for longer reads its index again (in the background).
    PRUNE_AFTER_S = 3600
    # A kept graph still being written this long after it was begun was left by a program that ended.
    ABANDONED_AFTER_S = 3600

    def __init__(self, soul: Soul, embedder: Embedder, index: VectorIndex | None = None):
        self.soul = soul
        self.embedder = embedder
        self.index = index or VectorIndex(embedder.dim)
        self._sync = threading.RLock()  # taken after the soul's lock, never before it
        self._feed = vector_rows.has_feed(soul)
        self._applied = 0  # every feed row up to this seq is in the index
        self._version: int | None = None  # PRAGMA data_version when the feed was last read
        self._loaded = False  # the stored vectors have been read (until then the loader follows the feed)
        self.ready = threading.Event()  # set once recall by meaning has every stored vector (exactly, at first)
        self._unknown = False  # a write of ours joined a transaction that is not ours: the feed will say
        self._depth = 0
        self._pending: list[tuple[str, list[int], np.ndarray]] = []
        self._unsaved = 0  # changes since the kept graph
        self._saving: threading.Thread | None = None
        self._save_lock = threading.Lock()  # one save at a time
        self._loader: threading.Thread | None = None
        self._closed = False
        self._elsewhere: list[Callable[[], None]] = []
        self.index.on_built(self._built)
        soul.on_forget(self._forgotten)

    # ---- writing ------------------------------------------------------------

    def mark(self) -> tuple[bool, bool, int]:
        """What recall by meaning searches, as a mark: it changes when the stored vectors are loaded (or read
        again), added or removed, even where nothing was written to the soul."""
        return self.ready.is_set(), self._loaded, self.index.changes

    def embed(self, kind: str, rows: list[dict[str, Any]]) -> npt.NDArray[np.float32]:
        """The vectors of some items of one kind (rows with their `embedded` columns), in one batch."""
        return self.embedder.embed_batch([key_text(kind, r) for r in rows])

    @contextmanager
    def transaction(self) -> Iterator[sqlcipher3.Connection]:
        """The soul's transaction, in which put() stores vectors: they join the in-memory index once it
        commits, and never if it does not. Inside a transaction that is not one of these (a caller's own
        soul.transaction()), the vectors are found in the feed at the next recall instead."""
        with self.soul.held() as standing, self._sync:
            foreign = self._depth == 0 and standing is Standing.IN_TRANSACTION
            top = self._depth == 0 and not foreign
            if top:
                self._pending = []
            self._depth += 1
            try:
                with self.soul.transaction() as con:
                    before = self._sequence() if top and self._feed else None
                    yield con
                    after = self._sequence() if top and self._feed else None
            except BaseException:
                if top:
                    self._pending = []
                if foreign:
                    self._unknown = True
                raise
            finally:
                self._depth -= 1
            if foreign:
                self._unknown = self._unknown or bool(self._pending)
                self._pending = []
                return
            if not top:
                return
            pending, self._pending = self._pending, []
            for kind, ids, vectors in pending:
                self.index.add_many([(kind, i) for i in ids], vectors)
                self._unsaved += len(ids)
            # What the feed gained in this transaction is ours, and now in the index.
            if self._loaded and before is not None and after is not None and before == self._applied:
                self._applied = after
        self._save_if_due()

    def put(self, kind: str, ids: list[int], vectors: npt.ArrayLike) -> None:
        """Store the vectors of some items of one kind, in the current transaction() (or one of their own)."""
        if not ids:
            return
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1)
        with self.transaction():
            self.soul.put_vectors(kind, ids, self.embedder.name, vectors)
            self._pending.append((kind, list(ids), vectors))

    def index_items(self, kind: str, rows: list[dict[str, Any]]) -> None:
        """Embed rows of one kind (batched) that are already stored, store their vectors, add them to the
        in-memory index."""
        if not rows:
            return
        vectors = self.embed(kind, rows)
        self.put(kind, [r["id"] for r in rows], vectors)

    def _forgotten(self, kind: str, item_id: int) -> None:
        self.index.remove((kind, item_id))
        self._unsaved += 1
        self._unknown = True  # the feed moved past what this index has applied: the next look catches up

    # ---- reading what is stored ---------------------------------------------

    def load(self) -> int:
        """Fill the in-memory index from the stored vectors of this embedder and follow the feed from there:
        exact search serves as soon as they are read (`ready` is set). Then the kept graph, when there is one
        that fits, is read back and takes over; else one is built in the background (from 5,000 vectors).
        Returns how many vectors."""
        if not self._feed:
            n = self.index.load(recallable.vectors(self.soul, self.embedder.name, self.embedder.dim))
            self._loaded = True
            self.ready.set()
            return n
        top = self._sequence()
        stored = read(recallable.vectors(self.soul, self.embedder.name, self.embedder.dim), self.embedder.dim)
        kept = self._kept()
        n = self.index.replace(stored, build=kept is None)
        self._unsaved = n
        with self.soul.held(), self._sync:
            self._applied = top
            self._version = None  # the feed is read now, whoever wrote
            self._loaded = True
            self._catch_up_locked()
        self.ready.set()
        if kept is None:
            return n
        through, header, payload = kept
        try:
            changed = {(kind, item_id) for kind, item_id, _ in vector_rows.changes(self.soul, through)}
            states, keys, shard = snapshot.unpack(header, payload, self.embedder.dim)
            del payload
            restored = self.index.prepare(states, keys, stored, changed, shard)
        except snapshot.BadSnapshot as e:
            log.warning("the kept vector graph cannot be used (%s); it is built again", e)
            self.index.build_in_background()
            return n
        except Exception:
            log.exception("reading the kept vector graph failed; it is built again")
            self.index.build_in_background()
            return n
        del stored
        with self.soul.held(), self._sync:
            n = self.index.install(restored)
            self._unsaved = len(changed)
            self._applied = min(self._applied, top)  # what came since the rows were read is followed again
            self._catch_up_locked()
        log.info("vector index read from the soul: %d vectors, %d changed since it was kept", n, len(changed))
        return n

    def missing(self) -> dict[str, list[dict[str, Any]]]:
        """Recallable items with no usable vector (never embedded, damaged, or from another embedder)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for kind in RECALLED:
            if rows := recallable.unembedded(self.soul, kind, self.embedder.name, self.embedder.dim):
                out[kind] = rows
        return out

    def reindex_missing(self, batch: int = 256) -> int:
        todo = self.missing()
        total = sum(len(v) for v in todo.values())
        if total:
            log.warning("re-indexing %d items that had no usable vector", total)
        for kind, rows in todo.items():
            for i in range(0, len(rows), batch):
                self.index_items(kind, rows[i : i + batch])
        return total

    def start(self, told: Callable[[str], None] = lambda what: None) -> threading.Thread:
        """Load stored vectors, then re-index what lacks one, in the background (exact search serves meanwhile).
        A full disk or a soul closed under it stops it with `told(one line)` (or a log line), not a traceback on
        the terminal or the window's bug dialog: what lacks a vector is still found by its words, and is indexed
        at the next opening."""

        def run() -> None:
            try:
                with collector_paused():
                    self.load()
                self.reindex_missing()
            except SoulClosed:
                log.info("indexing stopped: the soul was closed")
            except KnownError as e:
                log.warning("indexing stopped: %s", type(e).__name__)
                told(f"Indexing for recall by meaning stopped: {e}")

        t = threading.Thread(target=run, name="indexer", daemon=True)
        t.start()
        self._loader = t
        return t

    # ---- other programs on the same soul --------------------------------------

    def on_change_elsewhere(self, listener: Callable[[], None]) -> None:
        """`listener()` hears, at the next recall, that another program committed something to the soul (a
        setting, the self-model): what is cached from the soul can be read again."""
        self._elsewhere.append(listener)

    def catch_up(self, force: bool = False) -> None:
        """Apply what other programs stored or forgot since the last look (before each recall). While none
        wrote, this is one pragma."""
        if not self._feed or not self._loaded:
            return
        elsewhere = False
        with self.soul.held() as standing:
            if standing is not Standing.IDLE:
                return  # closed, or inside a transaction of this thread's whose end is not known yet
            version = self._data_version()
            elsewhere = version != self._version
            if elsewhere or self._unknown or force:
                with self._sync:
                    self._catch_up_locked(version)
        if elsewhere:
            for listener in self._elsewhere:
                try:
                    listener()
                except Exception:
                    log.exception("a listener for changes made elsewhere failed")

    def _catch_up_locked(self, version: int | None = None) -> None:
        """The soul's lock and _sync held."""
        self._version = self._data_version() if version is None else version
        self._unknown = False
        top = self._sequence()
        if self._applied < vector_rows.pruned_through(self.soul):
            # Rows this program never read were pruned: read the whole index again, in the background.
            self._reload_in_background()
            return
        latest: dict[Key, str] = {}
        for kind, item_id, op in vector_rows.changes(self.soul, self._applied, top):
            latest[(kind, item_id)] = op
        if latest:
            stored = self._stored([key for key, op in latest.items() if op == "put"])
            keys: list[Key] = []
            vectors: list[npt.NDArray[Any]] = []
            for key in latest:
                v = stored.get(key)
                if v is None:  # dropped, forgotten since, or another embedder's
                    if self.index.vector(key) is not None:
                        self.index.remove(key)
                        self._unsaved += 1
                    continue
                now = self.index.vector(key)
                if now is None or not np.array_equal(now, v):
                    keys.append(key)
                    vectors.append(v)
            if keys:
                self.index.add_many(keys, np.vstack(vectors))
                self._unsaved += len(keys)
        self._applied = max(self._applied, top)

    def _stored(self, keys: list[Key]) -> dict[Key, np.ndarray]:
        return {
            key: np.frombuffer(vector, dtype="<f4")
            for key, vector in recallable.vectors_of(self.soul, keys, self.embedder.name, self.embedder.dim).items()
        }

    def _reload_in_background(self) -> None:
        if self._loader is not None and self._loader.is_alive():
            return
        self._loaded = False
        log.warning("another program pruned vector changes this one had not read; reading the index again")
        self._loader = threading.Thread(target=self._guarded(self.load), name="indexer reload", daemon=True)
        self._loader.start()

    # ---- keeping the built graph ---------------------------------------------

    def _built(self) -> None:
        """The graph was built (a background thread): keep it, so the next unlock need not build it again."""
        self._unsaved = max(self._unsaved, 1)
        self.save_in_background()

    def _save_if_due(self) -> None:
        if self.index.approximate and self._unsaved >= max(self.SAVE_EVERY, self.SAVE_SHARE * len(self.index)):
            self.save_in_background()

    def save_in_background(self) -> threading.Thread | None:
        if self._closed or (self._saving is not None and self._saving.is_alive()):
            return None
        self._saving = threading.Thread(target=self._guarded(self.save), name="vector graph save", daemon=True)
        self._saving.start()
        return self._saving

    def _guarded(self, job: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                job()
            except SoulClosed:  # the soul closed under a background save: the graph is kept another time
                pass
            except (KnownError, sqlcipher3.Error) as e:  # a full disk, a locked soul: the graph is only a help
                log.warning("the vector index was not kept in the soul this time (%s)", e)
            except Exception:
                log.exception("keeping the vector index in the soul failed")

        return run

    def save(self, closing: bool = False) -> bool:
        """Keep the built graph in the soul, in parts of short transactions (none holds the soul for long);
        the last one makes it the one read at unlock, removes the older one and prunes the feed. False when
        there was nothing to keep (no graph yet, or the soul is closing)."""
        if not self._feed or (self._closed and not closing):
            return False
        with self._save_lock:
            return self._save()

    def _save(self) -> bool:
        self.catch_up(force=True)  # what the feed says is in the index: the graph can stand for all of it
        through, unsaved = self._applied, self._unsaved
        taken = self.index.snapshot()
        if taken is None:
            return False
        header, payload = snapshot.pack(*taken)
        del taken
        parts = [payload[i : i + PART] for i in range(0, len(payload), PART)] or [b""]
        del payload
        with self.soul.transaction() as con:
            sid = vector_rows.begin_graph(
                con,
                self.embedder.name,
                self.embedder.dim,
                through,
                len(parts),
                snapshot.dumps_header(header),
                int(time.time()),
            )
        try:
            for n, part in enumerate(parts):
                with self.soul.transaction() as con:
                    vector_rows.add_graph_part(con, sid, n, part)
            with self.soul.transaction() as con:
                if vector_rows.complete_graph(con, sid, self.embedder.name, self.embedder.dim, through, len(parts)):
                    # Feed rows that the kept graph holds and that are old go.
                    vector_rows.prune(con, through, int(time.time()) - self.PRUNE_AFTER_S)
        except BaseException:
            self._retire(sid)
            raise
        self._unsaved = max(0, self._unsaved - unsaved)
        self._remove_retired()
        log.info("vector graph kept in the soul (%d parts, through change %d)", len(parts), through)
        return True

    def _retire(self, sid: int) -> None:
        try:
            with self.soul.transaction() as con:
                vector_rows.retire_graph(con, sid)
        except (KnownError, sqlcipher3.Error):  # closed (SoulClosed is a KnownError) or full: removed at a later
            pass  # save (an unfinished one is retired once it is old)

    def _remove_retired(self) -> None:
        """Old graphs go a part per transaction; so does one left unfinished by a program that ended."""
        stale = int(time.time()) - self.ABANDONED_AFTER_S
        for graph in vector_rows.graphs_to_remove(self.soul, stale):
            for n in vector_rows.graph_parts(self.soul, graph):
                with self.soul.transaction() as con:
                    vector_rows.remove_graph_part(con, graph, n)
            with self.soul.transaction() as con:
                vector_rows.remove_graph(con, graph)

    def _kept(self) -> tuple[int, dict[str, Any], bytes] | None:
        """The kept graph for this embedder: (through, header, payload), or None."""
        kept = vector_rows.kept_graph(self.soul, self.embedder.name, self.embedder.dim)
        if kept is None:
            return None
        if len(kept.data) != kept.parts:
            log.warning("the kept vector graph is missing parts; it is built again")
            return None
        try:
            header = json.loads(kept.header)
        except ValueError:
            return None
        return kept.through, header, b"".join(kept.data)

    # ---- closing --------------------------------------------------------------

    def close(self) -> None:
        """Before the soul closes: keep the graph if it changed and that is cheap. No background save starts
        after this."""
        if self._closed:
            return
        self._closed = True
        if self._loader is not None and self._loader.ident is not None:
            self._loader.join()
        if self._saving is not None and self._saving.ident is not None:
            self._saving.join()
        if self._feed and self.index.approximate and self._unsaved > 0 and len(self.index) <= self.SAVE_AT_CLOSE_UP_TO:
            self._guarded(lambda: self.save(closing=True))()

    # ---- plumbing ---------------------------------------------------------------

    def _data_version(self) -> int:
        return self.soul.data_version()

    def _sequence(self) -> int:
        """The highest feed seq ever given (AUTOINCREMENT keeps it, whatever was pruned); inside a transaction
        of this thread's, as that transaction sees it."""
        return vector_rows.sequence(self.soul)
