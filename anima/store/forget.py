"""A user's forget: the item is removed everywhere, with no placeholder left.

Rows, full-text index entries (by the delete triggers, then an FTS optimize so
no old segment still holds its words), vectors, evidence links, and the edit
history that held its text. What cited it (rules, growth-log entries,
self-model sections, episodes) is flagged for regeneration by the next deep
reflection. Freed pages are zeroed (secure_delete) and the WAL is truncated,
so the text does not linger even in encrypted free space.
"""

from ..errors import NotFound
from .migrations import FTS_COLUMNS

# owner kind -> table with a needs_regeneration flag
_FLAG_TABLES = {"memory": "memories", "episode": "episodes", "self_model": "self_model",
                "growth_log": "growth_log", "rule": "behavioral_rules"}


def forget_item(con, kind: str, item_id: int) -> None:
    from .soul import KINDS
    table = KINDS[kind][0]
    if con.execute(f"SELECT 1 FROM {table} WHERE id = ?", (item_id,)).fetchone() is None:
        raise NotFound(f"There is no {kind.replace('_', ' ')} #{item_id} to forget.")
    # Derived items whose whole content came from this one go with it.
    if kind == "part":
        for (pid,) in con.execute("SELECT id FROM predictions WHERE part_id = ?", (item_id,)).fetchall():
            _drop_traces(con, "prediction", pid)
    if kind == "message":
        for (sid,) in con.execute("SELECT id FROM emotional_signals WHERE message_id = ?", (item_id,)).fetchall():
            _drop_traces(con, "signal", sid)
        # A memory drawn from this message keeps its text but loses its source, and is flagged for review.
        con.execute("UPDATE memories SET needs_regeneration = 1 WHERE source_message_id = ?", (item_id,))
    if kind == "memory":
        con.execute("UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?", (item_id,))
    _flag_citers(con, kind, item_id)
    _drop_traces(con, kind, item_id)
    if kind == "growth_log":
        con.execute("INSERT INTO forget_gate(open) VALUES (1)")
        con.execute("DELETE FROM growth_log WHERE id = ?", (item_id,))
        con.execute("DELETE FROM forget_gate")
    else:
        con.execute(f"DELETE FROM {table} WHERE id = ?", (item_id,))


def _flag_citers(con, kind: str, item_id: int) -> None:
    owners = con.execute("SELECT owner_kind, owner_id FROM evidence WHERE item_kind = ? AND item_id = ?",
                         (kind, item_id)).fetchall()
    for owner_kind, owner_id in owners:
        table = _FLAG_TABLES.get(owner_kind)
        if table:
            con.execute(f"UPDATE {table} SET needs_regeneration = 1 WHERE id = ?", (owner_id,))
    con.execute("DELETE FROM evidence WHERE item_kind = ? AND item_id = ?", (kind, item_id))


def _drop_traces(con, kind: str, item_id: int) -> None:
    """Everything about one item outside its own row."""
    con.execute("DELETE FROM evidence WHERE owner_kind = ? AND owner_id = ?", (kind, item_id))
    con.execute("DELETE FROM embeddings WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    con.execute("DELETE FROM edit_history WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    con.execute("DELETE FROM recalls WHERE item_kind = ? AND item_id = ?", (kind, item_id))


def scrub(con) -> None:
    """After a forget commits: merge FTS segments so deleted terms are gone, and empty the WAL."""
    for table in FTS_COLUMNS:
        con.execute(f"INSERT INTO {table}_fts({table}_fts) VALUES ('optimize')")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
