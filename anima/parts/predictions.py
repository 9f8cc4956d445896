"""Predictions that fall due (seed 000, "Time-delayed evaluation"): parts get real when they can be wrong.

A bid the Self followed leaves its prediction here, due at the moment it was made
plus its timeframe. Once due, the work between turns (reflect/reflector.py) puts it
before the model with what was said since the reply that followed it; the model,
as the part, writes what actually happened (`result`) and revises the part by JSON
Patch (wording, narrower triggers, more conditional language), applied as the AI
through Parts.patch (all of it or none, in the history, undoable). The outcome is
appended to the part's `suggestions_and_results` by the runtime, so the evidence
trail never depends on the model writing a valid patch.

The clock is injectable (`clock`): tests move time instead of waiting.
"""

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from ..errors import InvalidEdit, NotFound
from ..models.chat import ChatModel, Message
from ..models.structured import StructuredOutputFailed, ask_structured
from ..store.clock import now as clock_now
from ..store.soul import Soul
from ..trust.text import clean
from .parts import Parts


class Predicting(Protocol):
    """What a prediction is recorded from: a followed Bid (bids.py, which records through this module)."""

    @property
    def part_id(self) -> int: ...
    @property
    def suggestion(self) -> str: ...
    @property
    def predicted_result(self) -> str: ...
    @property
    def confidence(self) -> str: ...  # "70%", as the part schema writes it
    @property
    def timeframe_s(self) -> int: ...


log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
PER_RUN = 2  # due predictions evaluated in one run between turns (each is one model call)
SINCE_MESSAGES = 12  # what was said since, at most this many messages
SINCE_CHARS = 300  # of each
OUTCOMES_SHOWN = 3  # of the part's earlier outcomes, in the prompt
# What the model's revision may change: the part's language. The evidence trail is the runtime's; the flags and the
# name are hygiene's and the person's.
REVISABLE = (
    "description",
    "personality",
    "triggers",
    "phrases",
    "responses",
    "wants",
    "conclude_when",
    "emotion",
    "intensity",
)
CAME_TRUE = ("yes", "partly", "no", "too early to tell")
_OUTCOMES = "suggestions_and_results"

EVALUATION_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["result", "came_true", "revision"],
    "properties": {
        "result": {"type": "string", "minLength": 1, "maxLength": 400},
        "came_true": {"type": "string", "enum": list(CAME_TRUE)},
        "revision": {
            "type": "array",
            "maxItems": 6,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["op", "path", "value"],
                "properties": {
                    "op": {"type": "string", "enum": ["add", "replace", "remove"]},
                    "path": {"type": "string", "maxLength": 80},
                    "value": {
                        "anyOf": [
                            {"type": "string", "maxLength": 240},
                            {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 120}},
                        ]
                    },
                },
            },
        },
    },
}

EVALUATION_PROMPT = (
    'You are {part}, one part inside the mind of {name}. You speak as "I", never "we".\n'
    "Who I am now (JSON): {data}\n\n"
    "Some time ago I suggested: {suggestion}\nI predicted: {predicted} ({confidence} sure, within {timeframe} "
    "seconds). That time has passed.\n\n"
    "Read what happened since and judge it. result: what actually happened, in one or two sentences, as I saw it. "
    "came_true: whether my prediction came true. revision: a JSON Patch (RFC 6902 operations) that revises me in "
    "the light of it: wording that is more conditional where I was wrong, more decisive where I was right; "
    "narrower triggers; revised wants. Paths name my fields: /description, /personality, /conclude_when, "
    "/triggers/0 (or /triggers/- to add one), /wants/-, /phrases/-. An empty list if nothing needs to change."
)


def utc_now() -> datetime:
    return clock_now()  # the process's clock (store/clock.py): a benchmark may move it


@dataclass(frozen=True)
class Prediction:
    id: int
    part_id: int
    suggestion: str
    predicted_result: str
    confidence: str
    timeframe_s: int
    made_at: str
    due_at: str
    result: str | None
    evaluated_at: str | None

    def status(self, now: datetime) -> str:
        if self.evaluated_at is not None:
            return "evaluated"
        due = datetime.fromisoformat(self.due_at)
        return "due" if (due if due.tzinfo else due.replace(tzinfo=UTC)) <= now else "pending"


@dataclass
class Evaluated:
    prediction_id: int
    part_id: int
    came_true: str
    evidence: bool  # the outcome joined the part's trail
    revised: bool  # the model's revision was applied
    refused: str = ""  # why the revision (or the evidence) was not applied, in one line


class Predictions:
    def __init__(self, soul: Soul, clock: Clock = utc_now):
        self.soul = soul
        self.clock = clock

    def now(self) -> datetime:
        return self.clock()

    def record(self, bid: Predicting, made_at: datetime) -> int:
        """A followed bid's prediction, due at `made_at` + its timeframe."""
        due = made_at + timedelta(seconds=bid.timeframe_s)
        return self.soul.add(
            "prediction",
            "ai",
            part_id=bid.part_id,
            suggestion=bid.suggestion,
            predicted_result=bid.predicted_result,
            confidence=bid.confidence,
            timeframe_s=bid.timeframe_s,
            made_at=made_at.isoformat(),
            due_at=due.isoformat(),
        )

    def get(self, prediction_id: int) -> Prediction:
        rows = self.soul.query("SELECT * FROM predictions WHERE id = ?", (prediction_id,))
        if not rows:
            raise NotFound(f"There is no prediction #{prediction_id}.")
        return Prediction(**rows[0])

    def all(self, part_id: int | None = None) -> list[Prediction]:
        """Every prediction (or a part's), newest first; `status(now)` tells pending, due and evaluated apart."""
        where, args = ("WHERE part_id = ?", (part_id,)) if part_id is not None else ("", ())
        return [Prediction(**r) for r in self.soul.query(f"SELECT * FROM predictions {where} ORDER BY id DESC", args)]

    def due(self, limit: int = PER_RUN) -> list[Prediction]:
        """Unevaluated predictions whose time has come, the longest due first. Due times are compared as
        instants (a clock in another zone still compares right)."""
        now = self.now()
        rows = self.soul.query("SELECT * FROM predictions WHERE evaluated_at IS NULL ORDER BY due_at, id")
        due = [Prediction(**r) for r in rows if datetime.fromisoformat(r["due_at"]) <= now]
        return due[:limit]

    def since(self, p: Prediction) -> list[dict[str, Any]]:
        """What was said after the reply that followed the prediction (oldest first, at most SINCE_MESSAGES)."""
        rows = self.soul.query("SELECT message_id FROM bids WHERE prediction_id = ?", (p.id,))
        if rows:
            return self.soul.query(
                "SELECT * FROM (SELECT id, role, speaker, content FROM messages WHERE id > ? "
                "ORDER BY id LIMIT ?) ORDER BY id",
                (rows[0]["message_id"], SINCE_MESSAGES),
            )
        return self.soul.query(
            "SELECT id, role, speaker, content FROM messages WHERE created_at > ? ORDER BY id LIMIT ?",
            (p.made_at, SINCE_MESSAGES),
        )


class Evaluation:
    """The model judges due predictions as the part that made them, and revises it."""

    def __init__(self, chat: ChatModel, parts: Parts, predictions: Predictions, names: Callable[[], tuple[str, str]]):
        self.chat = chat
        self.parts = parts
        self.predictions = predictions
        self.soul = predictions.soul
        self.names = names

    def run(self, cancel: threading.Event | None = None, limit: int = PER_RUN) -> list[Evaluated]:
        """Evaluate what is due (at most `limit`). A turn that pre-empts it leaves the rest due; a prediction the
        model could not judge stays due for the next run."""
        done = []
        for p in self.predictions.due(limit):
            if cancel is not None and cancel.is_set():
                break
            if (e := self.evaluate(p, cancel)) is not None:
                done.append(e)
        return done

    def evaluate(self, p: Prediction, cancel: threading.Event | None = None) -> Evaluated | None:
        part = self.parts.get(p.part_id)
        data = {k: v for k, v in part.data.items() if k != _OUTCOMES}
        data["recent_outcomes"] = part.data[_OUTCOMES][-OUTCOMES_SHOWN:]
        said = (
            "\n".join(
                f"- {m['speaker'] or m['role']}: {' '.join(m['content'].split())[:SINCE_CHARS]}"
                for m in self.predictions.since(p)
            )
            or "(nothing was said since)"
        )
        name, _ = self.names()
        prompt: list[Message] = [
            {
                "role": "system",
                "content": EVALUATION_PROMPT.format(
                    part=part.name,
                    name=name,
                    data=json.dumps(data, ensure_ascii=False),
                    suggestion=p.suggestion,
                    predicted=p.predicted_result,
                    confidence=p.confidence,
                    timeframe=p.timeframe_s,
                ),
            },
            {"role": "user", "content": f"What happened since:\n{said}"},
        ]
        try:
            with self.chat.aside():
                got = ask_structured(
                    self.chat,
                    prompt,
                    EVALUATION_SCHEMA,
                    what="evaluation of a prediction",
                    temperature=0.2,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            log.info("prediction #%d was not evaluated: no valid answer in %d tries", p.id, len(e.attempts))
            return None
        return self.apply(p, got)

    def apply(self, p: Prediction, got: dict[str, Any]) -> Evaluated:
        """Write the result and the evidence (one transaction), then the model's revision (all or none)."""
        # The model's words go into the part's own trail, whose rules refuse control and invisible characters.
        result = " ".join(clean(got["result"]).split())[:400]
        done = Evaluated(p.id, p.part_id, got["came_true"], evidence=False, revised=False)
        with self.soul.transaction():
            self.soul.update("prediction", p.id, "ai", result=result, evaluated_at=self.predictions.now().isoformat())
            outcome = {
                "predicted_result": p.predicted_result,
                "predicted_result_confidence": p.confidence,
                "predicted_result_timeframe_in_seconds": str(p.timeframe_s),
                "your_suggestion": p.suggestion,
                "timestamp": p.made_at,
                "result": result,
            }
            try:
                self.parts.patch(p.part_id, [{"op": "add", "path": f"/{_OUTCOMES}/-", "value": outcome}], "ai")
                done.evidence = True
            except InvalidEdit as e:  # a core part (only the person changes it), or a trail that is full
                done.refused = str(e)
        revision = [
            {k: v for k, v in op.items() if not (k == "value" and op["op"] == "remove")} for op in got["revision"]
        ]
        if revision:
            outside = [op["path"] for op in revision if op["path"].split("/")[1:2] not in [[f] for f in REVISABLE]]
            if outside:
                done.refused = "the revision names a field that evaluation does not change"
                log.info(
                    "the revision of part #%d after prediction #%d was refused: a field outside its reach",
                    p.part_id,
                    p.id,
                )
                return done
            try:
                self.parts.patch(p.part_id, revision, "ai")
                done.revised = True
            except InvalidEdit as e:  # logged by Parts, without the words
                done.refused = str(e)
        return done
