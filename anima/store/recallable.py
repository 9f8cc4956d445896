"""The items recall finds, read: their rows, the speakers and neighbours of messages, their stored vectors.

How recall ranks them is retrieval's (retrieval/recall.py, indexer.py); the
SQL is here, over the tables the registry names (kinds.py).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from .kinds import KINDS, RECALLED
from .soul import STANDING, Row, Soul, by_kind


@dataclass(frozen=True)
class Reading:
    """What recall reads of one recallable kind. Every row it reads has `id`, `text` and `at`."""

    text: str  # what the item says: a column, or an expression of its columns
    at: str  # when it was said, or became known
    importance: str | None = None  # its importance, where it has one (recall takes 0.5 otherwise)
    columns: tuple[str, ...] = ()  # read as they are, for the re-rank and for how the item reads


READINGS: dict[str, Reading] = {
    "message": Reading(text="content", at="created_at", columns=("speaker", "session", "role")),
    "memory": Reading(
        text="content",
        at="valid_from",
        importance="importance",
        columns=("valid_to", "superseded_by", "suppression", "loads", "uses", "source", "kind"),
    ),
    "episode": Reading(text="summary", at="started_at", importance="significance"),
    "world_card": Reading(text="title || ': ' || body", at="updated_at", columns=("kind",)),
}


def _select(kind: str) -> str:
    r = READINGS[kind]
    table = KINDS[kind].table
    # Where it came from (store/provenance.py): a note marks text from outside as information, not instructions.
    origin = f"(SELECT source FROM provenance WHERE item_kind = '{kind}' AND item_id = {table}.id) AS origin"
    names = [
        f"{r.text} AS text",
        f"{r.at} AS at",
        *([f"{r.importance} AS importance"] if r.importance else []),
        *r.columns,
        origin,
    ]
    kept = STANDING if KINDS[kind].made_again else ""  # a flagged one is not recalled until it is made again
    return f"SELECT id, {', '.join(names)} FROM {table} WHERE {kept}id IN "


_SELECT = {kind: _select(kind) for kind in RECALLED}  # a recalled kind with no reading fails here, at import


def rows(soul: Soul, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], Row]:
    """The current rows of some recallable items, by key (forgotten ones are simply absent)."""
    return {
        (kind, r["id"]): r for kind, ids in by_kind(keys).items() for r in soul.query_in(_SELECT[kind] + "({ids})", ids)
    }


_MESSAGES = KINDS["message"].table


def set_aside(soul: Soul, message_ids: Iterable[int]) -> set[int]:
    """Of these messages, the versions a person set aside: another version of the same place in the
    conversation is the chosen one (knowledge/branches.py). Recall leaves them out."""
    return {
        r["message_id"]
        for r in soul.query_in(
            "SELECT v.message_id FROM message_versions v JOIN version_chosen c ON c.slot = v.slot "
            "WHERE c.message_id != v.message_id AND v.message_id IN ({ids})",
            message_ids,
        )
    }


def newest_message(soul: Soul) -> int | None:
    return cast(int | None, soul.query(f"SELECT max(id) AS m FROM {_MESSAGES}")[0]["m"])


def speakers(soul: Soul, after: int = 0) -> list[str]:
    """The names that have spoken (each once); `after`: in the messages after that id only."""
    return [
        r["speaker"]
        for r in soul.query(f"SELECT DISTINCT speaker FROM {_MESSAGES} WHERE id > ? AND speaker != ''", (after,))
    ]


def neighbours(soul: Soul, ids: list[int]) -> list[tuple[int, int | None, int | None]]:
    """(message id, the one before it, the one after it) in its session, for some messages."""
    m = _MESSAGES
    found = soul.query(
        f"SELECT m.id AS id, (SELECT p.id FROM {m} p WHERE p.session = m.session AND p.id < m.id "
        f"ORDER BY p.id DESC LIMIT 1) AS prev, (SELECT n.id FROM {m} n WHERE n.session = m.session "
        f"AND n.id > m.id ORDER BY n.id LIMIT 1) AS next FROM {m} m WHERE m.id IN ({','.join('?' * len(ids))})",
        ids,
    )
    return [(r["id"], r["prev"], r["next"]) for r in found]


def vectors(soul: Soul, model: str, dim: int) -> list[tuple[str, int, bytes]]:
    """(kind, id, vector bytes) of every stored vector one embedder made."""
    found = soul.query("SELECT item_kind, item_id, vector FROM embeddings WHERE model = ? AND dim = ?", (model, dim))
    return [(r["item_kind"], r["item_id"], r["vector"]) for r in found]


def unembedded(soul: Soul, kind: str, model: str, dim: int) -> list[Row]:
    """The items of a recallable kind that have no vector from this embedder: id and the columns their vector
    is made from (the registry's `embedded`)."""
    k = KINDS[kind]
    if not k.recalled:
        raise ValueError(f"{kind} is not recalled: it has no vector")
    # One a forget flagged has none until it is made again (store/forget.py: its words went with the forget).
    kept = STANDING if k.made_again else ""
    return soul.query(
        f"SELECT id, {', '.join(k.embedded)} FROM {k.table} WHERE {kept}id NOT IN (SELECT item_id FROM "
        f"embeddings WHERE item_kind = ? AND model = ? AND dim = ?)",
        (kind, model, dim),
    )


def vectors_of(soul: Soul, keys: Iterable[tuple[str, int]], model: str, dim: int) -> dict[tuple[str, int], bytes]:
    """The stored vectors one embedder made of some items, by key (those it made none of are absent)."""
    return {
        (kind, r["item_id"]): r["vector"]
        for kind, ids in by_kind(keys).items()
        for r in soul.query_in(
            "SELECT item_id, vector FROM embeddings WHERE item_kind = ? AND model = ? "
            "AND dim = ? AND item_id IN ({ids})",
            ids,
            (kind, model, dim),
        )
    }
