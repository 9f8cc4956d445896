"""Contradictions resolved through fact validity (seed 003, 3.3 and 5.4): when two facts the person stated
cannot both be true now ("Works as a nurse in Leeds", later "Works as a teacher in York"), the newer is current
and the older stops being true when the newer began. Nothing is deleted: what was true stays, with its dates.

Part of deep reflection. Candidates are found by code (a fact stated since the last check, beside an older one
about the same thing, the most alike first: "Works as a nurse" and "Works as a teacher"; a word in common is not
enough, reflect/statements.py same_slot); the
model says for each pair whether something changed or both
hold at once. Meta `contradictions_checked_through` remembers the newest fact checked, so none is checked twice.
"""

import logging
import threading
from typing import Any

from ..knowledge.memories import Memories
from ..models.chat import ChatModel
from ..models.structured import StructuredOutputFailed, ask_structured
from ..retrieval.fts import terms
from ..store.soul import Soul
from .statements import same_slot

log = logging.getLogger(__name__)

CHECKED_THROUGH = "contradictions_checked_through"
PAIRS = 6

INSTRUCTIONS = (
    "Each numbered pair holds two notes about {person}, the older first. For each pair say changed if the newer "
    "note replaces the older (something changed: a new job, a move, an ended relationship), or both if both "
    "can be true at the same time."
)


def schema(pairs: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["pairs"],
        "properties": {
            "pairs": {
                "type": "array",
                "maxItems": pairs,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["pair", "verdict"],
                    "properties": {
                        "pair": {"type": "integer", "enum": list(range(1, pairs + 1))},
                        "verdict": {"type": "string", "enum": ["changed", "both"]},
                    },
                },
            }
        },
    }


def candidates(facts: list[dict[str, Any]], through: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(older, newer) pairs: each fact stated since `through` beside the older facts it shares words with, the
    most alike first (by the share of their words in common), at most PAIRS."""
    scored = []
    for new in (f for f in facts if f["id"] > through):
        words = set(terms(new["content"]))
        for old in (f for f in facts if f["id"] < new["id"]):
            theirs = set(terms(old["content"]))
            # A word in common is no contradiction ("A cat named Miso", "Silly cat"): the two must be about the
            # same thing, or the model's guess closes a true fact.
            if words & theirs and same_slot(old["content"], new["content"]):
                scored.append((len(words & theirs) / len(words | theirs), old["id"], new["id"], old, new))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    return [(old, new) for *_, old, new in scored[:PAIRS]]


def resolve(
    soul: Soul, chat: ChatModel, memories: Memories, person: str, cancel: threading.Event | None = None
) -> int | None:
    """Check what was stated since the last time; returns how many older facts stopped being current (None:
    pre-empted, nothing written and nothing counted checked)."""
    facts = memories.stated_facts()
    through = soul.get_int(CHECKED_THROUGH, 0)
    newest = max((f["id"] for f in facts), default=through)
    pairs = candidates(facts, through)
    if not pairs:
        soul.set_meta(CHECKED_THROUGH, str(max(newest, through)))
        return 0
    listed = "\n".join(f"{i}. older: {o['content']} | newer: {n['content']}" for i, (o, n) in enumerate(pairs, 1))
    try:
        with chat.aside():
            answer = ask_structured(
                chat,
                [
                    {"role": "system", "content": INSTRUCTIONS.format(person=person or "the person")},
                    {"role": "user", "content": listed},
                ],
                schema(len(pairs)),
                what="contradiction check",
                temperature=0.0,
                cancel=cancel,
            )
    except StructuredOutputFailed as e:
        if cancel is not None and cancel.is_set():
            return None
        log.warning("the contradiction check changed nothing: no valid answer in %d tries", len(e.attempts))
        soul.set_meta(CHECKED_THROUGH, str(newest))
        return 0
    changed = 0
    with soul.transaction():
        for verdict in answer["pairs"]:
            if verdict["verdict"] == "changed" and not 1 <= verdict["pair"] <= len(pairs):
                log.info("the contradiction check left out an answer: it names no pair that was asked about")
            elif verdict["verdict"] == "changed":
                old, new = pairs[verdict["pair"] - 1]
                if soul.get("memory", old["id"])["valid_to"] is None:
                    memories.resolve(old["id"], new["id"])
                    changed += 1
        soul.set_meta(CHECKED_THROUGH, str(newest))
    log.info("contradiction check: %d pair(s) read, %d older fact(s) no longer current", len(pairs), changed)
    return changed
