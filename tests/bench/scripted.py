"""A fake model whose outputs are scripted by what is asked, not by the order of the calls: a whole scenario runs
through the real turn, learning and reflection, and how many calls each takes is theirs to change.

- learning (the schema with `facts`): for each newest message holding a key of `facts`, those facts; a fact given
  as (fact, old) replaces the numbered note that holds `old` (a correction);
- deep reflection's reading (`episodes` and `feedback`): for each numbered message holding a key of `lessons`,
  feedback with that lesson, as a new rule or the one it matches;
- a reply (no schema): `replies`' text for a message holding its key, else "I see.";
- anything else: the smallest answer its schema allows (nothing learned, nothing made).
"""

import json
import re
import threading
from collections.abc import Generator
from typing import Any

from anima.models.chat import Capabilities, Message, StopReason
from anima.models.fake import FakeChatModel

Fact = str | tuple[str, str]


def smallest(schema: dict[str, Any]) -> Any:
    """The least an answer to `schema` can say: required fields only, no items, first choices, zeros."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return smallest(schema[key][0])
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        props = schema.get("properties", {})
        return {k: smallest(props.get(k, {})) for k in schema.get("required", [])}
    if t == "array":
        return [smallest(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if t == "string":
        return "x" * schema.get("minLength", 0)
    if t in ("integer", "number"):
        return schema.get("minimum", 0)
    if t == "boolean":
        return False
    return None


class ScriptedModel(FakeChatModel):
    def __init__(
        self,
        facts: dict[str, list[Fact]] | None = None,
        lessons: dict[str, str] | None = None,
        replies: dict[str, str] | None = None,
    ):
        super().__init__(Capabilities())
        self.facts = facts or {}
        self.lessons = lessons or {}
        self.replies = replies or {}

    def stream_text(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        stop: tuple[str, ...],
        cancel: threading.Event,
        schema: dict[str, Any] | None,
    ) -> Generator[str, None, StopReason]:
        self.queue.appendleft(self.answer(messages, schema))
        return (
            yield from super().stream_text(
                messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
            )
        )

    def answer(self, messages: list[Message], schema: dict[str, Any] | None) -> str:
        asked = "\n".join(str(m["content"]) for m in messages)  # the task, and how to answer it
        if schema is None:
            said = next((str(m["content"]) for m in reversed(messages) if m["role"] == "user"), "")
            return next((r for k, r in self.replies.items() if k.lower() in said.lower()), "I see.")
        props = schema.get("properties", {})
        if "facts" in props:
            return json.dumps({"facts": self._learned(asked)[: props["facts"].get("maxItems", 3)]})
        if "episodes" in props and "feedback" in props:
            return json.dumps(
                {"episodes": [], "feedback": self._feedback(asked)[: props["feedback"].get("maxItems", 3)]}
            )
        return json.dumps(smallest(schema))

    def _learned(self, asked: str) -> list[dict[str, Any]]:
        said, _, notes = asked.partition("Their newest messages:")[2].partition("Your notes:")
        lines = re.findall(r"^(\d+)\. (.*)$", notes, re.M)
        out = []
        for key, facts in self.facts.items():
            if key.lower() not in said.lower():
                continue
            for f in facts:
                fact, old = (f, None) if isinstance(f, str) else f
                replaces = next((int(n) for n, line in lines if old and old.lower() in line.lower()), 0)
                out.append({"fact": fact, "replaces": replaces})
        return out

    def _feedback(self, asked: str) -> list[dict[str, Any]]:
        out = []
        for n, line in re.findall(
            r"^(\d+)\. (.*)$", asked.partition("The messages:")[2].partition("Rules I am learning:")[0], re.M
        ):
            for key, lesson in self.lessons.items():
                if key.lower() in line.lower():
                    out.append(
                        {"message": int(n), "kind": "correction", "lesson": lesson, "rule": 0, "stance": "supports"}
                    )
        return out
