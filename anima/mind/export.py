"""Everything the soul holds, as one readable JSON file: what a person downloads to see it all.

One object with a key per kind of record, named as the registry (store/kinds.py)
names its table (`messages`, `memories`, `world_cards`, `episodes`,
`growth_log`, ...), and the ledgers (`edit_history`, `evidence`, `recalls`),
each a list of records. Values stored as JSON (a part, a card's keywords, an
edit's before and after) are written as JSON, not as strings. Vectors are
numbers made from the texts that are here; they are left out.

This copy is NOT encrypted; the command that writes it says so. It is written
as the core and the key file are (keys.write_atomically): to a new file beside
it, fsynced, then renamed over it, so a full disk or a killed program leaves
the old file or none, and a full disk is a DiskFull that names the file.
"""

import json
import os
from pathlib import Path

from ..store import keys
from ..store.kinds import KINDS, LEDGERS
from ..store.soul import Soul
from .card_kept import keep_stored

WARNING = ("This file is a plain-text copy of everything the companion holds. It is NOT encrypted: "
           "anyone who can read it can read all of it.")
# Columns whose text is itself JSON.
_JSON = {("parts", "data"), ("parts", "lineage"), ("world_cards", "keywords"), ("edit_history", "before"),
         ("edit_history", "after"), ("recalls", "components")}


def everything(soul: Soul) -> dict[str, list[dict]]:
    keep_stored(soul)  # a soul not opened by the mind since it was upgraded: its cards as they are kept, first
    out: dict = {"warning": WARNING, "name": soul.get_meta("name", "Anima"),
                 "person": soul.get_meta("user_name", "")}
    for table in [k.table for k in KINDS.values()] + list(LEDGERS):
        rows = soul.query(f"SELECT * FROM {table} ORDER BY rowid")
        out[table] = [{col: (json.loads(v) if (table, col) in _JSON and isinstance(v, str) else v)
                       for col, v in r.items()} for r in rows]
    return out


def export_json(soul: Soul, path: str | os.PathLike) -> dict[str, int]:
    """Write it all to `path` (whole, or not at all); returns how many records of each kind went in."""
    data = everything(soul)
    # Made whole in memory first (everything() already holds it all): a full disk can then only meet the writing,
    # which write_atomically turns into a DiskFull, leaving nothing beside the old file.
    text = json.dumps(data, ensure_ascii=False, indent=1)
    keys.write_atomically(Path(path), text.encode("utf-8"))
    return {k: len(v) for k, v in data.items() if isinstance(v, list)}
