"""What a turn taught the companion, as the quiet cue under its reply says it (issue 39, part 5): "Noted: has a
cat called Miso · Undo · Open", or "Waiting for your OK: ... · Open" for what the gate holds for the person.

Read from the records themselves (the memories learned from the turn's messages, the proposals made from them),
so the cue says what was kept, never what the model merely proposed.
"""

from dataclasses import dataclass
from typing import Protocol


class _Memories(Protocol):
    def learned_from(self, message_ids: list[int]) -> list[dict[str, object]]: ...


class _Proposals(Protocol):
    def pending(self) -> list[dict[str, object]]: ...


@dataclass(frozen=True)
class Noted:
    kind: str  # "memory" (learned; undone by forgetting it) or "proposal" (waiting for the person's OK)
    item_id: int
    text: str

    @property
    def waiting(self) -> bool:
        return self.kind == "proposal"


def noted(memories: _Memories, gate: _Proposals, message_ids: list[int]) -> list[Noted]:
    """What was learned from these messages, then what of them waits for the person's OK."""
    learned = [Noted("memory", int(str(m["id"])), str(m["content"])) for m in memories.learned_from(message_ids)]
    ids = set(message_ids)
    waiting = [
        Noted("proposal", int(str(p["id"])), str(p["content"])) for p in gate.pending() if p["message_id"] in ids
    ]
    return learned + waiting


def cue(items: list[Noted]) -> str:
    """The cue in words, without its links: "Noted: has a cat called Miso; is called Dana"."""
    said = [(n.waiting, n.text[:1].lower() + n.text[1:]) for n in items]
    parts = []
    if kept := [t for w, t in said if not w]:
        parts.append("Noted: " + "; ".join(kept))
    if held := [t for w, t in said if w]:
        parts.append("Waiting for your OK: " + "; ".join(held))
    return " · ".join(parts)
