"""A rewrite of who the companion is (its identity, or its persona), under governance (self/identity.py), with
what came of it in the growth log: noted when too early, proposed to the person when too different, written
otherwise. Deep reflection and evolution on request (/evolve) both rewrite through it."""

from ..errors import InvalidEdit
from ..self.identity import Governance, Ruling
from ..self.selfmodel import SelfModel
from ..store.provenance import Provenance, Source
from ..store.sections import section
from ..store.soul import Soul
from ..trust.gate import Gate
from ..trust.verdict import Change, tainted

GROWTH_CHARS = 600


class GovernedRewrite:
    def __init__(self, soul: Soul, self_model: SelfModel, gate: Gate):
        self.governance = Governance(soul)
        self.self_model = self_model
        self.gate = gate

    def rewrite(self, target: str, current: str, proposed: str) -> tuple[Ruling | None, int | None]:
        """What governance ruled (None: it could not be written) and the growth-log entry it made, if any."""
        ruling = self.governance.consider(current, proposed, target)
        heading = section(target).heading  # as the prompt names it: "Who I am in this relationship"
        what = heading[0].lower() + heading[1:]
        if ruling.ruling is Ruling.UNCHANGED:
            return ruling.ruling, None
        if why := tainted(proposed):
            # Governance weighs how much it changes, not what it says: words no voice of its own says wait for
            # the person, or are refused (a secret), as any other change the gate holds back; the growth log,
            # which only grows, never quotes them.
            self.gate.submit([Change(target, "rewrite", proposed, Provenance(Source.REFLECTION))])
            entry = f"I wanted to rewrite {what}, but {why}, so it is not written: it waits for them."
            return Ruling.TOO_DIFFERENT, self.self_model.grow(entry)
        if ruling.ruling is Ruling.TOO_EARLY:
            entry = (
                f"Noted, not enacted: it is too early to rewrite {what} ({ruling.interactions} of "
                f"{ruling.needed} conversations that mattered). What I thought: "
            )
        elif ruling.ruling is Ruling.TOO_DIFFERENT:
            entry = (
                f"I wanted to rewrite {what}, keeping only {ruling.kept:.0%} of it; that is too much change at "
                f"once, so it waits for them to accept it. What I thought: "
            )
            self.gate.submit([Change(target, "rewrite", proposed, Provenance(Source.REFLECTION))])
        else:
            try:
                self.self_model.write(target, proposed, "ai")
            except InvalidEdit:
                return None, None
            entry = f"I rewrote {what}, keeping {ruling.kept:.0%} of it. Now: "
        return ruling.ruling, self.self_model.grow(_cut(entry, proposed))


def _cut(prefix: str, text: str, cap: int = GROWTH_CHARS) -> str:
    room = cap - len(prefix)
    return prefix + (text if len(text) <= room else text[: room - 1].rsplit(" ", 1)[0] + "…")
