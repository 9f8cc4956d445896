"""Full-text search with BM25, inside the encrypted file (SQLite FTS5, Porter stemming).

Scripts written without spaces (Chinese, Japanese, Thai...) have no words for
the stemmed index to find: FTS5 keeps a whole run of them as one token. Their
text is also in a trigram index ({table}_grams, store/migrations.py m004), and
a query's runs are searched there by their character pairs (bigrams): most
Chinese words are two characters long, and a question seldom shares three in a
row with the memory it is after. What to search for is chosen here; the SQL
that searches is in store/full_text.py.
"""

import functools
import re
from collections.abc import Iterable

import snowballstemmer

from ..store import full_text
from ..store.kinds import KINDS
from ..store.migrations import UNSPACED_RANGES
from ..store.soul import Soul

# Words that say how a question is asked, not what it is about.
STOPWORDS = frozenset(
    """
a about above after again all also am an and any are as at be been before being below between both but by can
could did do does doing down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves s t don ever kind
""".split()
)
# Words a message often ends with after its question ("tell me more", "say more", "go on", "thanks"): they ask
# for nothing recall could find. Only adds_no_terms reads them: elsewhere they can be what a text is about.
ASKING = frozenset(
    """
say tell please thanks thank go ok okay yes yeah hi hey hello oh lol
""".split()
)


_SCRIPT = "".join(f"{chr(a)}-{chr(b)}" for a, b in UNSPACED_RANGES)
UNSPACED = re.compile(f"[{_SCRIPT}]+")  # a run of text in a script written without spaces
_WORD = re.compile(f"([{_SCRIPT}]+)|[^\\W{_SCRIPT}]+")


def pairs(run: str) -> list[str]:
    """A run of unspaced text as the words it may hold: its character pairs (the run itself if one character)."""
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def terms(text: str) -> list[str]:
    """The content words of a text; a run of unspaced text gives its character pairs (see pairs)."""
    seen: set[str] = set()
    out: list[str] = []
    for m in _WORD.finditer(text.lower()):
        for w in pairs(m.group(1)) if m.group(1) else (m.group(0),):
            if w not in STOPWORDS and w not in seen and len(w) > 1:
                seen.add(w)
                out.append(w)
    return out


# A word found in more than this share of a table's items says little about which of them is meant, and it is
# what makes a search slow (BM25 scores every item holding it): it is left out while rarer words remain.
COMMON_SHARE = 0.05
COMMON_FROM_ITEMS = 2000  # below this, every word is cheap and kept
_STEM = snowballstemmer.stemmer("porter")  # the Porter algorithm, as FTS5's porter tokenizer stems


@functools.lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    # Stemming is pure and a vocabulary is small: finding parts stems every trigger of every part per moment.
    stem: str = _STEM.stemWord(word)
    return stem


def adds_no_terms(before: str, text: str) -> bool:
    """Whether `text` is `before` with only words after it that ask for nothing (ASKING, punctuation:
    "…the painting I finished?" + " Say more."): it asks for what `before` asks, and a recall made for `before`
    serves it. The words must follow a whole word: "pian" + "o" is another word, and so another term."""

    def asked(t: str) -> list[str]:
        return [w for w in terms(t) if w not in ASKING]

    return bool(before) and text.startswith(before) and asked(text) == asked(before)


def stems(text: str) -> set[str]:
    """The Porter stems of a text's content words (as the index matches them)."""
    return {_stem(w) for w in terms(text)}


def match_expression(words: list[str]) -> str | None:
    return " OR ".join(f'"{w}"' for w in words) if words else None


def informative(soul: Soul, table: str, words: list[str]) -> list[str]:
    """The query's words without the ones common in `table` (all of them, if nothing rarer remains)."""
    items = full_text.items(soul, table)
    if len(words) < 2 or items < COMMON_FROM_ITEMS:
        return words
    stem_of = {w: _STEM.stemWord(w) for w in words}
    docs = full_text.documents(soul, table, sorted(set(stem_of.values())))  # "paint", "painting": one term
    kept = [w for w in words if docs.get(stem_of[w], 0) <= COMMON_SHARE * items]
    return kept or words


def search(soul: Soul, query: str, kinds: Iterable[str], limit: int = 100) -> list[tuple[tuple[str, int], float]]:
    """(key, bm25) best first; bm25 is SQLite's (lower is better), comparable within one table only. An item
    found by both indexes scores the sum of its two (BM25 adds up over a query's terms)."""
    words = [w for w in terms(query) if not UNSPACED.search(w)]  # the stemmed index has no pairs
    runs = UNSPACED.findall(query.lower())
    scores: dict[tuple[str, int], float] = {}
    for kind in kinds:
        table = KINDS[kind].table
        found: list[tuple[int, float]] = []
        # (an expression whenever there are words: informative keeps at least one)
        if words and (expression := match_expression(informative(soul, table, words))):
            found += full_text.matches(soul, table, "fts", expression, limit)
        if runs and (expr := gram_expression(soul, table, runs)):
            found += full_text.matches(soul, table, "grams", expr, limit)
        for item_id, bm25 in found:
            scores[(kind, item_id)] = scores.get((kind, item_id), 0.0) + bm25
    return sorted(scores.items(), key=lambda h: h[1])[:limit]


# A query's pairs are looked up as the trigrams that begin with them; at most this many trigrams are searched.
GRAM_TERMS = 256


def gram_expression(soul: Soul, table: str, runs: list[str]) -> str | None:
    """A MATCH for {table}_grams: every trigram that begins with one of the runs' pairs (each indexed text ends
    in two spaces, so every pair in it begins one), the rarest pairs first; pairs common in a large table are
    left out while rarer ones remain, as words are (informative)."""
    units = list(dict.fromkeys(p for run in runs for p in pairs(run)))
    found: list[tuple[int, list[str]]] = []  # (documents holding the pair, at most; its trigrams)
    for unit in units:
        if grams := full_text.grams_beginning(soul, table, unit):
            found.append((sum(doc for _, doc in grams), [g for g, _ in grams]))
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    items = full_text.items(soul, table)
    if len(found) > 1 and items >= COMMON_FROM_ITEMS:
        found = [f for f in found if f[0] <= COMMON_SHARE * items] or found
    searched = [g for _, unit_grams in found for g in unit_grams][:GRAM_TERMS]
    return " OR ".join(_quoted(g) for g in searched)


def every_word(soul: Soul, table: str, text: str, column: str) -> tuple[full_text.Index, str] | None:
    """What a person's search for `text` matches in one column of a table: the index to search and a MATCH for
    the items whose `column` holds every word of it (as the index stems words: "painting" finds "painted"); None
    when nothing can match (no word to look for, or a pair of characters no item holds). Where `text` has a run in
    a script written without spaces, only items holding such text can match, and they are in the trigram index:
    the run and each word are searched there as written."""
    words = [w for w in terms(text) if not UNSPACED.search(w)]
    runs = UNSPACED.findall(text.lower())
    if not runs:
        return ("fts", f"{column} : ({' AND '.join(_quoted(w) for w in words)})") if words else None
    needed: list[str] = []
    for unit in dict.fromkeys(runs + words):
        if len(unit) >= 3:  # the trigram index finds any three characters or more where they stand in a text
            needed.append(_quoted(unit))
        elif grams := full_text.grams_beginning(soul, table, unit):  # shorter: a trigram beginning with them
            needed.append("(" + " OR ".join(_quoted(g) for g, _ in grams) + ")")
        else:
            return None
    return "grams", f"{column} : ({' AND '.join(needed)})"


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def newest_holding(
    soul: Soul,
    kind: str,
    text: str,
    column: str,
    limit: int | None,
    *,
    before: int | None = None,
    down_to: int | None = None,
) -> list[int]:
    """The ids of the items of `kind` whose `column` holds every word of `text` (every_word), newest first, paged
    by id as full_text.newest_matches pages them."""
    table = KINDS[kind].table
    search = every_word(soul, table, text, column)
    if search is None:
        return []
    return full_text.newest_matches(soul, table, *search, limit, before=before, down_to=down_to)
