"""What each reply's workspace held and why: the record behind the window's "Why?"."""

import json
from collections.abc import Iterable
from typing import Any, Protocol

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
