"""Everything the soul holds, as one readable JSON file: what a person downloads to see it all.

One object with a key per kind of record, named as the registry (store/kinds.py)
names its table (`messages`, `memories`, `world_cards`, `episodes`,
`growth_log`, ...), and the ledgers (`edit_history`, `evidence`, `recalls`),
each a list of records. Values stored as JSON (a part, a card's keywords, an
edit's before and after) are written as JSON, not as strings. Vectors are
numbers made from the texts that are here; they are left out.

This copy is NOT encrypted; the command that writes it says so. It is written
as the core and the key file are (files.write_atomically): to a new file beside
it, fsynced, then renamed over it, so a full disk or a killed program leaves
the old file or none, and a full disk is a DiskFull that names the file.
"""

import json
import os
from collections.abc import Iterator
from typing import Any

from .. import files
from ..paths import export_target
from ..store import paged
from ..store.kinds import KINDS, LEDGERS
from ..store.soul import Soul
from .card_kept import keep_stored

WARNING = (
    "This file is a plain-text copy of everything the companion holds. It is NOT encrypted: "
    "anyone who can read it can read all of it."
)
# Columns whose text is itself JSON.
_JSON = {
    ("parts", "data"),
    ("parts", "lineage"),
    ("world_cards", "keywords"),
    ("edit_history", "before"),
    ("edit_history", "after"),
    ("recalls", "components"),
}


PAGE = 500  # rows read at a time: a year of messages is never held whole (100,000 took 434 MB at once)
_FLUSH = 1 << 20  # bytes of JSON gathered before each write


def _tables() -> list[str]:
    return [k.table for k in KINDS.values()] + list(LEDGERS)


def _head(soul: Soul) -> dict[str, str | None]:
    return {"warning": WARNING, "name": soul.get_meta("name", "Anima"), "person": soul.get_meta("user_name", "")}


def _records(soul: Soul, table: str) -> Iterator[dict[str, Any]]:
    """The table's rows in rowid order, read a page at a time, values stored as JSON read as JSON."""
    after = None
    while True:
        rows = paged.page(soul, table, after, PAGE)
        for rowid, r in rows:
            yield {col: (json.loads(v) if (table, col) in _JSON and isinstance(v, str) else v) for col, v in r.items()}
            after = rowid
        if len(rows) < PAGE:
            return


def everything(soul: Soul) -> dict[str, Any]:
    """All of it as one dict, whole in memory: what the paged export (_json_pieces) writes must equal its dump, as
    the tests check; the export itself never builds it."""
    keep_stored(soul)  # a soul not opened by the mind since it was upgraded: its cards as they are kept, first
    return {**_head(soul), **{table: list(_records(soul, table)) for table in _tables()}}


def _json_pieces(soul: Soul, counts: dict[str, int]) -> Iterator[bytes]:
    """What json.dumps(everything(soul), ensure_ascii=False, indent=1) writes, a page of rows at a time (after
    keep_stored, as everything() reads it)."""
    out: list[str] = ["{"]
    size = 0
    first = True
    for key, value in _head(soul).items():
        out.append(("\n" if first else ",\n") + f" {json.dumps(key)}: " + json.dumps(value, ensure_ascii=False))
        first = False
    for table in _tables():
        out.append(f",\n {json.dumps(table)}: [")
        n = 0
        for record in _records(soul, table):
            text = json.dumps(record, ensure_ascii=False, indent=1).replace("\n", "\n  ")
            out.append(("\n  " if n == 0 else ",\n  ") + text)
            size += len(text)
            n += 1
            if size >= _FLUSH:
                yield "".join(out).encode("utf-8")
                out, size = [], 0
        out.append("\n ]" if n else "]")
        counts[table] = n
    out.append("\n}")
    yield "".join(out).encode("utf-8")


def export_json(soul: Soul, path: str | os.PathLike[str]) -> dict[str, int]:
    """Write it all to `path` (whole, or not at all); returns how many records of each kind went in.

    Written as it is read, a page of rows at a time, so memory stays bounded by a page, not by the soul; a full
    disk meets the writing, which write_pieces_atomically turns into a DiskFull, leaving nothing beside the old
    file."""
    path = export_target(path, soul.path.parent)
    counts: dict[str, int] = {}
    keep_stored(soul)
    forgets = soul.forgets()
    # A forget committed meanwhile (here or in another program) may have taken what a page already read.
    files.write_pieces_atomically(path, _json_pieces(soul, counts), lambda: soul.forgot_nothing_since(forgets))
    return counts
