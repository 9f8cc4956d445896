"""Episodes: experiences, not logs (seed 003, section 5.2): what happened, when, how the mood moved, how much it
mattered and how the companion thinks it did. Deep reflection cuts them from the messages (reflect/deep.py);
each cites the messages it was made from, so forgetting one flags it for regeneration.

Deep reflection reads them back by a sample of the whole history, never just the recent days (seed 003, 13.6):
the history is cut into equal spans of time and each span gets the same share (stratified), within a span the
more significant are likelier (weighted), and an episode of significance SIGNIFICANT or more always comes in.
"""

import random
from collections.abc import Set
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import sqlcipher3

from ..errors import InvalidEdit
from ..retrieval.indexer import Indexer
from ..store.provenance import Provenance, Source
from ..store.soul import Soul, now

SUMMARY_CHARS = 400
ARC_CHARS = 120
ASSESSMENT_CHARS = 300
SIGNIFICANT = 0.8
SPANS = 4


@dataclass(frozen=True)
class Episode:
    id: int
    summary: str
    started_at: str
    ended_at: str
    emotional_arc: str
    significance: float
    self_assessment: str
    # A message it was made of was forgotten: recall leaves it out until deep reflection makes it again.
    flagged: bool = False


def _episode(row: dict[str, Any]) -> Episode:
    return Episode(
        row["id"],
        row["summary"],
        row["started_at"],
        row["ended_at"],
        row["emotional_arc"],
        row["significance"],
        row["self_assessment"],
        bool(row["needs_regeneration"]),
    )


def _text(value: object, cap: int, what: str) -> str:
    value = " ".join(str(value).split())
    if len(value) > cap:
        raise InvalidEdit(f"An episode's {what} holds at most {cap} characters ({len(value)} given).")
    return value


@dataclass(frozen=True)
class NewEpisode:
    """An episode to be recorded: its summary and the messages it is made of (contiguous or not)."""

    summary: str
    message_ids: tuple[int, ...]
    emotional_arc: str = ""
    significance: float = 0.5
    self_assessment: str = ""


# An episode made ready to store (Episodes.ready): itself, its checked fields and its summary's vector.
Ready = tuple[NewEpisode, dict[str, Any], np.ndarray]


class Episodes:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer

    def record(
        self,
        summary: str,
        message_ids: list[int],
        *,
        emotional_arc: str = "",
        significance: float = 0.5,
        self_assessment: str = "",
        actor: str = "ai",
    ) -> int:
        """An episode made of these messages (contiguous or not); its span is theirs."""
        return self.record_new(
            NewEpisode(summary, tuple(message_ids), emotional_arc, significance, self_assessment), actor
        )

    def record_new(self, new: NewEpisode, actor: str = "ai") -> int:
        fields, vector = self._ready(new)
        # Embedded first and stored in the episode's own transaction: a crash never leaves it without a vector.
        return self.record_ready((new, fields, vector), actor)

    def record_ready(self, ready: Ready, actor: str = "ai") -> int:
        """An episode ready() checked and embedded, stored with its vector in the caller's writing() (or one of its
        own): the vector is searched as soon as that commits."""
        new, fields, vector = ready
        with self.writing():
            return self._store(new, fields, vector, actor)

    def writing(self) -> AbstractContextManager[sqlcipher3.Connection]:
        """One write transaction for episodes: the vectors of those it records join the index once it commits."""
        return self.indexer.transaction()

    def flagged(self) -> list[int]:
        """The episodes a forget flagged (a message they were made of went), oldest first."""
        return self.soul.flagged("episode")

    def made_of(self, episode_id: int) -> list[int]:
        """The messages an episode is made of that are still stored."""
        return sorted(i for kind, i in self.soul.citations("episode", episode_id) if kind == "message")

    def ready(self, anew: list[NewEpisode]) -> list[Ready]:
        """Episodes checked and embedded for make_again, before its transaction (embedding takes a while, and the
        soul's writes wait on it); one that does not hold (InvalidEdit) is left out."""
        out: list[Ready] = []
        for new in anew:
            try:
                out.append((new, *self._ready(new)))
            except InvalidEdit:
                continue
        return out

    def make_again(self, episode_id: int, ready: list[Ready]) -> list[int]:
        """A flagged episode is forgotten (absolutely: store/forget.py), and those made again of what is left of
        it (`ready`) are recorded, in one transaction (the caller's writing(), if it holds one): a crash leaves the
        old one flagged, or the new ones, never both. Returns the new ones' ids. One another program made again,
        forgot or a person corrected since it was read (the flag cleared) is left as it is: nothing is written
        for it, and [] returned (its going is no forget the others count: store/soul.py Soul.forget)."""
        with self.writing():
            if not self.soul.query("SELECT 1 FROM episodes WHERE id = ? AND needs_regeneration = 1", (episode_id,)):
                return []
            self.soul.forget("episode", episode_id)
            return [self._store(new, fields, vector, "ai") for new, fields, vector in ready]

    def _ready(self, new: NewEpisode) -> tuple[dict[str, Any], np.ndarray]:
        """An episode's fields, checked, and its summary's vector (made before any transaction: it takes a while)."""
        summary = _text(new.summary, SUMMARY_CHARS, "summary")
        if not summary:
            raise InvalidEdit("An episode needs a summary.")
        if not 0 <= new.significance <= 1:
            raise InvalidEdit("An episode's significance is from 0 to 1.")
        marks = ",".join("?" * len(new.message_ids))
        times = (
            self.soul.query(
                f"SELECT min(created_at) AS a, max(created_at) AS b FROM messages WHERE id IN ({marks})",
                new.message_ids,
            )[0]
            if new.message_ids
            else None
        )
        if not times or times["a"] is None:
            raise InvalidEdit("An episode is made of messages that exist.")
        fields = {
            "summary": summary,
            "started_at": times["a"],
            "ended_at": times["b"],
            "emotional_arc": _text(new.emotional_arc, ARC_CHARS, "emotional arc"),
            "significance": round(new.significance, 3),
            "self_assessment": _text(new.self_assessment, ASSESSMENT_CHARS, "self-assessment"),
        }
        return fields, self.indexer.embed("episode", [{"summary": summary}])

    def _store(self, new: NewEpisode, fields: dict[str, Any], vector: np.ndarray, actor: str) -> int:
        """In the caller's indexer transaction."""
        eid = self.soul.add(
            "episode", actor, provenance=Provenance(Source.REFLECTION, min(new.message_ids)), created_at=now(), **fields
        )
        for mid in new.message_ids:
            self.soul.cite("episode", eid, "message", mid)
        self.indexer.put("episode", [eid], vector)
        return eid

    def get(self, episode_id: int) -> Episode:
        return _episode(self.soul.get("episode", episode_id))

    def all(self, *, flagged: bool = True) -> list[Episode]:
        """Oldest first. `flagged`: False leaves out those a forget flagged, which stand for nothing until they are
        made again (what reflection reads: their words may carry what went)."""
        where = "" if flagged else "WHERE needs_regeneration = 0 "
        return [_episode(r) for r in self.soul.query(f"SELECT * FROM episodes {where}ORDER BY started_at, id")]

    def correct(self, episode_id: int, **fields: object) -> None:
        """The person corrects an episode (the Open Mind): summary, emotional_arc, significance, self_assessment."""
        allowed = {"summary": SUMMARY_CHARS, "emotional_arc": ARC_CHARS, "self_assessment": ASSESSMENT_CHARS}
        changes: dict[str, str | float] = {}
        for name, value in fields.items():
            if name == "significance":
                if not isinstance(value, (int, float)) or not 0 <= value <= 1:
                    raise InvalidEdit("An episode's significance is from 0 to 1.")
                changes[name] = float(value)
            elif name in allowed:
                changes[name] = _text(value, allowed[name], name.replace("_", " "))
            else:
                raise InvalidEdit(f"An episode has no field {name!r} a person may change.")
        if "summary" in changes and not changes["summary"]:
            raise InvalidEdit("An episode needs a summary.")
        if "summary" in changes:  # their words now: deep reflection does not make it again over them
            changes["needs_regeneration"] = 0
        if "summary" not in changes:
            self.soul.update("episode", episode_id, "user", **changes)
            return
        vector = self.indexer.embed("episode", [changes])
        with self.indexer.transaction():
            self.soul.update("episode", episode_id, "user", **changes)
            self.indexer.put("episode", [episode_id], vector)

    def sample(self, k: int, rng: random.Random | None = None, *, leaving_out: Set[int] = frozenset()) -> list[Episode]:
        """Up to `k` episodes from across the whole history (see the module's docstring), oldest first; none of
        the ids in `leaving_out` (the new ones, read anyway)."""
        rng = rng or random.Random()
        everything = [e for e in self.all(flagged=False) if e.id not in leaving_out]
        if len(everything) <= k:
            return everything
        chosen = {e.id: e for e in everything if e.significance >= SIGNIFICANT}
        if len(chosen) >= k:  # more life-changing episodes than room: the most significant of them
            return sorted(sorted(chosen.values(), key=lambda e: -e.significance)[:k], key=lambda e: e.started_at)
        spans = _spans([e for e in everything if e.id not in chosen], SPANS)
        left = k - len(chosen)
        while left > 0 and any(spans):
            for span in spans:  # one from each span in turn: every stretch of time gets the same share
                if span and left > 0:
                    pick = rng.choices(span, weights=[0.05 + e.significance for e in span])[0]
                    span.remove(pick)
                    chosen[pick.id] = pick
                    left -= 1
        return sorted(chosen.values(), key=lambda e: (e.started_at, e.id))


def _spans(episodes: list[Episode], n: int) -> list[list[Episode]]:
    """Episodes cut into `n` equal stretches of time (by when each started)."""
    if not episodes:
        return []
    times = [datetime.fromisoformat(e.started_at) for e in episodes]
    first, last = min(times), max(times)
    width = (last - first) / n or None
    spans: list[list[Episode]] = [[] for _ in range(n)]
    for e, t in zip(episodes, times, strict=True):
        spans[min(int((t - first) / width), n - 1) if width else 0].append(e)
    return spans
