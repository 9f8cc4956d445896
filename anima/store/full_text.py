"""The full-text indexes, read: BM25 matches, and how many items hold a term.

Each indexed kind (kinds.py, INDEXED) has a stemmed index, {table}_fts, and a
trigram index for scripts written without spaces, {table}_grams (migrations.py
m002, m004). What to search for, and which words say little, is retrieval's
choice (retrieval/fts.py); the SQL is here.
"""

import weakref
from typing import Literal

from .kinds import full_text_tables
from .soul import Soul

Index = Literal["fts", "grams"]  # the stemmed index, or the trigram one

_INDEXES = tuple(full_text_tables())  # {table}_fts and {table}_grams of every indexed kind
_PAST_LAST = 2**63 - 1  # past SQLite's largest rowid: below it is every item
_WITH_VOCAB: "weakref.WeakSet[Soul]" = weakref.WeakSet()  # souls whose connection has the vocabulary views


def _index(table: str, index: Index) -> str:
    name = f"{table}_{index}"
    if name not in _INDEXES:
        raise ValueError(f"there is no full-text index {name!r}")
    return name


def items(soul: Soul, table: str) -> int:
    """How many items an indexed table has held, at most (its highest id: read at once, where count(*) is not)."""
    _index(table, "fts")
    return soul.query(f"SELECT max(rowid) AS n FROM {table}")[0]["n"] or 0


def matches(soul: Soul, table: str, index: Index, expression: str, limit: int) -> list[tuple[int, float]]:
    """(item id, bm25) of the items an FTS5 MATCH expression finds in one of a table's indexes, best first;
    bm25 is SQLite's (lower is better)."""
    name = _index(table, index)
    rows = soul.query(
        f"SELECT rowid AS id, bm25({name}) AS s FROM {name} WHERE {name} MATCH ? ORDER BY s LIMIT ?",
        (expression, limit),
    )
    return [(r["id"], r["s"]) for r in rows]


def newest_matches(
    soul: Soul,
    table: str,
    index: Index,
    expression: str,
    limit: int | None,
    *,
    before: int | None = None,
    down_to: int | None = None,
) -> list[int]:
    """The ids of the items an FTS5 MATCH expression finds in one of a table's indexes, newest (highest id) first:
    at most `limit` of them (None: all), below id `before` and none below id `down_to`. A person's search read a
    page at a time: each page is found by id, not by counting past the ones before it, and the index hands them
    in id order, so a page deep in a long history comes as quickly as the first."""
    name = _index(table, index)
    rows = soul.query(
        f"SELECT rowid AS id FROM {name} WHERE {name} MATCH ? AND rowid < ? AND rowid >= ? ORDER BY rowid DESC LIMIT ?",
        (
            expression,
            _PAST_LAST if before is None else before,
            0 if down_to is None else down_to,
            -1 if limit is None else limit,
        ),
    )
    return [r["id"] for r in rows]


def documents(soul: Soul, table: str, stems: list[str]) -> dict[str, int]:
    """How many items of a table hold each of some stemmed terms, by its stemmed index (absent: none)."""
    view = _vocabulary(soul, table, "fts")
    rows = soul.query(f"SELECT term, doc FROM {view} WHERE term IN ({','.join('?' * len(stems))})", stems)
    return {r["term"]: r["doc"] for r in rows}


def grams_beginning(soul: Soul, table: str, prefix: str) -> list[tuple[str, int]]:
    """The trigrams in a table's trigram index that begin with `prefix`, each with how many items hold it."""
    view = _vocabulary(soul, table, "grams")
    after = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # the first string past every one that begins with `prefix`
    rows = soul.query(f"SELECT term, doc FROM {view} WHERE term >= ? AND term < ?", (prefix, after))
    return [(r["term"], r["doc"]) for r in rows]


def _vocabulary(soul: Soul, table: str, index: Index) -> str:
    """The view of an index's vocabulary, in the connection's temp schema (views hold no data): made once per
    soul, for every index at once."""
    name = _index(table, index)
    if soul not in _WITH_VOCAB:
        for each in _INDEXES:
            soul.query(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{each}_vocab USING fts5vocab(main, '{each}', 'row')")
        _WITH_VOCAB.add(soul)
    return f"temp.{name}_vocab"
