"""Parts that bid, and the Self that chooses (seed 000, "Core loop"; DESIGN.md, "One turn", steps 2 to 4).

For each event (a message, a draft being typed, the exchange that just ended):
1. activation: the active parts the event wakes, by their triggers and words (Parts.search) and by meaning
   (the embedder's vectors of each part's name, description and triggers, kept in memory);
2. each activated part bids, in its own voice, through one structured call: what it wants the focus to be,
   what it suggests, what it predicts will come of it, with a confidence and a timeframe in seconds;
3. the Self, with its affect profile, chooses which bids to follow (one structured call).
What the model writes is checked by code: a bid that breaks its schema or speaks as "we" is asked for again, a
bounded number of times, and then left out; an arbitration that fails follows nothing. Never half a bid.

Two modes, a setting of the soul (meta `parts_mode`): standard, where the Self reads the event as the parts did,
and isolated, where text from outside (pasted, a file, a tool) reaches the Self only through the parts' own
words: the Self's prompts hold the person's own words and the bids, never that text.

The bids a reply weighed, and which it followed, are kept in the `bids` ledger (`of` reads them for "Why?"); a
followed bid's prediction goes to parts/predictions.py, due at its time plus its timeframe.
"""

import json
import logging
import threading
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from ..models.chat import ChatModel, Message
from ..models.embedder import Embedder
from ..models.structured import StructuredOutputFailed, ask_structured
from ..store.soul import Soul
from ..trust.text import clean
from . import part as part_schema
from .affect import Affect
from .parts import Part, Parts
from .predictions import Predictions

log = logging.getLogger(__name__)

MODE_META = "parts_mode"


class Mode(StrEnum):
    STANDARD = "standard"  # the Self reads what the parts read
    ISOLATED = "isolated"  # the Self reads the person's own words and the bids, never text from outside


MAX_BIDDERS = 3  # parts that bid on one event: each is a model call before the Self chooses
MEANING_FLOOR = 0.45  # a part woken by meaning alone is this near the event (cosine)
WORDS_FLOOR = 0.5  # a part woken by words: a trigger matched, or this share of its name and words
EVENT_CHARS = 1500  # of the event, in a part's prompt
MAX_TIMEFRAME_S = 30 * 24 * 3600
BID_TRIES = 2  # a bid in another voice is asked for again this many times in all
HIDDEN = "[seen by my parts only: what they make of it is in their bids]"

BID_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["focus", "suggestion", "predicted_result", "confidence_percent", "timeframe_in_seconds"],
    "properties": {
        "focus": {"type": "string", "minLength": 1, "maxLength": 120},
        "suggestion": {"type": "string", "minLength": 1, "maxLength": 160},
        "predicted_result": {"type": "string", "minLength": 1, "maxLength": 160},
        "confidence_percent": {"type": "integer", "enum": list(range(0, 101, 5))},
        "timeframe_in_seconds": {"type": "integer", "minimum": 1, "maximum": MAX_TIMEFRAME_S},
    },
}


def arbitration_schema(n: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["follow", "why"],
        "properties": {
            "follow": {"type": "array", "maxItems": n, "items": {"type": "integer", "enum": list(range(1, n + 1))}},
            "why": {"type": "string", "maxLength": 200},
        },
    }


BID_PROMPT = (
    "You are {part}, one part inside the mind of {name}, a companion to {person}. You are not the whole of "
    '{name}: you are one perspective, and you speak as "I", never "we".\n'
    "Who I am: {description}\nHow I speak: {personality}\nWhat I want: {wants}\nThings I say: {phrases}\n\n"
    "Read what just happened and make your bid to {name}'s Self, in your own voice: focus: what you want the "
    "attention on now; suggestion: what you recommend {name} does next; predicted_result: what you predict will "
    "happen if it is followed; confidence_percent: how sure you are; timeframe_in_seconds: how long until one can "
    "tell whether the prediction came true. Short and concrete."
)

SELF_PROMPT = (
    "You are the Self of {name}, a companion to {person}. Parts of you have each made a bid for what to do now. "
    "You choose which to follow: some, all, or none. Follow a bid that serves what you value and what this "
    "moment needs; leave one that oversteps, repeats another, or does not fit. follow: the numbers of the bids "
    "you follow (an empty list follows none); why: one short sentence.\n{affect}"
)


@dataclass(frozen=True)
class Bid:
    part_id: int
    part: str  # the part's name when it bid
    focus: str
    suggestion: str
    predicted_result: str
    confidence: str  # "70%", as the part schema writes it
    timeframe_s: int

    def line(self) -> str:
        return (
            f"{self.part}: I want the focus on {self.focus.rstrip('.')}. I suggest: {self.suggestion.rstrip('.')}. "
            f"I predict: {self.predicted_result.rstrip('.')} ({self.confidence} sure, "
            f"within {span(self.timeframe_s)})."
        )


@dataclass
class Weighed:
    """What the parts bid on one event and which bids the Self chose to follow (indices into `bids`)."""

    event: str
    bids: list[Bid] = field(default_factory=list)
    followed: list[int] = field(default_factory=list)
    why: str = ""

    def chosen(self) -> list[Bid]:
        return [self.bids[i] for i in self.followed]

    @property
    def part_ids(self) -> set[int]:
        return {b.part_id for b in self.bids}


def span(seconds: int) -> str:
    """A timeframe in words: "90 minutes", "3 days"."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size * 2:
            return f"{seconds // size} {unit}"
    return f"{seconds} seconds"


def _listed(items: list[str]) -> str:
    return "; ".join(items) or "(nothing yet)"


class Bidding:
    def __init__(
        self,
        soul: Soul,
        chat: ChatModel,
        parts: Parts,
        embedder: Embedder,
        affect: Affect,
        predictions: Predictions,
        names: Callable[[], tuple[str, str]],
    ):
        self.soul = soul
        self.chat = chat
        self.parts = parts
        self.embedder = embedder
        self.affect = affect
        self.predictions = predictions
        self.names = names
        self._vectors: dict[int, tuple[str, np.ndarray]] = {}  # part id -> (updated_at, vector)
        self._matrix: tuple[list[int], np.ndarray | None] = ([], None)  # the active parts' vectors, one per row

    # ---- the setting ---------------------------------------------------------

    @property
    def mode(self) -> Mode:
        stored = self.soul.get_meta(MODE_META)
        return Mode(stored) if stored is not None else Mode.STANDARD

    def set_mode(self, mode: str | Mode) -> None:
        self.soul.set_meta(MODE_META, Mode(mode).value)

    # ---- activation ------------------------------------------------------------

    def activated(self, text: str, skip: Set[int] = frozenset(), k: int = MAX_BIDDERS) -> list[Part]:
        """The active parts an event wakes, best first: by triggers and words, and by meaning."""
        scores: dict[int, float] = {}
        by_id: dict[int, Part] = {}
        for f in self.parts.search(text, k=k * 3):
            named = f.trigger is not None or f.score >= WORDS_FLOOR
            if named and f.part.id not in skip:
                scores[f.part.id], by_id[f.part.id] = f.score, f.part
        for pid, near in self._near(text):
            if pid not in skip:
                scores[pid] = scores.get(pid, 0.0) + near
        best = sorted(scores, key=lambda pid: (-scores[pid], pid))[:k]
        by_id.update((p.id, p) for p in self.parts.some(pid for pid in best if pid not in by_id))
        return [by_id[pid] for pid in best if pid in by_id]

    def _near(self, text: str) -> list[tuple[int, float]]:
        """The active parts at least MEANING_FLOOR near the text (cosine), by id. Each part's vector is kept in
        memory and made again only when the part changed (its updated_at), so an event reads the parts' ids and
        times, not the parts. Not before the embedder has loaded (it takes seconds in the background): until then
        parts wake by their words alone."""
        if not getattr(self.embedder, "ready", True):
            return []
        stamps = self.parts.stamps()
        stale = [pid for pid, at in stamps.items() if self._vectors.get(pid, ("",))[0] != at]
        for start in range(0, len(stale), 256):
            parts = self.parts.some(stale[start : start + 256])
            rows = self.embedder.embed_batch(
                [f"{p.name}. {p.data['description']} {'; '.join(p.data['triggers'])}" for p in parts]
            )
            for p, v in zip(parts, rows, strict=True):  # the embedder gives one row per text
                self._vectors[p.id] = (p.updated_at, v)
        for pid in [pid for pid in self._vectors if pid not in stamps]:  # archived or forgotten since
            del self._vectors[pid]
        ids = [pid for pid in stamps if pid in self._vectors]
        if not ids:
            return []
        matrix = self._matrix[1]
        if stale or matrix is None or self._matrix[0] != ids:
            matrix = np.stack([self._vectors[pid][1] for pid in ids])
            self._matrix = (ids, matrix)
        near = matrix @ self.embedder.embed(text[:EVENT_CHARS])
        return [(ids[i], float(near[i])) for i in np.flatnonzero(near >= MEANING_FLOOR)]

    # ---- bids and the Self's choice ----------------------------------------------

    def weigh(
        self,
        event: str,
        shown: str | None = None,
        *,
        skip: Set[int] = frozenset(),
        cancel: threading.Event | None = None,
    ) -> Weighed:
        """The bids of the parts `event` wakes (but those in `skip`), and the Self's choice among them.
        `shown`: the event as the Self reads it (in isolated mode, without text from outside). The model calls run
        aside (chat.aside), so the conversation's computed prefix is kept."""
        weighed = Weighed(event)
        woken = self.activated(event, skip)
        if not woken:
            return weighed
        with self.chat.aside():
            for p in woken:
                if cancel is not None and cancel.is_set():
                    return Weighed(event)
                if (b := self.bid(p, event, cancel)) is not None:
                    weighed.bids.append(b)
            if weighed.bids and not (cancel is not None and cancel.is_set()):
                weighed.followed, weighed.why = self.arbitrate(weighed.bids, event if shown is None else shown, cancel)
        return weighed

    def bid(self, p: Part, event: str, cancel: threading.Event | None = None) -> Bid | None:
        """One part's bid on the event, in its own voice; None when the model wrote none that holds."""
        name, person = self.names()
        d = p.data
        prompt: list[Message] = [
            {
                "role": "system",
                "content": BID_PROMPT.format(
                    part=p.name,
                    name=name,
                    person=person or "the person",
                    description=d["description"],
                    personality=d["personality"],
                    wants=_listed(d["wants"]),
                    phrases=_listed(d["phrases"]),
                ),
            },
            {"role": "user", "content": f"What just happened:\n{event[-EVENT_CHARS:]}"},
        ]
        for _ in range(BID_TRIES):
            try:
                got = ask_structured(self.chat, prompt, BID_SCHEMA, what="bid", temperature=0.3, cancel=cancel)
            except StructuredOutputFailed as e:
                log.info("part #%d made no valid bid in %d tries", p.id, len(e.attempts))
                return None
            # Without control and invisible characters (trust/text.py clean): a followed bid's words go into its part's
            # outcomes, where the part's rules refuse them.
            said = {k: " ".join(clean(got[k]).split()) for k in ("focus", "suggestion", "predicted_result")}
            why = (
                next((f"its {k} is blank" for k, v in said.items() if not v), None)
                or next(
                    (
                        f"its {k} repeats the form instead of bidding"
                        for k, v in said.items()
                        if part_schema.repeats_form(v)
                    ),
                    None,
                )
                or next((f'its {k} speaks as "we"' for k, v in said.items() if part_schema.speaks_as_we(v)), None)
            )
            if why is None:
                return Bid(
                    p.id,
                    p.name,
                    said["focus"],
                    said["suggestion"],
                    said["predicted_result"],
                    f"{got['confidence_percent']}%",
                    int(got["timeframe_in_seconds"]),
                )
            log.info("part #%d's bid was refused: %s", p.id, why)
            prompt = [
                *prompt,
                {"role": "assistant", "content": json.dumps(got, ensure_ascii=False)},
                {
                    "role": "user",
                    "content": f'That bid cannot be kept: {why}. You are one part: speak as "I". Bid again.',
                },
            ]
        return None

    def arbitrate(self, bids: list[Bid], shown: str, cancel: threading.Event | None = None) -> tuple[list[int], str]:
        """The Self's choice: the indices of the bids it follows, and why (one line). None followed when the model
        gave no valid answer."""
        name, person = self.names()
        listed = "\n".join(f"{i}. {b.line()}" for i, b in enumerate(bids, 1))
        prompt: list[Message] = [
            {
                "role": "system",
                "content": SELF_PROMPT.format(name=name, person=person or "the person", affect=self.affect.rendered()),
            },
            {"role": "user", "content": f"What just happened:\n{shown[-EVENT_CHARS:]}\n\nThe bids:\n{listed}"},
        ]
        try:
            got = ask_structured(
                self.chat,
                prompt,
                arbitration_schema(len(bids)),
                what="choice among bids",
                temperature=0.2,
                cancel=cancel,
            )
        except StructuredOutputFailed as e:
            log.info("the Self chose no bid: no valid answer in %d tries", len(e.attempts))
            return [], ""
        return sorted({i - 1 for i in got["follow"]}), " ".join(got["why"].split())

    # ---- the record ---------------------------------------------------------------

    def record(self, reply_id: int, weighed: list[tuple[Weighed, int | None]]) -> None:
        """The bids a reply weighed (each set with the message it was made for): followed ones leave their
        prediction, due at now + its timeframe (parts/predictions.py)."""
        made_at = self.predictions.now()
        rank = 0
        with self.soul.transaction() as con:  # all of them, or none
            for w, about_id in weighed:
                for i, b in enumerate(w.bids):
                    if not con.execute("SELECT 1 FROM parts WHERE id = ?", (b.part_id,)).fetchone():
                        continue  # forgotten meanwhile
                    rank += 1
                    followed = i in w.followed
                    pid = self.predictions.record(b, made_at) if followed else None
                    con.execute(
                        "INSERT INTO bids(message_id, about_id, part_id, rank, focus, suggestion, "
                        "predicted_result, confidence, timeframe_s, followed, prediction_id, made_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            reply_id,
                            about_id,
                            b.part_id,
                            rank,
                            b.focus,
                            b.suggestion,
                            b.predicted_result,
                            b.confidence,
                            b.timeframe_s,
                            int(followed),
                            pid,
                            made_at.isoformat(),
                        ),
                    )

    def of(self, reply_id: int) -> list[dict[str, Any]]:
        """The bids a reply weighed, in the order they were made, each with its part's name now and whether the
        Self followed it (the "Why?" of a reply)."""
        rows = self.soul.query(
            "SELECT b.*, p.name AS part FROM bids AS b JOIN parts AS p ON p.id = b.part_id "
            "WHERE b.message_id = ? ORDER BY b.rank",
            (reply_id,),
        )
        return [{**r, "followed": bool(r["followed"])} for r in rows]

    def of_part(self, part_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """A part's recent bids, newest first (the Open Mind's view of a part)."""
        rows = self.soul.query("SELECT * FROM bids WHERE part_id = ? ORDER BY id DESC LIMIT ?", (part_id, limit))
        return [{**r, "followed": bool(r["followed"])} for r in rows]
