"""The history of every edit (who, when, before and after), and undoing one.

A supersession is two edits: the new fact's creation and the old fact's
closing (valid_to, superseded_by). Undoing either undoes the supersession
whole, so exactly one of the two facts is current afterwards, never both or
neither.
"""

import json
from typing import Any

from ..errors import NotFound
from ..retrieval.indexer import Indexer
from ..store.kinds import KINDS
from ..store.soul import Soul


class History:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer

    def edits(self, limit: int = 200) -> list[dict[str, Any]]:
        return self.soul.query("SELECT * FROM edit_history ORDER BY id DESC LIMIT ?", (limit,))

    def undo(self, edit_id: int) -> list[tuple[str, int]]:
        """An update gets its old values back, a creation is removed. The undo is itself recorded (as the
        person's), so it can be undone in turn. Returns the items it removed."""
        rows = self.soul.query("SELECT * FROM edit_history WHERE id = ?", (edit_id,))
        if not rows:
            raise NotFound(f"There is no edit #{edit_id} to undo.")
        e = rows[0]
        kind, item_id = e["item_kind"], e["item_id"]
        if e["op"] == "create":
            if kind == "memory":
                for old in self.soul.query("SELECT id FROM memories WHERE superseded_by = ?", (item_id,)):
                    self.soul.update("memory", old["id"], "user", valid_to=None, superseded_by=None)
            return self.soul.forget(kind, item_id).items
        elif e["op"] == "update":
            after = json.loads(e["after"] or "{}")
            newer = after.get("superseded_by") if kind == "memory" else None
            before = json.loads(e["before"])
            # The old text's vector is made first and stored with it: a crash never leaves the one without the other.
            vector = (
                self.indexer.embed(kind, [{**self.soul.get(kind, item_id), **before}]) if KINDS[kind].recalled else None
            )
            with self.indexer.transaction():
                self.soul.update(kind, item_id, "user", **before)
                if vector is not None:
                    self.indexer.put(kind, [item_id], vector)
            gone = []
            if newer is not None and self.soul.query("SELECT 1 FROM memories WHERE id = ?", (newer,)):
                gone = self.soul.forget("memory", newer).items
            return gone
        return []
