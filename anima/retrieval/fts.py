"""Full-text search with BM25, inside the encrypted file (SQLite FTS5, Porter stemming)."""

import re

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


def match_expression(text: str) -> str | None:
    words = terms(text)
    return " OR ".join(f'"{w}"' for w in words) if words else None


def search(soul: Soul, query: str, kinds, limit: int = 100) -> list[tuple[tuple[str, int], float]]:
    """(key, bm25) best first; bm25 is SQLite's (lower is better), comparable within one table only."""
    expr = match_expression(query)
    if expr is None:
        return []
    hits = []
    for kind in kinds:
        table = TABLES[kind]
        rows = soul.query(f"SELECT rowid AS id, bm25({table}_fts) AS s FROM {table}_fts WHERE {table}_fts MATCH ? "
                          f"ORDER BY s LIMIT ?", (expr, limit))
        hits += [((kind, r["id"]), r["s"]) for r in rows]
    hits.sort(key=lambda h: h[1])
    return hits[:limit]
