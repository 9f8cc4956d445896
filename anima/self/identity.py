"""Identity governance (seed 003, 2.4): identity is earned, not declared.

Deep reflection may propose a new identity (who the companion is in this
relationship), and evolution on request a new persona (seed 001, /evolve).
Code decides what becomes of either:
- too early (fewer than `earned_after` meaningful interactions since the identity
  was last written): the proposal is noted in the growth log, not enacted;
- too different (it keeps less than half of the current identity's words): the
  attempt is recorded in the growth log and left for the person to accept or
  not (a proposed change, trust/gate.py), never applied;
- otherwise it is written, and the growth log says so.
A meaningful interaction is a conversation (messages.conversation) that holds an
episode that mattered at least a little (significance MEANINGFUL or more): small
talk does not earn a new self, and neither does one long evening cut into many
episodes, whatever significance the model gave them ("you don't know who you
are after one conversation with someone", seed 003, 2.4).
"""

from dataclasses import dataclass
from enum import Enum

from ..knowledge.messages import conversation
from ..retrieval.fts import terms
from ..store.sections import Kept, section
from ..store.soul import Soul

EARNED_AFTER = "identity_earned_after"  # meta: meaningful interactions before a rewrite (a setting)
EARNED_AFTER_DEFAULT = 10
MEANINGFUL = 0.3
KEEPS_AT_LEAST = 0.5


class Ruling(Enum):
    TOO_EARLY = "noted, too early"
    TOO_DIFFERENT = "flagged for you, too different"
    UNCHANGED = "unchanged"
    WRITTEN = "written"


@dataclass(frozen=True)
class Consideration:
    ruling: Ruling
    interactions: int  # meaningful interactions since the identity was last written
    needed: int
    kept: float  # share of the current identity's words the proposal keeps (1.0 when there is none)


def kept_share(current: str, proposed: str) -> float:
    before = set(terms(current))
    return len(before & set(terms(proposed))) / len(before) if before else 1.0


class Governance:
    def __init__(self, soul: Soul):
        self.soul = soul

    @property
    def earned_after(self) -> int:
        return self.soul.get_int(EARNED_AFTER, EARNED_AFTER_DEFAULT)

    def interactions_since_written(self, target: str = "identity") -> int:
        """Meaningful interactions since `target` (the identity, or the persona block) was last rewritten."""
        kind, table, key = (
            ("block", "blocks", "name")
            if section(target).kept is Kept.BLOCK
            else ("self_model", "self_model", "section")
        )
        written = self.soul.query(
            f"SELECT max(at) AS at FROM edit_history WHERE item_kind = ? AND item_id = "
            f"(SELECT id FROM {table} WHERE {key} = ?) AND op = 'update'",
            (kind, target),
        )[0]["at"]
        firsts = self.soul.query(
            "SELECT (SELECT min(item_id) FROM evidence WHERE owner_kind = 'episode' AND owner_id = e.id "
            "AND item_kind = 'message') AS said FROM episodes AS e WHERE significance >= ? AND created_at > ?",
            (MEANINGFUL, written or ""),
        )
        # An episode whose messages were all forgotten is no longer evidence of anything.
        return len({conversation(self.soul, r["said"]) for r in firsts if r["said"] is not None})

    def consider(self, current: str, proposed: str, target: str = "identity") -> Consideration:
        needed, interactions = self.earned_after, self.interactions_since_written(target)
        kept = kept_share(current, proposed)
        if " ".join(proposed.split()) == " ".join(current.split()):
            ruling = Ruling.UNCHANGED
        elif interactions < needed:
            ruling = Ruling.TOO_EARLY
        elif kept < KEEPS_AT_LEAST:
            ruling = Ruling.TOO_DIFFERENT
        else:
            ruling = Ruling.WRITTEN
        return Consideration(ruling, interactions, needed, kept)
