"""Creation from affect (seed 000, "Why affect-based part creation is non-negotiable"): after an exchange, did
something matter enough to the Self to deserve a part of its own?

Not a counter and not a rubric: one structured call reads the exchange with the
Self's affect profile (parts/affect.py: what it values, fears and seeks) and the
parts it already has, and says whether it mattered (surprise, friction, emotional
charge, a new person or project it will meet again) and why. Only then does a
second call write the part (parts/part.py's creation schema); code fills in the
clock and the flags, and the part must pass every check (the schema, its size, the
"I" voice: one in another voice is refused and the model asked again, a bounded
number of times; so is one that fills a field with the form it was shown, "text"). The same moment makes a
part in one companion and nothing in another: the affect profile is the lever, and a soul without one (no pack
installed, none written by the person) creates none.
"""

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..models.chat import ChatModel, Message
from ..models.structured import StructuredOutputFailed, ask_structured, warmer
from ..parts import part as part_schema
from ..parts.affect import Affect
from ..parts.parts import Parts, unkept
from ..parts.predictions import Clock, utc_now
from ..store.provenance import Provenance, Source

log = logging.getLogger(__name__)

SIGNALS = (
    "surprise",
    "friction",
    "emotional charge",
    "a new person",
    "a new project or thread",
    "a recurring pattern",
    "nothing",
)
EXCHANGE_CHARS = 2000
CREATION_TRIES = 2
CREATION_TEMPERATURE = 0.3

MATTERED_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["mattered", "signal", "why"],
    "properties": {
        "mattered": {"type": "boolean"},
        "signal": {"type": "string", "enum": list(SIGNALS)},
        "why": {"type": "string", "maxLength": 200},
    },
}

MATTERED_PROMPT = (
    "You are the Self of {name}, a companion to {person}. This is what you care about:\n{affect}\n\n"
    "Parts of you already hold these perspectives: {parts}.\n\n"
    "Read the exchange that just ended. Did something in it matter to you enough to deserve a perspective of its "
    "own, one you will need again: a surprise, friction, a strong emotional charge, a new person or project you "
    "will meet again, a pattern that keeps coming back? Judge by what you value, fear and seek, not by how much "
    'was said. Most exchanges do not: then mattered is false and signal is "nothing". A perspective you already '
    "have does not need a new part."
)


class Outcome(Enum):
    """How one look at an exchange ended."""

    NO_AFFECT = "no affect profile"  # nothing to judge by yet (a pack or the person gives one)
    NOTHING_MATTERED = "nothing mattered"
    CREATED = "created"
    ALREADY_HELD = "already held"  # the part it wrote has the name of an active part
    INVALID = "invalid"  # no part that passes every check within the tries
    PREEMPTED = "pre-empted"


@dataclass
class Considered:
    outcome: Outcome
    signal: str = "nothing"
    part_id: int | None = None


class PartCreation:
    def __init__(
        self,
        chat: ChatModel,
        parts: Parts,
        affect: Affect,
        names: Callable[[], tuple[str, str]],
        clock: Clock = utc_now,
    ):
        self.chat = chat
        self.parts = parts
        self.affect = affect
        self.names = names
        self.clock = clock

    def consider(
        self, exchange: str, message_id: int | None = None, cancel: threading.Event | None = None
    ) -> Considered:
        """Look at one exchange; create a part when it mattered. `message_id`: the message it came from (the
        part's provenance)."""
        if not any(self.affect.profile().values()):
            return Considered(Outcome.NO_AFFECT)
        name, person = self.names()
        person = person or "the person"
        held = [p.name for p in self.parts.all()]
        exchange = exchange[-EXCHANGE_CHARS:]
        ask: list[Message] = [
            {
                "role": "system",
                "content": MATTERED_PROMPT.format(
                    name=name,
                    person=person,
                    affect=self.affect.rendered(),
                    parts=", ".join(held) if held else "(none yet)",
                ),
            },
            {"role": "user", "content": f"The exchange:\n{exchange}"},
        ]
        try:
            with self.chat.aside():
                verdict = ask_structured(
                    self.chat, ask, MATTERED_SCHEMA, what="judgement of what mattered", temperature=0.2, cancel=cancel
                )
                if cancel is not None and cancel.is_set():
                    return Considered(Outcome.PREEMPTED)
                if not verdict["mattered"] or verdict["signal"] == "nothing":
                    return Considered(Outcome.NOTHING_MATTERED)
                data = self._write(exchange, verdict, name, person, cancel)
        except StructuredOutputFailed as e:
            if cancel is not None and cancel.is_set():
                return Considered(Outcome.PREEMPTED)
            log.info("creation from affect stopped: no valid answer in %d tries", len(e.attempts))
            return Considered(Outcome.INVALID)
        if data is None:
            return Considered(
                Outcome.PREEMPTED if cancel is not None and cancel.is_set() else Outcome.INVALID, verdict["signal"]
            )
        if data["name"].strip().casefold() in {n.strip().casefold() for n in held}:
            return Considered(Outcome.ALREADY_HELD, verdict["signal"])
        made = Provenance(Source.INFERENCE, message_id, f"it mattered: {verdict['signal']}")
        pid = self.parts.create(data, "ai", made)
        log.info("created part #%d from affect (%s)", pid, verdict["signal"])
        return Considered(Outcome.CREATED, verdict["signal"], pid)

    def _write(
        self, exchange: str, verdict: dict[str, Any], name: str, person: str, cancel: threading.Event | None
    ) -> dict[str, Any] | None:
        """The part the model writes for it, whole and checked; None if none passed within the tries."""
        prompt: list[Message] = [
            {
                "role": "system",
                "content": f"{part_schema.CREATION_PROMPT}\nYou are the Self of {name}, a "
                f"companion to {person}. What you care about:\n"
                f"{self.affect.rendered()}",
            },
            {
                "role": "user",
                "content": f"The exchange:\n{exchange}\n\nWhy it mattered to you: "
                f"{verdict['signal']}: {verdict['why']}",
            },
        ]
        for tried in range(CREATION_TRIES):
            created = ask_structured(
                self.chat,
                prompt,
                part_schema.PART_CREATION_SCHEMA,
                what="part",
                temperature=warmer(CREATION_TEMPERATURE, tried),
                cancel=cancel,
                names_only=True,
            )
            data = part_schema.part_from_creation(created, self.clock().isoformat())
            why = part_schema.problem(data) or part_schema.form_problem(created)
            if why is None and (unfit := unkept(data)):
                why = f"{unfit}, and a part never keeps that"
            if why is None:
                return data
            if cancel is not None and cancel.is_set():
                return None
            log.info("a part created from affect was refused: %s", why.split(":")[0])
            prompt = [
                *prompt,
                {"role": "assistant", "content": json.dumps(created, ensure_ascii=False)},
                {"role": "user", "content": f"That part cannot be kept: {why}. Write it again."},
            ]
        return None
