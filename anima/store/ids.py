"""An id is never given twice: a forgotten item's id does not come back as a new item's.

SQLite numbers a new row one above the largest id still there, so forgetting the newest item would hand its id
to the next one, and "forget message 13", typed from a listing made before, would remove a message that was
never meant. Forgetting raises the table's floor (kept in meta, so it travels with the portable core), and new
rows are numbered above it. The floor tells no more than the ids of the items still there do: how many were given.
"""

import sqlcipher3


def _key(table: str) -> str:
    return f"ids_after:{table}"


def new_id(table: str) -> str:
    """SQL for the id of a row about to be inserted into `table`: above every id there and every id forgotten."""
    return (
        f"(SELECT max(coalesce((SELECT max(id) FROM {table}), 0), "
        f"coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{_key(table)}'), 0)) + 1)"
    )


def forgotten(con: sqlcipher3.Connection, table: str, item_id: int) -> None:
    """`item_id` of `table` was forgotten (in the caller's transaction): it is never given again."""
    con.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
        "SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
        (_key(table), item_id),
    )
