"""The growth log as a person reads it in the Open Mind: each entry with what it cites (seed 003, 2.2).

Entries are written by deep reflection through SelfModel.grow and never edited
(the store refuses); a person may only forget one. Each cites the experiences it
comes from (episodes); an entry whose evidence was forgotten is flagged.
"""

from dataclasses import dataclass

from ..errors import NotFound
from ..store.kinds import KINDS
from ..store.soul import Soul


@dataclass(frozen=True)
class Cited:
    kind: str
    id: int
    text: str  # what the cited item says now (its first text column)


@dataclass(frozen=True)
class GrowthEntry:
    id: int
    at: str
    entry: str
    flagged: bool  # something it cited was forgotten
    cites: tuple[Cited, ...]


class GrowthLog:
    def __init__(self, soul: Soul):
        self.soul = soul

    def entries(self, limit: int = 200) -> list[GrowthEntry]:
        """The newest entries, newest first, each with what it cites."""
        rows = self.soul.query(
            "SELECT id, at, entry, needs_regeneration FROM growth_log ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [
            GrowthEntry(
                r["id"],
                r["at"],
                r["entry"],
                bool(r["needs_regeneration"]),
                tuple(self._cited(k, i) for k, i in self.soul.citations("growth_log", r["id"])),
            )
            for r in rows
        ]

    def dated(self) -> list[tuple[str, str]]:
        """Every entry as (when, what), oldest first."""
        return [(r["at"], r["entry"]) for r in self.soul.query("SELECT at, entry FROM growth_log ORDER BY id")]

    def flagged(self) -> list[int]:
        """The entries a forget flagged (an experience they cite went), oldest first."""
        return self.soul.flagged("growth_log")

    def _cited(self, kind: str, item_id: int) -> Cited:
        try:
            text = self.soul.get(kind, item_id)[KINDS[kind].text[0]]
        except NotFound:  # gone since: forgetting removes the link too, so this is a race at most
            text = ""
        return Cited(kind, item_id, text or "")
