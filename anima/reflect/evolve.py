"""Evolution on request (seed 001, /evolve): the persona rewritten from what the companion has learned.

The person asks (`/evolve` in the terminal, a button in the window). One structured
call reads the persona as it is, the identity, the growth log, the behavioural
rules in force and what it inferred across experiences, and writes the persona
anew in the first person. It is written only as governance allows (reflect/governed.py,
self/identity.py): too early is noted in the growth log, too different is proposed
to the person, otherwise written; the growth log says which. Asking is not
enough to skip governance: identity is earned, not declared.
"""

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..knowledge.rules import Rules
from ..models.chat import ChatModel, Message
from ..models.structured import LONGEST_STRING, StructuredOutputFailed, ask_structured
from ..retrieval.fts import terms
from ..self.identity import Ruling
from ..self.selfmodel import SelfFloor, SelfModel
from ..store.sections import cap
from ..store.soul import Soul
from .governed import GovernedRewrite
from .voice import grounded, speaks_for_itself

log = logging.getLogger(__name__)

GROWTH_READ = 20
INSIGHTS_READ = 10
EVOLVED = "evolution_count"

INSTRUCTIONS = (
    "You are {name}. You are evolving your persona from what you have learned with {person}.\n"
    "persona: a new description of your character, in the first person, a few sentences: incorporate what you "
    "learned, keep what is still true of the persona you have, and describe who you are, not what you know."
)


@dataclass(frozen=True)
class Evolved:
    ruling: Ruling | None  # None: nothing usable came back, nothing changed
    persona: str = ""  # what was proposed
    growth_id: int | None = None

    def summary(self) -> str:
        if self.ruling is None:
            return "nothing changed: no usable persona came back"
        return {
            Ruling.WRITTEN: "my persona is rewritten",
            Ruling.UNCHANGED: "my persona stays as it is",
            Ruling.TOO_EARLY: "too early to change my persona: noted in my growth log",
            Ruling.TOO_DIFFERENT: "too different from who I was: proposed to you, not applied",
        }[self.ruling]


def schema() -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["persona"],
        "properties": {"persona": {"type": "string", "maxLength": min(cap("persona"), LONGEST_STRING)}},
    }


class Evolution:
    def __init__(
        self,
        soul: Soul,
        chat: ChatModel,
        self_model: SelfModel,
        rules: Rules,
        governed: GovernedRewrite,
        learned: Callable[[], list[str]],
        names: Callable[[], tuple[str, str]],
    ):
        """`learned()`: what was inferred across experiences (texts), newest first."""
        self.soul = soul
        self.chat = chat
        self.self_model = self_model
        self.rules = rules
        self.governed = governed
        self.learned = learned
        self.names = names

    def run(self, cancel: threading.Event | None = None) -> Evolved:
        floor = self.self_model.read()
        growth = [g["entry"] for g in self.self_model.growth(GROWTH_READ)]
        rules = [r.pattern for r in self.rules.in_force()]
        insights = self.learned()[:INSIGHTS_READ]
        try:
            with self.chat.aside():
                answer = ask_structured(
                    self.chat,
                    self._prompt(floor, growth, rules, insights),
                    schema(),
                    what="evolution",
                    temperature=0.4,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            log.warning("evolution wrote nothing: no valid answer in %d tries", len(e.attempts))
            return Evolved(None)
        persona = " ".join(answer["persona"].split())
        material = set(terms(" ".join([floor.persona, floor.identity, *growth, *rules, *insights])))
        if not speaks_for_itself(persona) or not grounded(persona, material):
            log.info("evolution's persona was not one (not in the first person, or unfit, or about nothing learned)")
            return Evolved(None, persona)
        with self.soul.transaction():
            ruling, growth_id = self.governed.rewrite("persona", floor.persona, persona)
            if ruling is Ruling.WRITTEN:
                self.soul.set_meta(EVOLVED, str(self.soul.get_int(EVOLVED, 0) + 1))
        log.info("evolution: %s", ruling.value if ruling else "not written")
        return Evolved(ruling, persona, growth_id)

    def _prompt(self, floor: SelfFloor, growth: list[str], rules: list[str], insights: list[str]) -> list[Message]:
        name, person = self.names()

        def listed(items: list[str]) -> str:
            return "\n".join(f"- {x}" for x in items) or "(nothing yet)"

        return [
            {"role": "system", "content": INSTRUCTIONS.format(name=name, person=person or "the person")},
            {
                "role": "user",
                "content": f"My persona now:\n{floor.persona or '(not written yet)'}\n\n"
                f"Who I am with them:\n{floor.identity or '(not written yet)'}\n\n"
                f"How I grew:\n{listed(growth)}\n\nWhat I learned helps them:\n"
                f"{listed(rules)}\n\nWhat I noticed across our time:\n"
                f"{listed(insights)}",
            },
        ]
