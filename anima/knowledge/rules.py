"""Behavioural rules: what the companion learned helps this person, from how they reacted (seed 003, section 6).

A rule is a hypothesis, not a preference they stated (those are memories of
kind "preference", kept and shown apart). Each piece of feedback deep reflection
finds in an exchange (a correction, a re-ask, an abandoned topic) supports a
rule or contradicts one; the messages are cited as its evidence. Support and
contrary evidence count conversations (messages.conversation), not messages:
three corrections in one heated exchange are one piece of evidence, cited three
times. A rule is in force, and enters the workspace, once IN_FORCE_AFTER
conversations support it; it is retired when contrary evidence brings its
confidence under RETIRE_BELOW, and stays retired (what is learned later starts a
new rule). The person may correct or forget a rule in the Open Mind, as any memory.

A lesson drawn from text from outside (a file, a paste, a tool's output: reflect/support.py) is a proposal, not a
rule: it is kept with where it came from (its provenance), says so in its status, gathers evidence only from
outside text like it, and is never in force until the person confirms it (`confirm`, or their own correction).
"""

import logging
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidEdit, NotFound
from ..retrieval.fts import terms
from ..store.provenance import EXTERNAL, Provenance, Source
from ..store.soul import Soul, now
from .messages import conversation

log = logging.getLogger(__name__)

FOR, AGAINST = "for", "against"  # which way a cited message bears on a rule
IN_FORCE_AFTER = 3  # "three conversations where you interrupted to ask for the bottom line" (seed 003, 6.1)
RETIRE_BELOW = 0.5
PATTERN_CHARS = 160
SHOWN = 8  # rules in force in the floor, the most confident first
# Two wordings of one lesson: a small model rarely names the rule it supports, so a new pattern that shares this
# much of its words with a rule under way is that rule.
SAME_RULE = 0.6


def confidence(support: int, against: int) -> float:
    """More instances, more confidence; contrary ones take it away (3 for, none against: 0.75)."""
    return round(support / (support + against + 1), 3)


@dataclass(frozen=True)
class Rule:
    id: int
    pattern: str
    support: int
    against: int
    confidence: float
    derived_at: str
    retired_at: str | None
    # Where its lesson came from when that is text from outside the person has not confirmed ("file letter.txt"):
    # a proposal, never in force; "" for a rule learned from the person's own words, or confirmed by them.
    outside: str = ""

    @property
    def in_force(self) -> bool:
        return self.retired_at is None and self.support >= IN_FORCE_AFTER and not self.outside

    @property
    def status(self) -> str:
        """How a person reads where it stands: "in force", "gathering evidence", "retired", or a proposal from
        outside text that waits for them."""
        if self.retired_at is None and self.outside:
            return f"proposed: it came from outside text ({self.outside}), not from you; yours to confirm"
        return "retired" if self.retired_at is not None else "in force" if self.in_force else "gathering evidence"


@dataclass(frozen=True)
class Evidence:
    """A message cited as evidence for or against a rule (which way is not kept: only the counts are)."""

    message_id: int
    role: str
    content: str
    at: str


def _rule(row: dict[str, Any]) -> Rule:
    return Rule(
        row["id"],
        row["pattern"],
        row["support"],
        row["against"],
        row["confidence"],
        row["derived_at"],
        row["retired_at"],
        (row["outside"] or "outside text") if row["source"] in _OUTSIDE else "",
    )


_OUTSIDE = frozenset(s.value for s in EXTERNAL)
# A rule with its provenance's source and detail (what `_rule` reads); the caller adds its WHERE and ORDER.
_RULES = (
    "SELECT r.*, p.source AS source, p.detail AS outside FROM behavioral_rules AS r "
    "LEFT JOIN provenance AS p ON p.item_kind = 'rule' AND p.item_id = r.id "
)


def similar(a: str, b: str) -> float:
    x, y = set(terms(a)), set(terms(b))
    return len(x & y) / len(x | y) if x and y else 0.0


class Rules:
    def __init__(self, soul: Soul):
        self.soul = soul

    def all(self) -> list[Rule]:
        """Every rule, in force, under way and retired; newest first."""
        return [_rule(r) for r in self.soul.query(_RULES + "ORDER BY r.id DESC")]

    def open(self) -> list[Rule]:
        """Rules not retired (in force or still gathering evidence), oldest first: what feedback may join."""
        return [_rule(r) for r in self.soul.query(_RULES + "WHERE r.retired_at IS NULL ORDER BY r.id")]

    def in_force(self) -> list[Rule]:
        """What enters the workspace: the most confident first, at most SHOWN."""
        return sorted((r for r in self.open() if r.in_force), key=lambda r: (-r.confidence, r.id))[:SHOWN]

    def matching(self, pattern: str, outside: bool = False) -> Rule | None:
        """The open rule that says what `pattern` says; `outside`: among the proposals from outside text (a lesson
        from outside text joins only those; the person's own feedback only rules of their own)."""
        found = [r for r in self.open() if bool(r.outside) == outside]
        best = max(found, key=lambda r: similar(r.pattern, pattern), default=None)
        return best if best is not None and similar(best.pattern, pattern) >= SAME_RULE else None

    def learn(
        self,
        pattern: str,
        message_id: int,
        *,
        rule_id: int | None = None,
        at: str | None = None,
        outside: Provenance | None = None,
    ) -> int | None:
        """Feedback in message `message_id` suggests `pattern`: it supports rule `rule_id`, or else the open rule
        that says the same, or starts one. `outside`: where the lesson came from when that is text from outside
        (reflect/support.py): it supports only a proposal from outside text, or starts one with that provenance,
        never in force until the person confirms it. Returns the rule's id, or None when the lesson is left out (it
        cites a rule of the other kind and says nothing of its own)."""
        pattern = " ".join(pattern.split())
        at = at or now()
        with self.soul.transaction():
            rule = self._get(rule_id) if rule_id is not None else self.matching(pattern, outside is not None)
            if rule is not None and bool(rule.outside) != (outside is not None):
                # The person's feedback never counts for a proposal from outside text, nor outside text for a rule
                # of theirs: the lesson joins (or starts) one of its own kind, in its own words only: the cited
                # rule's words would carry outside text into a rule of the person's with no mark of where it came from.
                if not pattern:
                    log.info("a lesson that cites a rule of the other kind and says nothing itself is left out")
                    return None
                rule = self.matching(pattern, outside is not None)
            if rule is not None and rule.retired_at is not None:
                rule = None
            if rule is None and (not pattern or len(pattern) > PATTERN_CHARS):
                raise InvalidEdit(f"A rule's pattern is one to {PATTERN_CHARS} characters.")
            if rule is None:
                rid = self.soul.add(
                    "rule",
                    "ai",
                    provenance=outside or Provenance(Source.REFLECTION, message_id),
                    pattern=pattern,
                    confidence=confidence(1, 0),
                    derived_at=at,
                    support=1,
                )
            else:
                rid = rule.id
                if not self._heard_in(rid, message_id, FOR):
                    self._count(rule, rule.support + 1, rule.against, at)
            self.soul.cite("rule", rid, "message", message_id, FOR)
        return rid

    def contradict(self, rule_id: int, message_id: int, *, at: str | None = None) -> None:
        """An exchange went against rule `rule_id` (they asked for the opposite, or it did not help)."""
        rule = self._get(rule_id)
        if rule.retired_at is not None:
            return
        with self.soul.transaction():
            if not self._heard_in(rule_id, message_id, AGAINST):
                self._count(rule, rule.support, rule.against + 1, at or now())
            self.soul.cite("rule", rule_id, "message", message_id, AGAINST)

    def evidence(self, rule_id: int) -> list[Evidence]:
        """The messages cited as a rule's evidence, oldest first (a forgotten message is simply absent)."""
        return [
            Evidence(r["id"], r["role"], r["content"], r["created_at"])
            for r in self.soul.query(
                "SELECT DISTINCT m.id, m.role, m.content, m.created_at FROM evidence AS e "
                "JOIN messages AS m ON m.id = e.item_id "
                "WHERE e.owner_kind = 'rule' AND e.owner_id = ? AND e.item_kind = 'message' ORDER BY m.id",
                (rule_id,),
            )
        ]

    def flagged(self) -> list[int]:
        """The rules a forget flagged (a message cited as their evidence went), oldest first."""
        return self.soul.flagged("rule")

    def count_again(self, rule_id: int) -> bool:
        """A flagged rule counted again from the evidence left, and no longer flagged; one that nothing left
        supports is forgotten (its pattern was drawn from the words that went), unless the person wrote its
        pattern. Whether it is retired stays as it was. Returns whether it stands."""
        rule = self._get(rule_id)
        heard: dict[str | None, set[tuple[str, int]]] = {FOR: set(), AGAINST: set(), None: set()}
        for r in self.soul.query(
            "SELECT item_id, stance FROM evidence WHERE owner_kind = 'rule' AND owner_id = ? AND item_kind = 'message'",
            (rule_id,),
        ):
            heard[r["stance"]].add(conversation(self.soul, r["item_id"]))
        # Evidence cited before its stance was kept (migrations.m012) may bear either way: a forget only ever
        # lowers a count, so it never turns evidence against a rule into support.
        support = min(rule.support, len(heard[FOR] | heard[None]))
        against = min(rule.against, len(heard[AGAINST] | heard[None]))
        if not support and not self._worded_by_person(rule_id):
            self.soul.forget("rule", rule_id)
            return False
        self.soul.update(
            "rule",
            rule_id,
            "ai",
            support=support,
            against=against,
            confidence=confidence(support, against),
            needs_regeneration=0,
        )
        return True

    def _worded_by_person(self, rule_id: int) -> bool:
        return any(
            h["actor"] == "user" and '"pattern"' in (h["after"] or "") for h in self.soul.history("rule", rule_id)
        )

    def correct(self, rule_id: int, pattern: str) -> None:
        """The person rewrites what a rule says (the Open Mind)."""
        pattern = " ".join(pattern.split())
        if not pattern or len(pattern) > PATTERN_CHARS:
            raise InvalidEdit(f"A rule's pattern is one to {PATTERN_CHARS} characters.")
        self._get(rule_id)
        with self.soul.transaction():
            self.soul.update("rule", rule_id, "user", pattern=pattern)
            self._theirs(rule_id)

    def confirm(self, rule_id: int) -> None:
        """The person takes a proposal from outside text as a rule of theirs: it counts as any rule from then on (in
        force once its evidence is enough). Its provenance says they made it theirs, and where it came from."""
        rule = self._get(rule_id)
        if rule.outside:
            with self.soul.transaction():
                self.soul.update("rule", rule_id, "user", pattern=rule.pattern)  # their say, in the edit history
                self._theirs(rule_id)

    def _theirs(self, rule_id: int) -> None:
        row = self.soul.provenance("rule", rule_id)
        if row is not None and row["source"] in _OUTSIDE:
            with self.soul.transaction() as con:
                con.execute(
                    "UPDATE provenance SET source = ?, detail = ? WHERE item_kind = 'rule' AND item_id = ?",
                    (Source.APP.value, f"confirmed by you; it came from {row['detail'] or 'outside text'}", rule_id),
                )

    def retire(self, rule_id: int, actor: str = "user", at: str | None = None) -> None:
        rule = self._get(rule_id)
        if rule.retired_at is None:
            self.soul.update("rule", rule_id, actor, retired_at=at or now())

    def _count(self, rule: Rule, support: int, against: int, at: str) -> None:
        conf = confidence(support, against)
        fields: dict[str, float | str] = {"support": support, "against": against, "confidence": conf}
        # In force once, a rule whose contrary evidence outweighs it is retired; one still gathering support is
        # retired when the evidence against it is as strong as the evidence for it.
        was_in_force = rule.support >= IN_FORCE_AFTER
        if (was_in_force and conf < RETIRE_BELOW) or (not was_in_force and against >= support):
            fields["retired_at"] = at
        self.soul.update("rule", rule.id, "ai", **fields)

    def _heard_in(self, rule_id: int, message_id: int, stance: str) -> bool:
        """Whether the conversation of `message_id` already spoke `stance` on the rule (it counts once)."""
        here = session, first = conversation(self.soul, message_id)
        cited = self.soul.query(
            "SELECT m.id FROM evidence AS e JOIN messages AS m ON m.id = e.item_id WHERE e.owner_kind = 'rule' "
            "AND e.owner_id = ? AND e.item_kind = 'message' AND e.stance = ? AND m.session = ? AND m.id >= ?",
            (rule_id, stance, session, first),
        )
        # Between the conversation's first message and this one there is no pause; after it there may be.
        return any(r["id"] <= message_id or conversation(self.soul, r["id"]) == here for r in cited)

    def _get(self, rule_id: int) -> Rule:
        rows = self.soul.query(_RULES + "WHERE r.id = ?", (rule_id,))
        if not rows:
            raise NotFound(f"There is no behavioural rule #{rule_id}.")
        return _rule(rows[0])
