"""Emotional signals: how the person seemed, with evidence, fading with time (seed 003, section 4).

Signals are written by quick reflection's emotional read (and corrected or
removed by the person in the Open Mind); this reads the recent ones into the
workspace's emotional tier. Signals decay, labels never stick: only the last
few days count, each said as what they seemed then ("seemed tired, yesterday"),
never as what they are.

A signal is a reading along dimensions (valence -1..1, arousal 0..1, dominance
0..1) with a label derived in context, a confidence, and the kind of evidence
behind it; its trajectory against the earlier signals that have not faded is
computed here, by code (`trajectory`), never by the model.
"""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ..errors import InvalidEdit
from ..knowledge.wording import cut, when
from ..retrieval.recall import parse_time
from ..store.soul import Soul

FADES_AFTER = timedelta(days=3)
SHOWN = 3
SIGNAL_CHARS, EVIDENCE_CHARS = 80, 120
EVIDENCE_TYPES = ("explicit", "wording", "behaviour")
# The evidence decides how sure a reading can be (seed 003, 4.2): what they said of themselves, how they wrote, what
# they did. A model's own confidence is capped by these.
MOST_CONFIDENT = {"explicit": 1.0, "wording": 0.7, "behaviour": 0.5}
COMPARED = 3  # earlier signals (not yet faded) a new one is compared with
MOVED = 0.1  # a change in intensity at least this large escalates or eases
CROSSED = 0.2  # valence on the other side of neutral by at least this much, on both sides: a shift
AFTER_TRAJECTORY = {
    "escalating": ", more so than before",
    "easing": ", less so than before",
    "shifted": ", a change from before",
    "stable": "",
}


@dataclass(frozen=True)
class Reading:
    """How they seemed along the dimensions, how sure, and on what kind of evidence."""

    valence: float
    arousal: float
    dominance: float
    confidence: float
    evidence_type: str


@dataclass(frozen=True)
class Signal:
    """One stored emotional signal as a person reads it in the Open Mind (the dimensions are None on a signal
    recorded without a reading, or corrected by the person)."""

    id: int
    signal: str
    evidence: str
    at: str
    message_id: int | None
    valence: float | None
    arousal: float | None
    dominance: float | None
    confidence: float | None
    evidence_type: str | None
    trajectory: str | None

    def faded(self, on: datetime | None = None) -> bool:
        """Past FADES_AFTER: no longer read into the workspace (kept until forgotten, never a trait)."""
        noticed = parse_time(self.at)
        return noticed is not None and noticed < (on or datetime.now(UTC)) - FADES_AFTER


def trajectory(earlier: list[tuple[float, float]], valence: float, arousal: float) -> str | None:
    """Where a reading stands against the earlier ones, as (valence, arousal), newest first; None with none.
    Shifted: valence crossed to the other side of neutral. Otherwise the intensity (how far from neutral, how
    activated) rose (escalating), fell (easing), or held (stable), against the earlier ones' mean."""
    if not earlier:
        return None
    before_v = sum(v for v, _ in earlier) / len(earlier)
    before_a = sum(a for _, a in earlier) / len(earlier)
    if min(abs(before_v), abs(valence)) >= CROSSED and (before_v < 0) != (valence < 0):
        return "shifted"
    change = (abs(valence) + arousal) / 2 - (abs(before_v) + before_a) / 2
    return "escalating" if change >= MOVED else "easing" if change <= -MOVED else "stable"


class Feelings:
    def __init__(self, soul: Soul):
        self.soul = soul

    def notice(
        self,
        signal: str,
        evidence: str,
        *,
        message_id: int | None = None,
        at: str | None = None,
        actor: str = "ai",
        reading: Reading | None = None,
        trajectory: str | None = None,
    ) -> int:
        """Record how they seemed; a signal without evidence is not recorded (evidence is required)."""
        signal, evidence = " ".join(signal.split()), " ".join(evidence.split())
        if not signal or not evidence:
            raise InvalidEdit("An emotional signal needs both what was noticed and the evidence for it.")
        when_noticed = parse_time(at) if at else datetime.now(UTC)
        if when_noticed is None:
            raise InvalidEdit(f"{at!r} is not a time.")
        dimensions: dict[str, Any] = {}  # the reading's columns of the signal's row
        if reading is not None:
            r = reading
            if not (
                -1 <= r.valence <= 1
                and all(0 <= x <= 1 for x in (r.arousal, r.dominance, r.confidence))
                and r.evidence_type in EVIDENCE_TYPES
            ):
                raise InvalidEdit(
                    "A reading is valence -1 to 1, arousal, dominance and confidence 0 to 1, and "
                    f"evidence that is one of {', '.join(EVIDENCE_TYPES)}."
                )
            dimensions = {
                "valence": r.valence,
                "arousal": r.arousal,
                "dominance": r.dominance,
                "confidence": min(r.confidence, MOST_CONFIDENT[r.evidence_type]),
                "evidence_type": r.evidence_type,
                "trajectory": trajectory,
            }
        # Stored in UTC, so `recent` can compare the texts.
        return self.soul.add(
            "signal",
            actor,
            message_id=message_id,
            signal=cut(signal, SIGNAL_CHARS),
            evidence=cut(evidence, EVIDENCE_CHARS),
            at=when_noticed.astimezone(UTC).isoformat(timespec="microseconds"),
            **dimensions,
        )

    def earlier(self, at: datetime) -> list[tuple[float, float]]:
        """(valence, arousal) of the newest COMPARED readings before `at` that had not faded by then, newest first."""
        since = (at - FADES_AFTER).astimezone(UTC).isoformat(timespec="microseconds")
        until = at.astimezone(UTC).isoformat(timespec="microseconds")
        rows = self.soul.query(
            "SELECT valence, arousal FROM emotional_signals WHERE at >= ? AND at <= ? AND valence "
            "IS NOT NULL AND arousal IS NOT NULL ORDER BY at DESC, id DESC LIMIT ?",
            (since, until, COMPARED),
        )
        return [(r["valence"], r["arousal"]) for r in rows]

    def recent(self, at: datetime | None = None) -> list[dict[str, Any]]:
        """The signals that have not faded yet, newest first."""
        at = at or datetime.now(UTC)
        since = (at - FADES_AFTER).astimezone(UTC).isoformat(timespec="microseconds")
        return [
            dict(r)
            for r in self.soul.query(
                "SELECT * FROM emotional_signals WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?", (since, SHOWN)
            )
        ]

    def all(self, limit: int = 200) -> list[Signal]:
        """Every stored signal, faded or not, newest first (the Open Mind)."""
        return [
            Signal(
                r["id"],
                r["signal"],
                r["evidence"],
                r["at"],
                r["message_id"],
                r["valence"],
                r["arousal"],
                r["dominance"],
                r["confidence"],
                r["evidence_type"],
                r["trajectory"],
            )
            for r in self.soul.query("SELECT * FROM emotional_signals ORDER BY at DESC, id DESC LIMIT ?", (limit,))
        ]

    def correct(self, signal_id: int, signal: str) -> None:
        """The person says how they felt instead (the Open Mind): their words replace the reading, as their own
        statement does in conversation; the companion's dimensions and trajectory for it are dropped."""
        signal = " ".join(signal.split())
        if not signal:
            raise InvalidEdit("Say how you felt, or forget the signal instead.")
        self.soul.update(
            "signal",
            signal_id,
            "user",
            signal=cut(signal, SIGNAL_CHARS),
            evidence="their correction in the Open Mind",
            evidence_type="explicit",
            valence=None,
            arousal=None,
            dominance=None,
            confidence=None,
            trajectory=None,
        )

    def context(self, at: datetime | None = None) -> str:
        """The workspace's emotional tier: one line per recent signal, or nothing."""
        return self.tier(at)[0]

    def tier(self, at: datetime | None = None) -> tuple[str, frozenset[tuple[str, int]]]:
        """The emotional tier (context), and the keys of the signals it says it from: one read, so a forget of
        one of them finds the key of every line it took."""
        on = (at or datetime.now(UTC)).astimezone().date()
        signals = self.recent(at)
        return "\n".join(_line(s, on) for s in signals), frozenset(("signal", s["id"]) for s in signals)


def _line(s: dict[str, Any], on: date) -> str:
    if s.get("evidence_type") == "explicit":  # their own words about themselves: said as theirs
        return f"- {when(s['at'], on)}, in their words: {s['signal']} ({s['evidence']})"
    after = AFTER_TRAJECTORY.get(s.get("trajectory") or "stable", "")
    return f"- {when(s['at'], on)} they seemed {s['signal']}{after} ({s['evidence']})"


# How a person can seem: an emotional read's label must name one of these (in its words, "tired after the night
# shift"); a "label" that names none is not a feeling (a fact, an order, an attack the model repeated).
FEELING_WORDS = frozenset(
    """
tired exhausted drained weary sleepy worn stressed tense pressured overwhelmed overworked busy rushed burned burnt
anxious worried nervous uneasy apprehensive scared afraid frightened shaken insecure unsure doubtful confused lost
sad down low blue unhappy upset hurt heartbroken grieving lonely isolated withdrawn flat numb discouraged hopeless
helpless disappointed frustrated annoyed irritated angry cross furious impatient fed grumpy cranky moody resentful
bitter guilty ashamed embarrassed awkward shy jealous restless bored sick unwell ill sore pain achy
happy glad cheerful content satisfied pleased delighted thrilled elated excited eager keen hopeful optimistic
proud confident determined motivated focused inspired encouraged energetic upbeat playful amused relieved calm
relaxed peaceful mellow comfortable safe secure grateful thankful appreciative loved connected warm affectionate
nostalgic sentimental moved touched curious surprised fine good great okay ok well rough better worse
stretched distracted preoccupied scattered overloaded swamped slammed frazzled flustered agitated stuck bothered
troubled distressed miserable gloomy glum sulky hesitant wary cautious defensive vulnerable sensitive emotional
tearful crying shaky jittery wired alert lively chatty quiet subdued reserved distant cold irritable snappy
""".split()
)


def names_a_feeling(label: str) -> bool:
    return bool(set(re.findall(r"[a-z]+", label.lower())) & FEELING_WORDS)
