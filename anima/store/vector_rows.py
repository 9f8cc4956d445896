"""The rows that keep each program's in-memory vector index in step: the vector feed and the kept graph.

The feed (migrations.py, m011) is every change to `embeddings`, appended by triggers, that the other programs
on the soul follow; the kept graph is the index's built graph, stored in parts (retrieval/snapshot.py packs it).
When to read, keep or prune them is retrieval's (retrieval/indexer.py); the SQL is here. Writes take the
caller's transaction, so the indexer decides what is one.
"""

from dataclasses import dataclass

import sqlcipher3

from .soul import Soul

Change = tuple[str, int, str]  # (item kind, item id, "put" or "drop")
_PAST_LAST = 2**63 - 1  # past SQLite's largest seq: up to it is every change


def has_feed(soul: Soul) -> bool:
    """Whether the soul has the vector feed: one opened at a schema before m011 has not."""
    return bool(soul.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vector_feed'"))


def sequence(soul: Soul) -> int:
    """The highest feed seq ever given (AUTOINCREMENT keeps it, whatever was pruned)."""
    rows = soul.query("SELECT seq FROM sqlite_sequence WHERE name = 'vector_feed'")
    return rows[0]["seq"] if rows else 0


def changes(soul: Soul, after: int, through: int | None = None) -> list[Change]:
    """The feed's changes after seq `after` (and up to `through`), in the order they were made."""
    rows = soul.query(
        "SELECT item_kind, item_id, op FROM vector_feed WHERE seq > ? AND seq <= ? ORDER BY seq",
        (after, _PAST_LAST if through is None else through),
    )
    return [(r["item_kind"], r["item_id"], r["op"]) for r in rows]


def pruned_through(soul: Soul) -> int:
    """Every feed row up to this seq was pruned."""
    rows = soul.query("SELECT value FROM vector_state WHERE key = 'pruned_through'")
    return rows[0]["value"] if rows else 0


def prune(con: sqlcipher3.Connection, through: int, made_by: int) -> None:
    """The feed's rows go up to the newest one, at seq `through` or below, written by Unix time `made_by`; in the
    caller's transaction."""
    cutoff = con.execute("SELECT max(seq) FROM vector_feed WHERE seq <= ? AND at <= ?", (through, made_by)).fetchone()[
        0
    ]
    if cutoff is not None:
        con.execute("DELETE FROM vector_feed WHERE seq <= ?", (cutoff,))
        con.execute("UPDATE vector_state SET value = max(value, ?) WHERE key = 'pruned_through'", (cutoff,))


@dataclass(frozen=True)
class KeptGraph:
    """A graph kept complete for one embedder: the feed seq it stands for, and its parts as they were read."""

    through: int
    parts: int  # how many it was written in
    header: str  # retrieval/snapshot.py's header, as JSON
    data: list[bytes]  # the parts read back, in order (fewer than `parts` when some are missing)


def kept_graph(soul: Soul, model: str, dim: int) -> KeptGraph | None:
    """The newest complete graph kept for this embedder, or None."""
    found = soul.query(
        "SELECT id, through, parts, header FROM vector_snapshots WHERE state = 'complete' "
        "AND model = ? AND dim = ? ORDER BY through DESC LIMIT 1",
        (model, dim),
    )
    if not found:
        return None
    s = found[0]
    parts = soul.query("SELECT data FROM vector_snapshot_parts WHERE snapshot_id = ? ORDER BY n", (s["id"],))
    return KeptGraph(s["through"], s["parts"], s["header"], [p["data"] for p in parts])


def begin_graph(
    con: sqlcipher3.Connection, model: str, dim: int, through: int, parts: int, header: str, made_at: int
) -> int:
    """A graph being written (state 'writing'), in `parts` parts; returns its id."""
    graph: int = con.execute(
        "INSERT INTO vector_snapshots(model, dim, through, parts, header, made_at) VALUES (?, ?, ?, ?, ?, ?)",
        (model, dim, through, parts, header, made_at),
    ).lastrowid
    return graph


def add_graph_part(con: sqlcipher3.Connection, graph: int, n: int, data: bytes) -> None:
    con.execute("INSERT INTO vector_snapshot_parts VALUES (?, ?, ?)", (graph, n, data))


def complete_graph(con: sqlcipher3.Connection, graph: int, model: str, dim: int, through: int, parts: int) -> bool:
    """Make a graph written in `parts` parts, standing for the feed through seq `through`, the one read at unlock,
    retiring the one before; or, when some of its parts are missing or a newer one was completed meanwhile
    (another program's), retire it. Whether it was made so."""
    newest = con.execute(
        "SELECT max(through) FROM vector_snapshots WHERE state = 'complete' AND model = ? AND dim = ?", (model, dim)
    ).fetchone()[0]
    written = con.execute("SELECT count(*) FROM vector_snapshot_parts WHERE snapshot_id = ?", (graph,)).fetchone()[0]
    if written != parts or (newest is not None and newest > through):
        retire_graph(con, graph)
        return False
    con.execute("UPDATE vector_snapshots SET state = 'retired' WHERE state = 'complete'")
    con.execute("UPDATE vector_snapshots SET state = 'complete' WHERE id = ?", (graph,))
    return True


def retire_graph(con: sqlcipher3.Connection, graph: int) -> None:
    con.execute("UPDATE vector_snapshots SET state = 'retired' WHERE id = ?", (graph,))


def graphs_to_remove(soul: Soul, begun_before: int) -> list[int]:
    """The retired graphs, and those still being written that were begun before `begun_before` (left by a program
    that ended)."""
    return [
        r["id"]
        for r in soul.query(
            "SELECT id FROM vector_snapshots WHERE state = 'retired' OR (state = 'writing' AND made_at < ?)",
            (begun_before,),
        )
    ]


def graph_parts(soul: Soul, graph: int) -> list[int]:
    """The numbers of the parts a graph still has."""
    return [p["n"] for p in soul.query("SELECT n FROM vector_snapshot_parts WHERE snapshot_id = ?", (graph,))]


def remove_graph_part(con: sqlcipher3.Connection, graph: int, n: int) -> None:
    con.execute("DELETE FROM vector_snapshot_parts WHERE snapshot_id = ? AND n = ?", (graph, n))


def remove_graph(con: sqlcipher3.Connection, graph: int) -> None:
    con.execute("DELETE FROM vector_snapshots WHERE id = ?", (graph,))
