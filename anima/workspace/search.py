"""Search across the whole mind (the Open Mind's Ctrl+Shift+F): every kind at once, by words and by meaning,
the results grouped by kind.

The kinds recall knows (messages, memories, episodes, world cards) are searched with the same hybrid recall a
turn uses (retrieval/recall.py: BM25 and vectors fused by RRF); an item is kept when it matched the words or is
close enough in meaning (Recalled.relevant), as the workspace keeps one. The other kinds (parts, rules, growth,
feelings, predictions, sections of the self, proposals) are few and have no index: their texts are read as they
are now and matched the same two ways, by their words and by the embedder's vectors.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..knowledge.rules import Rule
from ..models.embedder import Embedder
from ..parts.parts import Part
from ..parts.predictions import Prediction
from ..retrieval import fts
from ..retrieval.recall import RELEVANT_SIMILARITY, Recall
from ..self.feelings import Signal
from ..self.growth import GrowthEntry
from ..self.selfmodel import SelfFloor
from ..store.sections import WRITTEN

RECALLED_FOR_SEARCH = ("memory", "message", "episode", "world_card")
PER_KIND = 8  # results shown of each kind: a search is for finding, not for reading everything


@dataclass(frozen=True)
class Listed:
    """An item of a kind recall has no index for, as the search reads it."""

    kind: str  # the registry's name (store/kinds.py), or "section" for a section of the self
    id: int
    text: str
    at: str = ""
    place: str = ""  # a section's name ("persona"), where `kind` alone does not say where it is


@dataclass(frozen=True)
class Found:
    kind: str
    id: int
    text: str
    at: str
    how: str  # "words", "meaning" or "words and meaning": why it was found, for a person
    score: float
    place: str = ""


def _how(words: bool, meaning: bool) -> str:
    return "words and meaning" if words and meaning else "words" if words else "meaning"


def _word_match(asked: set[str], text: str) -> float:
    """The share of the query's content words the text holds (a word matches one it begins, "cat" in "cats")."""
    if not asked:
        return 0.0
    have = fts.terms(text)
    hits = sum(1 for a in asked if any(h == a or (len(a) > 3 and h.startswith(a)) for h in have))
    return hits / len(asked)


class MindSearch:
    def __init__(self, recall: Recall, embedder: Embedder, listed: Callable[[], Iterable[Listed]]):
        """`listed()`: the items of the kinds recall has no index for, read now (the companion's rooms)."""
        self.recall = recall
        self.embedder = embedder
        self.listed = listed

    def search(self, query: str, per_kind: int = PER_KIND) -> dict[str, list[Found]]:
        """kind -> what was found of it, best first; kinds with nothing found are absent."""
        if not query.strip():
            return {}
        found: list[Found] = []
        for r in self.recall.search(query, per_kind * len(RECALLED_FOR_SEARCH), kinds=RECALLED_FOR_SEARCH):
            if not r.relevant:
                continue
            words = r.components.get("bm25_rank") is not None
            meaning = (r.components.get("vector_sim") or 0.0) >= RELEVANT_SIMILARITY
            found.append(Found(r.kind, r.id, r.text, r.at, _how(words, meaning or not words), r.score))
        found += self._listed(query)
        grouped: dict[str, list[Found]] = {}
        for f in sorted(found, key=lambda f: -f.score):
            if len(shown := grouped.setdefault(f.kind, [])) < per_kind:
                shown.append(f)
        return grouped

    def _listed(self, query: str) -> list[Found]:
        items = [i for i in self.listed() if i.text.strip()]
        if not items:
            return []
        asked = set(fts.terms(query))
        vectors = self.embedder.embed_batch([query] + [i.text for i in items])
        sims = vectors[1:] @ vectors[0]
        out = []
        for item, sim in zip(items, np.asarray(sims, dtype=float).tolist(), strict=True):
            words = _word_match(asked, item.text)
            meaning = sim >= RELEVANT_SIMILARITY
            if words or meaning:
                # Ranked beside recall's RRF scores (about 1/60 at best): a full word match ranks as a first place.
                score = (words * 1.5 + max(sim, 0.0)) / 60
                out.append(Found(item.kind, item.id, item.text, item.at, _how(words > 0, meaning), score, item.place))
        return out


@dataclass(frozen=True)
class Rooms:
    """Where the search reads the kinds recall has no index for: the companion's rooms, asked at each search."""

    parts: Callable[[], Iterable[Part]]
    predictions: Callable[[], Iterable[Prediction]]
    rules: Callable[[], Iterable[Rule]]
    growth: Callable[[], Iterable[GrowthEntry]]
    signals: Callable[[], Iterable[Signal]]
    floor: Callable[[], SelfFloor]
    proposals: Callable[[], Iterable[dict[str, Any]]]


def listed(rooms: Rooms) -> list[Listed]:
    """Every item of the kinds recall has no index for, as the search reads it."""
    floor = rooms.floor()
    return [
        *(Listed("part", p.id, f"{p.name}: {p.data.get('description', '')}", p.updated_at) for p in rooms.parts()),
        *(Listed("prediction", p.id, f"{p.suggestion} — {p.predicted_result}", p.made_at) for p in rooms.predictions()),
        *(Listed("rule", r.id, r.pattern, r.derived_at) for r in rooms.rules()),
        *(Listed("growth_log", g.id, g.entry, g.at) for g in rooms.growth()),
        *(Listed("signal", s.id, f"{s.signal}: {s.evidence}", s.at) for s in rooms.signals()),
        *(Listed("section", i, getattr(floor, name), "", name) for i, name in enumerate(WRITTEN)),
        *(Listed("proposal", p["id"], p["content"], p["created_at"]) for p in rooms.proposals()),
    ]
