"""Hybrid recall: BM25 and vectors fused by Reciprocal Rank Fusion (k=60), then re-ranked.

The re-rank follows seed 003: importance; passive decay (a 30-day half-life on
recency, for low-importance memories only); active suppression (a corrected
memory and its closest associates lose rank); heat (memories the replies used
gain, memories loaded again and again but never used cool). Each result keeps
its score components, so "why did you recall that" can be answered. The SQL
that reads the items is in store/recallable.py.
"""

import math
import re
from collections.abc import Iterable, Set
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from ..store import clock, recallable
from ..store.kinds import RECALLED
from ..store.soul import Soul
from . import dates, fts
from .indexer import Indexer

Key = tuple[str, int]  # (item kind, item id)

_EMBEDDING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embedding")

RRF_K = 60
CANDIDATES = 100
# Words name people and rare things exactly; meaning finds paraphrase. Lexical evidence counts a bit more.
LEXICAL_WEIGHT, VECTOR_WEIGHT = 1.5, 1.0
# A message whose speaker the query names (the person, or the companion) is likelier to be the answer.
NAMED_SPEAKER_BOOST = 1.3
# A conversation's answer often sits right beside the turn that matches the words: neighbours share credit.
NEIGHBOUR_SHARE = 0.3
# What the person said outweighs what the companion replied (issue 42: a small model's made-up replies outranked
# "My sister Jo ... nurse in Leeds" for "Who is Jo?"): the workspace recalls the companion's own words at this
# share of their score, unless the query names it. Plain search (a benchmark of both speakers' turns) weighs both
# alike.
COMPANION_WORDS = 0.6
# A question about a time ("on 9 November", "last week") favours what was said or known then: strongly, as the
# answer is often in other words than the question's ("What dish did Nate make on 9 November?": "Look at this
# homemade coconut ice cream!"), while other days share its words. (At 1.5, LoCoMo's temporal questions were
# recalled at 0.872 at R@10; at 3.0, 0.888.)
IN_SPAN_BOOST = 3.0
HALF_LIFE_DAYS = 30.0
LOW_IMPORTANCE = 0.35
KINDS = RECALLED

READ_CHARS = 2000  # a name that matters to recall is near the start of a query

# Digits shown of each score component (rounded only for the items returned).
_DIGITS = {
    "vector_sim": 4,
    "rrf": 6,
    "final": 6,
    "from_neighbour": 6,
    "importance": 3,
    "recency": 4,
    "heat": 4,
    "suppression": 3,
}

# Vector search always returns its nearest, however far. For the workspace an item must have matched the
# words, or be at least this close in meaning (cosine, all-MiniLM-L6-v2's scale).
RELEVANT_SIMILARITY = 0.3


@dataclass
class Recalled:
    kind: str
    id: int
    text: str
    at: str
    score: float
    components: dict[str, Any] = field(default_factory=dict)
    row: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int]:
        return (self.kind, self.id)

    @property
    def relevant(self) -> bool:
        c = self.components
        return (
            c.get("bm25_rank") is not None
            or c.get("keyword") is not None
            or (c.get("vector_sim") or 0.0) >= RELEVANT_SIMILARITY
        )


def parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def mentions(query: str, name: str) -> bool:
    """Whether a query speaks of `name`. A name said to someone, at the start or the end and set off by a comma
    ("Anima, I had a rough day", "Hey Anima! ...", "... thanks, Anima."), addresses them: not asking about them."""
    n = re.escape(name)
    spoken_of = re.sub(rf"^\s*(?:(?:hey|hi|hello|dear|oh)\s+)?{n}\s*[,!]|,\s*{n}\s*[.!?]*\s*$", " ", query, flags=re.I)
    return set(re.findall(r"\w+", name.lower())) <= set(re.findall(r"\w+", spoken_of.lower()))


def shaped_like_a_key(query: str, named: set[str]) -> str:
    """A query that names one speaker, worded as messages are embedded ("Speaker: text", see indexer.key_text):
    "What did Gina find for her store?" -> "Gina: What did find for her store?"."""
    if len(named) != 1:
        return query
    name = next(iter(named))
    rest = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", "", query, flags=re.I)
    return f"{name}: {' '.join(rest.split())}"


def rrf(rankings: list[list[Key]], weights: list[float]) -> dict[Key, tuple[float, list[int | None]]]:
    """Weighted Reciprocal Rank Fusion: key -> (score, [rank in each list or None])."""
    fused: dict[Key, tuple[float, list[int | None]]] = {}
    for i, (ranking, weight) in enumerate(zip(rankings, weights, strict=False)):
        for rank, key in enumerate(ranking, start=1):
            score, ranks = fused.get(key, (0.0, [None] * len(rankings)))
            ranks[i] = rank
            fused[key] = (score + weight / (RRF_K + rank), ranks)
    return fused


class Recall:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer
        self._speakers_at: int | None = -1
        self._speakers_cache: list[str] = []

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        kinds: Iterable[str] = KINDS,
        now: datetime | None = None,
        query_vector: npt.ArrayLike | None = None,
        exclude: Set[Key] = frozenset(),
        companion_words: float = 1.0,
    ) -> list[Recalled]:
        """`exclude`: keys that take no part at all (a message recalling for itself would shift every rank);
        `companion_words`: the share of its score a message the companion wrote keeps (COMPANION_WORDS)."""
        now = now or clock.now()
        now = now if now.tzinfo else now.replace(tzinfo=UTC)  # stored times are all zoned
        kinds = tuple(kinds)
        # What another program on this soul stored or forgot since the last recall (one pragma when nothing).
        self.indexer.catch_up()
        named = self._named_speakers(query)
        # The query's embedding and the full-text search run at the same time (both release the GIL).
        pending: Future[npt.NDArray[np.float32]] | None = None
        if query.strip() and query_vector is None:
            pending = _EMBEDDING.submit(self.indexer.embedder.embed, shaped_like_a_key(query, named))
        lexical = [
            key for key, _ in fts.search(self.soul, query, kinds, CANDIDATES + len(exclude)) if key not in exclude
        ][:CANDIDATES]
        vector: list[tuple[Key, float]] = []
        if query.strip():
            q = pending.result() if pending is not None else query_vector
            assert q is not None  # no embedding pending: the caller gave the query's vector
            vector = [
                (key, sim)
                for key, sim in self.indexer.index.search(q, CANDIDATES * 2)
                if key[0] in kinds and key not in exclude
            ]
            vector = vector[:CANDIDATES]
            nearest = {key for key, _ in vector}
            vector += self._nearness(q, [key for key in lexical if key not in nearest])
        sims = dict(vector)
        fused = rrf([lexical, [key for key, _ in vector]], [LEXICAL_WEIGHT, VECTOR_WEIGHT])
        rows = self._found(fused.keys())
        asked_span = dates.span(query, now)
        out: dict[Key, Recalled] = {}
        for key, (score, (bm25_rank, vector_rank)) in fused.items():
            row = rows.get(key)
            if row is None:
                continue  # forgotten between the search and now
            c: dict[str, Any] = {
                "bm25_rank": bm25_rank,
                "vector_rank": vector_rank,
                "vector_sim": sims.get(key),
                "rrf": score,
            }
            if key[0] == "message" and row.get("speaker") in named:
                score *= NAMED_SPEAKER_BOOST
                c["named_speaker"] = row["speaker"]
            elif key[0] == "message" and row.get("role") == "companion" and companion_words != 1.0:
                score *= companion_words
                c["companion_words"] = companion_words
            if asked_span and (at := parse_time(row["at"])) and asked_span[0] <= at < asked_span[1]:
                score *= IN_SPAN_BOOST
                c["in_asked_span"] = True
            final = score * self._rerank(key[0], row, now, c)
            out[key] = Recalled(key[0], key[1], row["text"], row["at"], final, c, row)
        self._share_with_neighbours(out)
        best = sorted(out.values(), key=lambda r: -r.score)[:k]
        for r in best:  # rounded for people to read, only for what is shown
            r.components["final"] = r.score
            r.components.update(
                {name: round(v, _DIGITS[name]) for name, v in r.components.items() if name in _DIGITS and v is not None}
            )
        return best

    def _nearness(self, query_vector: npt.ArrayLike, keys: list[Key]) -> list[tuple[Key, float]]:
        """Items that matched the words but not among the nearest in meaning, by their nearness (best first): they
        follow the nearest in the ranking by meaning. Their vectors are in the index: no search, one product each.
        (The nearest are few, of a whole history; a turn that answers in other words than the question's, one
        beyond them, counted for its words alone: LoCoMo's evidence recall@10 rose from 0.747 to 0.782.)"""
        q = np.asarray(query_vector, dtype=np.float32)
        index = self.indexer.index
        near = [(key, float(v @ q)) for key in keys if (v := index.vector(key)) is not None]
        return sorted(near, key=lambda kv: -kv[1])

    def _named_speakers(self, query: str) -> set[str]:
        """Speakers the query names, when it names exactly one (two names say nothing about whose turn it is)."""
        named = {s for s in self._speakers() if mentions(query[:READ_CHARS], s)}
        return named if len(named) == 1 else set()

    def _speakers(self) -> list[str]:
        """The names that have spoken, re-read only when a message has been added (not on every recall), and
        then only in the new messages (a year of them takes a while to read); all of them again when the newest
        was forgotten."""
        newest = recallable.newest_message(self.soul)
        if self._speakers_at != newest:
            at = self._speakers_at
            if at is not None and at >= 0 and newest is not None and newest > at:
                new = [s for s in recallable.speakers(self.soul, after=at) if s not in self._speakers_cache]
                self._speakers_cache = self._speakers_cache + new
            else:
                self._speakers_cache = recallable.speakers(self.soul)
            self._speakers_at = newest
        return self._speakers_cache

    def _share_with_neighbours(self, found: dict[Key, Recalled]) -> None:
        """Each message lends a share of its score to the turns just before and after it (same session)."""
        ids = [key[1] for key in found if key[0] == "message"]
        if not ids:
            return
        base = {key: r.score for key, r in found.items()}
        lent: dict[int, float] = {}
        for message_id, before, after in recallable.neighbours(self.soul, ids):
            share = NEIGHBOUR_SHARE * base[("message", message_id)]
            for nid in (before, after):
                if nid is not None:
                    lent[nid] = max(lent.get(nid, 0.0), share)
        missing = [nid for nid in lent if ("message", nid) not in found]
        if missing:
            for key, row in self._found([("message", nid) for nid in missing]).items():
                found[key] = Recalled(
                    "message",
                    key[1],
                    row["text"],
                    row["at"],
                    0.0,
                    {"bm25_rank": None, "vector_rank": None, "vector_sim": None, "rrf": 0.0},
                    row,
                )
        for nid, share in lent.items():
            r = found.get(("message", nid))
            if r is not None and share > 0:
                r.score = max(r.score, base.get(("message", nid), 0.0) + share)
                r.components["from_neighbour"] = share

    def _rerank(self, kind: str, row: dict[str, Any], now: datetime, c: dict[str, Any]) -> float:
        importance: float = row.get("importance", 0.5)
        factor = 0.75 + 0.5 * importance
        c["importance"] = importance
        if kind == "memory":
            age_days = 0.0
            at = parse_time(row["at"])
            if at is not None:
                age_days = max(0.0, (now - at).total_seconds() / 86400)
            recency = 0.5 ** (age_days / HALF_LIFE_DAYS) if importance < LOW_IMPORTANCE else 1.0
            # Heat: used memories warm up; loaded-but-never-used ones cool.
            heat = 1.0 + 0.1 * math.log1p(row["uses"]) - 0.1 * min(1.0, max(0, row["loads"] - 3 * row["uses"]) / 10)
            suppression = row["suppression"]
            superseded = 0.7 if row["valid_to"] else 1.0  # still answerable for "what was true then"
            factor *= recency * heat * (1.0 - 0.8 * suppression) * superseded
            c.update(recency=recency, heat=heat, suppression=suppression, superseded=row["valid_to"] is not None)
        return factor

    def _found(self, keys: Iterable[Key]) -> dict[Key, dict[str, Any]]:
        """The rows of items recall may bring back: not a version of a message the person set aside
        (knowledge/branches.py)."""
        rows = self.items(keys)
        for i in recallable.set_aside(self.soul, [i for kind, i in rows if kind == "message"]):
            del rows[("message", i)]
        return rows

    def items(self, keys: Iterable[Key]) -> dict[Key, dict[str, Any]]:
        """The current rows of some recallable items, by key (forgotten ones are simply absent)."""
        return recallable.rows(self.soul, keys)
