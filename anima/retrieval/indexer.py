"""Keeping vectors in step with the soul: embed what is stored, index it in memory, drop what is forgotten."""

import logging
import threading

from ..models.embedder import Embedder
from ..store import recallable
from ..store.kinds import KINDS, RECALLED
from ..store.soul import Soul
from .vectors import VectorIndex

log = logging.getLogger(__name__)


def key_text(kind: str, row: dict) -> str:
    """The text an item's vector is made from: its kind's `embedded` columns (store/kinds.py), "Speaker: text",
    "Title: body" (recall shapes a question that names a speaker the same way)."""
    return ": ".join(row[c] for c in KINDS[kind].embedded if row.get(c))


class Indexer:
    def __init__(self, soul: Soul, embedder: Embedder, index: VectorIndex | None = None):
        self.soul = soul
        self.embedder = embedder
        self.index = index or VectorIndex(embedder.dim)
        soul.on_forget(lambda kind, item_id: self.index.remove((kind, item_id)))

    def index_items(self, kind: str, rows: list[dict]) -> None:
        """Embed rows of one kind (batched), store their vectors, add them to the in-memory index."""
        if not rows:
            return
        vectors = self.embedder.embed_batch([key_text(kind, r) for r in rows])
        self.soul.put_vectors(kind, [r["id"] for r in rows], self.embedder.name, vectors)
        self.index.add_many([(kind, r["id"]) for r in rows], vectors)

    def load(self) -> int:
        """Fill the in-memory index from the stored vectors of this embedder; returns how many."""
        return self.index.load(recallable.vectors(self.soul, self.embedder.name, self.embedder.dim))

    def missing(self) -> dict[str, list[dict]]:
        """Recallable items with no usable vector (never embedded, damaged, or from another embedder)."""
        out = {}
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
                self.index_items(kind, rows[i:i + batch])
        return total

    def start(self) -> threading.Thread:
        """Load stored vectors, then re-index what lacks one, in the background (exact search serves meanwhile)."""
        def run():
            self.load()
            self.reindex_missing()
        t = threading.Thread(target=run, name="indexer", daemon=True)
        t.start()
        return t
