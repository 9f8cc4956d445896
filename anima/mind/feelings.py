"""Emotional signals: how the person seemed, with evidence, fading with time (seed 003, section 4).

Signals are written by quick reflection's emotional read (and corrected or
removed by the person in the Open Mind); this reads the recent ones into the
workspace's emotional tier. Signals decay, labels never stick: only the last
few days count, each said as what they seemed then ("seemed tired, yesterday"),
never as what they are.
"""

from datetime import datetime, timedelta, timezone

from ..errors import InvalidEdit
from .wording import cut, when
from ..retrieval.recall import parse_time
from ..store.soul import Soul

FADES_AFTER = timedelta(days=3)
SHOWN = 3
SIGNAL_CHARS, EVIDENCE_CHARS = 80, 120


class Feelings:
    def __init__(self, soul: Soul):
        self.soul = soul

    def notice(self, signal: str, evidence: str, *, message_id: int | None = None, at: str | None = None,
               actor: str = "ai") -> int:
        """Record how they seemed; a signal without evidence is not recorded (evidence is required)."""
        signal, evidence = " ".join(signal.split()), " ".join(evidence.split())
        if not signal or not evidence:
            raise InvalidEdit("An emotional signal needs both what was noticed and the evidence for it.")
        when_noticed = parse_time(at) if at else datetime.now(timezone.utc)
        if when_noticed is None:
            raise InvalidEdit(f"{at!r} is not a time.")
        # Stored in UTC, so `recent` can compare the texts.
        return self.soul.add("signal", actor, message_id=message_id, signal=cut(signal, SIGNAL_CHARS),
                             evidence=cut(evidence, EVIDENCE_CHARS),
                             at=when_noticed.astimezone(timezone.utc).isoformat(timespec="microseconds"))

    def recent(self, at: datetime | None = None) -> list[dict]:
        """The signals that have not faded yet, newest first."""
        at = at or datetime.now(timezone.utc)
        since = (at - FADES_AFTER).astimezone(timezone.utc).isoformat(timespec="microseconds")
        return [dict(r) for r in self.soul.query("SELECT * FROM emotional_signals WHERE at >= ? ORDER BY at DESC, "
                                                 "id DESC LIMIT ?", (since, SHOWN))]

    def context(self, at: datetime | None = None) -> str:
        """The workspace's emotional tier: one line per recent signal, or nothing."""
        on = (at or datetime.now(timezone.utc)).astimezone().date()
        return "\n".join(f"- {when(s['at'], on)} they seemed {s['signal']} ({s['evidence']})" for s in self.recent(at))
