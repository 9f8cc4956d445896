"""Full-text search with BM25, inside the encrypted file (SQLite FTS5, Porter stemming)."""

import re
import weakref

import snowballstemmer

from ..store.soul import Soul

TABLES = {"message": "messages", "memory": "memories", "episode": "episodes", "world_card": "world_cards"}

# Words that say how a question is asked, not what it is about.
STOPWORDS = frozenset("""
a about above after again all also am an and any are as at be been before being below between both but by can
could did do does doing down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves s t don ever kind
""".split())


def terms(text: str) -> list[str]:
    seen, out = set(), []
    for w in re.findall(r"\w+", text.lower()):
        if w not in STOPWORDS and w not in seen and len(w) > 1:
            seen.add(w)
            out.append(w)
    return out


# A word found in more than this share of a table's items says little about which of them is meant, and it is
# what makes a search slow (BM25 scores every item holding it): it is left out while rarer words remain.
COMMON_SHARE = 0.05
COMMON_FROM_ITEMS = 2000  # below this, every word is cheap and kept
_STEM = snowballstemmer.stemmer("porter")  # the Porter algorithm, as FTS5's porter tokenizer stems
_WITH_VOCAB: "weakref.WeakSet[Soul]" = weakref.WeakSet()  # souls whose connection has the vocabulary views


def stems(text: str) -> set[str]:
    """The Porter stems of a text's content words (as the index matches them)."""
    return {_STEM.stemWord(w) for w in terms(text)}


def match_expression(words: list[str]) -> str | None:
    return " OR ".join(f'"{w}"' for w in words) if words else None


def informative(soul: Soul, table: str, words: list[str]) -> list[str]:
    """The query's words without the ones common in `table` (all of them, if nothing rarer remains)."""
    items = soul.query(f"SELECT max(rowid) AS n FROM {table}")[0]["n"] or 0
    if len(words) < 2 or items < COMMON_FROM_ITEMS:
        return words
    if soul not in _WITH_VOCAB:
        for t in TABLES.values():  # views of the FTS indexes, in this connection's temp schema: no data
            soul.query(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{t}_vocab USING fts5vocab(main, '{t}_fts', 'row')")
        _WITH_VOCAB.add(soul)
    stem_of = {w: _STEM.stemWord(w) for w in words}
    unique = sorted(set(stem_of.values()))  # "paint" and "painting" are one term in the index
    docs = {r["term"]: r["doc"] for r in soul.query(
        f"SELECT term, doc FROM temp.{table}_vocab WHERE term IN ({','.join('?' * len(unique))})", unique)}
    kept = [w for w in words if docs.get(stem_of[w], 0) <= COMMON_SHARE * items]
    return kept or words


def search(soul: Soul, query: str, kinds, limit: int = 100) -> list[tuple[tuple[str, int], float]]:
    """(key, bm25) best first; bm25 is SQLite's (lower is better), comparable within one table only."""
    words = terms(query)
    if not words:
        return []
    hits = []
    for kind in kinds:
        table = TABLES[kind]
        expr = match_expression(informative(soul, table, words))
        rows = soul.query(f"SELECT rowid AS id, bm25({table}_fts) AS s FROM {table}_fts WHERE {table}_fts MATCH ? "
                          f"ORDER BY s LIMIT ?", (expr, limit))
        hits += [((kind, r["id"]), r["s"]) for r in rows]
    hits.sort(key=lambda h: h[1])
    return hits[:limit]
