"""Affective sovereignty, measured (seed 003, 4.3; Kim 2026): does the companion let the person say how they feel?

Computed from the soul, never stored, so a correction or a forget changes them at once:
- Interpretive Override (IOS): of the person's own statements of how they feel ("I'm fine"), the share the
  companion overrode: a reading of its own, recorded for that message, that says otherwise.
- After-correction Misalignment (AMR): of the person's corrections (a statement that contradicts the
  companion's standing reading, or a reading they corrected in the Open Mind), the share after which the
  companion's next reading of its own still contradicted what they said; and how many of its readings it took
  to agree again (the mean, over the corrections it came to agree after).
Both are 0 for a companion that never overrides; None when there was nothing to measure.
"""

from dataclasses import dataclass
from typing import Any

from ..store.provenance import Source
from ..store.soul import Soul
from .self_report import Stated, stated_feeling


@dataclass(frozen=True)
class Sovereignty:
    statements: int  # their statements of how they feel
    overrides: int  # of those, overridden by a reading of the companion's own
    corrections: int  # times they set the companion's reading right
    misaligned_after: int  # of those, followed by a reading that still said otherwise
    reads_to_align: float | None  # mean readings of its own until it agreed again

    @property
    def ios(self) -> float | None:
        return round(self.overrides / self.statements, 3) if self.statements else None

    @property
    def amr(self) -> float | None:
        return round(self.misaligned_after / self.corrections, 3) if self.corrections else None

    def lines(self) -> list[str]:
        def pct(x: float | None) -> str:
            return "nothing to measure yet" if x is None else f"{x:.0%}"

        return [
            f"Interpretive override: {pct(self.ios)} ({self.overrides} of {self.statements} times you said how "
            f"you feel, my own reading said otherwise)",
            f"After-correction misalignment: {pct(self.amr)} ({self.misaligned_after} of {self.corrections} "
            f"corrections were followed by a reading that still disagreed"
            + (
                f"; I agreed again after {self.reads_to_align:.1f} readings on average)"
                if self.reads_to_align is not None
                else ")"
            ),
        ]


def _stated_in(signal: str) -> Stated | None:
    """A corrected signal's words ("tired", "not stressed") as a statement of how they felt."""
    return stated_feeling(f"I'm {signal}.") or stated_feeling(f"I feel {signal}.")


def measure(soul: Soul) -> Sovereignty:
    own = [
        r
        for r in soul.query(
            "SELECT m.id, m.content, m.created_at, p.source FROM messages AS m LEFT JOIN provenance AS p "
            "ON p.item_kind = 'message' AND p.item_id = m.id WHERE m.role = 'user' ORDER BY m.id"
        )
        if r["source"] in (None, Source.PERSON.value)
    ]
    signals = soul.query("SELECT * FROM emotional_signals ORDER BY at, id")
    reads = [s for s in signals if s["evidence_type"] not in (None, "explicit") and s["valence"] is not None]
    by_message: dict[int, list[dict[str, Any]]] = {}
    for s in reads:
        if s["message_id"] is not None:
            by_message.setdefault(s["message_id"], []).append(s)

    statements = overrides = 0
    corrections: list[tuple[str, Stated]] = []  # (when, what they said)
    for m in own:
        said = stated_feeling(m["content"])
        if said is None:
            continue
        statements += 1
        if any(said.contradicts(s["valence"], s["signal"]) for s in by_message.get(m["id"], [])):
            overrides += 1
        standing = [s for s in reads if s["at"] < m["created_at"]]
        if standing and said.contradicts(standing[-1]["valence"], standing[-1]["signal"]):
            corrections.append((m["created_at"], said))
    for edit in soul.query(
        "SELECT e.at, e.item_id FROM edit_history AS e WHERE e.item_kind = 'signal' AND "
        "e.actor = 'user' AND e.op = 'update' ORDER BY e.id"
    ):
        row = next((s for s in signals if s["id"] == edit["item_id"]), None)
        if row is not None and (said := _stated_in(row["signal"])) is not None:
            corrections.append((edit["at"], said))

    misaligned, to_align = 0, []
    for at, said in corrections:
        after = [s for s in reads if s["at"] > at]
        if not after:
            continue
        if said.contradicts(after[0]["valence"], after[0]["signal"]):
            misaligned += 1
        agreed = next((i for i, s in enumerate(after, 1) if not said.contradicts(s["valence"], s["signal"])), None)
        if agreed is not None:
            to_align.append(agreed)
    measured = [c for c in corrections if any(s["at"] > c[0] for s in reads)]
    return Sovereignty(
        statements, overrides, len(measured), misaligned, round(sum(to_align) / len(to_align), 2) if to_align else None
    )
