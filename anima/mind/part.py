"""The part schema of seed 000, as JSON schemas with a cap on every string and array.

`PART_SCHEMA` is a whole stored part. `PART_CREATION_SCHEMA` is what the model
writes when it creates one; the runtime adds the rest (timestamps, the empty
evidence trail, the flags), because a model should not invent clocks.
"""

from typing import Any


def _text(n: int, min_length: int = 0) -> dict:
    s: dict[str, Any] = {"type": "string", "maxLength": n}
    if min_length:
        s["minLength"] = min_length
    return s


def _list(n: int, item_chars: int = 120) -> dict:
    return {"type": "array", "maxItems": n, "items": _text(item_chars, 1)}


SUGGESTION_AND_RESULT = {
    "type": "object", "additionalProperties": False,
    "required": ["predicted_result", "predicted_result_confidence", "predicted_result_timeframe_in_seconds",
                 "your_suggestion", "timestamp", "result"],
    "properties": {
        "predicted_result": _text(240, 1),
        "predicted_result_confidence": _text(16, 1),
        "predicted_result_timeframe_in_seconds": _text(10, 1),
        "your_suggestion": _text(240, 1),
        "timestamp": _text(40, 1),
        "result": _text(400),
    },
}

_VOICE = {
    "description": _text(480, 1),
    "conclude_when": _text(240, 1),
    "emotion": _text(40, 1),
    "intensity": _text(24, 1),
    "personality": _text(320, 1),
    "triggers": _list(8),
    "phrases": _list(8),
    "responses": _list(8),
    "wants": _list(8),
}

PART_CREATION_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["name", *_VOICE, "originating_event"],
    "properties": {
        "name": _text(60, 1),
        **_VOICE,
        "originating_event": {
            "type": "object", "additionalProperties": False, "required": ["result"],
            "properties": {"result": _text(300, 1)},
        },
    },
}

PART_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["name", *_VOICE, "originating_event", "suggestions_and_results", "core_part", "needs_evaluation"],
    "properties": {
        "name": _text(60, 1),
        **_VOICE,
        "suggestions_and_results": {"type": "array", "maxItems": 64, "items": SUGGESTION_AND_RESULT},
        "core_part": {"type": "boolean"},
        "needs_evaluation": {"type": "boolean"},
        "originating_event": {
            "type": "object", "additionalProperties": False, "required": ["timestamp", "result"],
            "properties": {"timestamp": _text(40, 1), "result": _text(400, 1)},
        },
    },
}


def part_from_creation(created: dict, timestamp: str) -> dict:
    """A whole part from what the model wrote, with the runtime's fields filled in."""
    return {
        **{k: v for k, v in created.items() if k != "originating_event"},
        "originating_event": {"timestamp": timestamp, "result": created["originating_event"]["result"]},
        "suggestions_and_results": [],
        "core_part": False,
        "needs_evaluation": False,
    }


CREATION_PROMPT = (
    "You are the inner Self of a companion. Something in this moment matters enough to deserve its own "
    "perspective: create a part for it. A part speaks as \"I\" (never \"we\"): its description says what it "
    "is about and what it cares about; its triggers are cues that wake it; its phrases are things it says; "
    "its responses are how it reacts; its wants are what it pushes for; conclude_when says when it can be "
    "archived. Keep every field short and concrete."
)
