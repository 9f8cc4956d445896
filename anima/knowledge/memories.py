"""Facts and preferences, with who said them and how, and when they were true (seed 003, 5.4 and 5.5).

A new fact that contradicts an old one supersedes it: the old one keeps its
dates (valid_from .. valid_to) and stays answerable for "what was true then",
and it and its closest associates are actively suppressed in recall.
"""

from collections.abc import Iterable
from typing import Any

from ..errors import InvalidEdit
from ..retrieval.fts import terms
from ..retrieval.indexer import Indexer
from ..store.provenance import Provenance, Source, shown
from ..store.soul import Soul, now
from ..trust import secrets
from ..trust.text import unfit_text

SOURCES = ("user_stated", "inferred", "untrusted")
MAX_CHARS = 1000
SUPPRESS_CORRECTED = 0.8
SUPPRESS_ASSOCIATES = 0.4
ASSOCIATES = 5
ASSOCIATE_SIMILARITY = 0.3  # below this, a memory is not an associate of the corrected one


class Memories:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer

    def remember(
        self,
        content: str,
        *,
        kind: str = "fact",
        source: str = "user_stated",
        actor: str = "ai",
        message_id: int | None = None,
        importance: float = 0.5,
        valid_from: str | None = None,
        provenance: Provenance | None = None,
        drawn_from: Iterable[tuple[str, int]] = (),
    ) -> int:
        """`drawn_from`: the items an insight was drawn from (deep reflection's experiences), which it cites: it
        goes when one of them is forgotten or blanked (store/forget.py)."""
        content = _checked(content)
        if source not in SOURCES:
            raise InvalidEdit(f"A memory's source is one of {', '.join(SOURCES)}.")
        t = now()
        if provenance is None and actor == "user":
            provenance = Provenance(Source.APP)  # one the person wrote in the Open Mind
        vectors = self.indexer.embed("memory", [{"content": content}])  # before: the memory and its vector go together
        with self.indexer.transaction():
            mid = self.soul.add(
                "memory",
                actor,
                provenance=provenance,
                kind=kind,
                content=content,
                source=source,
                source_message_id=message_id,
                importance=importance,
                valid_from=valid_from or t,
                created_at=t,
            )
            for cited_kind, cited_id in drawn_from:
                self.soul.cite("memory", mid, cited_kind, cited_id)
            self.indexer.put("memory", [mid], vectors)
        return mid

    def supersede(
        self,
        old_id: int,
        content: str,
        *,
        actor: str = "ai",
        source: str = "user_stated",
        message_id: int | None = None,
        at: str | None = None,
        provenance: Provenance | None = None,
    ) -> int:
        """A new fact replaces an old one from `at` on; the change is recorded and the old one suppressed."""
        old = self.soul.get("memory", old_id)
        if old["valid_to"] is not None:
            raise InvalidEdit(f"Memory #{old_id} was already superseded on {old['valid_to']}.")
        at = at or now()
        new_id = self.remember(
            content,
            kind=old["kind"],
            source=source,
            actor=actor,
            message_id=message_id,
            importance=old["importance"],
            valid_from=at,
            provenance=provenance,
        )
        self.soul.update("memory", old_id, actor, valid_to=at, superseded_by=new_id)
        self.suppress(old_id, actor=actor)
        return new_id

    def resolve(self, old_id: int, new_id: int, actor: str = "ai") -> None:
        """Two stored facts conflict and the newer is current (deep reflection's contradiction check): the older
        stops being true when the newer began, and keeps its dates (seed 003, 5.4: superseded, never deleted)."""
        old, new = self.soul.get("memory", old_id), self.soul.get("memory", new_id)
        if old["valid_to"] is not None:
            return
        with self.soul.transaction():
            self.soul.update(
                "memory", old_id, actor, valid_to=max(new["valid_from"], old["valid_from"]), superseded_by=new_id
            )
            self._raise_suppression(old_id, SUPPRESS_CORRECTED, actor)  # not its associates: the newer is one

    def edit(self, memory_id: int, content: str, actor: str = "user") -> None:
        """A correction of what the memory says (not a change in the world): the text is replaced."""
        content = _checked(content)
        vectors = self.indexer.embed("memory", [{"content": content}])
        with self.indexer.transaction():
            self.soul.update("memory", memory_id, actor, content=content)
            self.indexer.put("memory", [memory_id], vectors)

    def suppress(self, memory_id: int, actor: str = "ai") -> None:
        """Active suppression: the corrected memory fades most, its closest associates by how close they are."""
        self._raise_suppression(memory_id, SUPPRESS_CORRECTED, actor)
        vector = self.indexer.index.vector(("memory", memory_id))
        if vector is None:
            return
        near = [
            (key, sim)
            for key, sim in self.indexer.index.search(vector, ASSOCIATES * 3)
            if key[0] == "memory" and key[1] != memory_id and sim > ASSOCIATE_SIMILARITY
        ][:ASSOCIATES]
        for (_, other), sim in near:
            self._raise_suppression(other, SUPPRESS_ASSOCIATES * sim, actor)

    def _raise_suppression(self, memory_id: int, amount: float, actor: str) -> None:
        current = self.soul.get("memory", memory_id)["suppression"]
        self.soul.update("memory", memory_id, actor, suppression=min(1.0, max(current, amount)))

    def as_of(self, when: str) -> list[dict[str, Any]]:
        """The facts that were true at `when`."""
        return self.soul.query(
            "SELECT * FROM memories WHERE valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) ORDER BY valid_from",
            (when, when),
        )

    def all(self) -> list[dict[str, Any]]:
        """Every memory, true now or once, newest first, each with where it came from in words (`from`: an
        insight names the episodes it was drawn from)."""
        rows = self.soul.query(
            "SELECT m.*, p.source AS p_source, p.message_id AS p_message, p.detail AS p_detail, (SELECT "
            "group_concat(e.item_id, ', #') FROM evidence AS e WHERE e.owner_kind = 'memory' AND e.owner_id = m.id "
            "AND e.item_kind = 'episode') AS p_episodes FROM memories AS m "
            "LEFT JOIN provenance AS p ON p.item_kind = 'memory' AND p.item_id = m.id "
            "ORDER BY m.valid_from DESC, m.id DESC"
        )
        return [
            {
                **{k: v for k, v in r.items() if not k.startswith("p_")},
                "from": shown(
                    {"source": r["p_source"], "message_id": r["p_message"], "detail": r["p_detail"]}
                    if r["p_source"]
                    else None
                )
                + (f", from episode #{r['p_episodes']}" if r["p_episodes"] else ""),
            }
            for r in rows
        ]

    def feedback(self, memory_ids: list[int], reply: str) -> None:
        """Heat: memories a reply used gain importance; memories loaded again and again but never used lose it."""
        if not memory_ids:
            return
        rows = self.soul.query(
            f"SELECT id, content, importance, loads, uses FROM memories WHERE id IN "
            f"({','.join('?' * len(memory_ids))})",
            memory_ids,
        )
        with self.soul.transaction() as con:
            for r in rows:
                if used_by(reply, r["content"]):
                    con.execute(
                        "UPDATE memories SET uses = uses + 1, loads = loads + 1, last_used_at = ?, "
                        "importance = min(1.0, importance + 0.05) WHERE id = ?",
                        (now(), r["id"]),
                    )
                else:
                    cooled = r["importance"] - 0.02 if r["loads"] + 1 >= 5 and r["uses"] == 0 else r["importance"]
                    con.execute(
                        "UPDATE memories SET loads = loads + 1, importance = max(0.05, ?) WHERE id = ?",
                        (cooled, r["id"]),
                    )

    def stated_facts(self, limit: int = 200) -> list[dict[str, Any]]:
        """The facts the person stated that are true now, newest first: what may contradict one another."""
        return self.soul.query(
            "SELECT id, content, valid_from FROM memories WHERE kind = 'fact' AND valid_to IS NULL "
            "AND source = 'user_stated' ORDER BY id DESC LIMIT ?",
            (limit,),
        )

    def inferred(self, limit: int = 50) -> list[str]:
        """What the companion inferred across experiences (deep reflection's insights) and still holds, newest
        first: kept apart from what the person stated."""
        return [
            r["content"]
            for r in self.soul.query(
                "SELECT content FROM memories WHERE source = 'inferred' AND valid_to IS NULL ORDER BY id DESC LIMIT ?",
                (limit,),
            )
        ]

    def learned_from(self, message_ids: list[int]) -> list[dict[str, Any]]:
        """What was learned from these messages and is current: a turn's cue says it ("Noted: ...")."""
        if not message_ids:
            return []
        marks = ",".join("?" * len(message_ids))
        return self.soul.query(
            f"SELECT id, content FROM memories WHERE source_message_id IN ({marks}) AND valid_to IS NULL "
            "AND source = 'user_stated' ORDER BY id",
            tuple(message_ids),
        )

    def current_saying(self, content: str) -> int | None:
        """The newest current memory that says exactly `content`, or None."""
        rows = self.soul.query(
            "SELECT id FROM memories WHERE content = ? AND valid_to IS NULL ORDER BY id DESC LIMIT 1", (content,)
        )
        return rows[0]["id"] if rows else None

    def current(self) -> list[dict[str, Any]]:
        return self.soul.query("SELECT * FROM memories WHERE valid_to IS NULL ORDER BY id")

    def lineage(self, memory_id: int) -> list[dict[str, Any]]:
        """A fact and everything that superseded it, oldest first."""
        chain: list[dict[str, Any]] = []
        seen: set[int] = set()
        row: dict[str, Any] | None = self.soul.get("memory", memory_id)
        while row is not None and row["id"] not in seen:
            seen.add(row["id"])
            chain.append(row)
            row = self.soul.get("memory", row["superseded_by"]) if row["superseded_by"] else None
        return chain


def in_time_order(soul: Soul) -> list[dict[str, Any]]:
    """Every memory, true now or once, by when it became true: content, source, valid_from, valid_to."""
    return soul.query("SELECT content, source, valid_from, valid_to FROM memories ORDER BY valid_from")


def _checked(content: str) -> str:
    if not isinstance(content, str) or not content.strip():
        raise InvalidEdit("A memory needs some text.")
    if len(content) > MAX_CHARS or "\x00" in content:
        raise InvalidEdit(f"A memory is plain text of at most {MAX_CHARS} characters.")
    if found := secrets.find(content):
        raise InvalidEdit(f"That holds {found[0]}: secrets are never kept as memories.")
    if bad := unfit_text([("The memory", content)]):  # a direction override would turn what it shows around
        raise InvalidEdit(f"{bad}: write it without that character.")
    return content.strip()


def used_by(reply: str, text: str) -> bool:
    """Whether a reply drew on an item: it repeats enough of the item's content words."""
    item = set(terms(text))
    if not item:
        return False
    shared = item & set(terms(reply))
    return len(shared) >= 2 and len(shared) / len(item) >= 0.3
