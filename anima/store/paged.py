"""A table of the soul read a page of rows at a time, in rowid order: a reader of a large one (the readable
export, interchange/export.py) never holds it whole."""

from .kinds import SOUL_TABLES
from .soul import Row, Soul


def page(soul: Soul, table: str, after: int | None, limit: int) -> list[tuple[int, Row]]:
    """Up to `limit` rows of one of the soul's tables (kinds.SOUL_TABLES) past rowid `after` (None: from the
    first), in rowid order, each with its rowid."""
    if table not in SOUL_TABLES:
        raise ValueError(f"{table!r} is not a table of the soul")
    rows = soul.query(
        f"SELECT rowid AS rowid_, * FROM {table} "
        + ("WHERE rowid > ? " if after is not None else "")
        + "ORDER BY rowid LIMIT ?",
        (after, limit) if after is not None else (limit,),
    )
    return [(r.pop("rowid_"), r) for r in rows]
