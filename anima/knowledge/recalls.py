"""What each reply's workspace held and why: the record behind the window's "Why?"."""

import json
from collections.abc import Iterable
from typing import Any, Protocol

from ..retrieval.recall import RELEVANT_SIMILARITY
from ..store.soul import Soul


class Held(Protocol):
    """One recalled item a workspace held (workspace/assemble.py Held), as it is recorded."""

    @property
    def kind(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def components(self) -> dict[str, Any]: ...


class WorkspaceRecord:
    def __init__(self, soul: Soul):
        self.soul = soul

    def record(self, reply_id: int, held: Iterable[Held]) -> None:
        """`held`: the workspace's recalled items (kind, id, rank, score, components), best first."""
        with self.soul.transaction() as con:
            con.executemany(
                "INSERT INTO recalls VALUES (?, ?, ?, ?, ?, ?)",
                [(reply_id, h.kind, h.id, h.rank, h.score, json.dumps(h.components)) for h in held],
            )

    def of(self, message_id: int) -> list[dict[str, Any]]:
        """What a reply's workspace held, best first, with each item's score components."""
        rows = self.soul.query(
            "SELECT item_kind, item_id, rank, score, components FROM recalls WHERE message_id = ? ORDER BY rank",
            (message_id,),
        )
        return [{**r, "components": json.loads(r["components"])} for r in rows]

    def last(self, kind: str) -> dict[int, str]:
        """Each item of `kind` a reply's workspace held, by id: why it was recalled the last time, in words
        ("for message #12, by your words and their meaning")."""
        rows = self.soul.query(
            "SELECT item_id, message_id, components FROM recalls r WHERE item_kind = ? AND message_id = "
            "(SELECT MAX(message_id) FROM recalls WHERE item_kind = r.item_kind AND item_id = r.item_id)",
            (kind,),
        )
        return {r["item_id"]: f"for message #{r['message_id']}, {why(json.loads(r['components']))}" for r in rows}


def why(components: dict[str, Any]) -> str:
    """Why recall picked an item, from its score components (retrieval/recall.py), as a person reads it."""
    said = []
    if components.get("bm25_rank") is not None or components.get("keyword") is not None:
        said.append("your words")
    if (components.get("vector_sim") or 0.0) >= RELEVANT_SIMILARITY:
        said.append("their meaning")
    if components.get("in_asked_span"):
        said.append("the time you asked about")
    if components.get("from_neighbour"):
        said.append("a message beside it")
    return "by " + " and ".join(said) if said else "as one of the closest I had"
