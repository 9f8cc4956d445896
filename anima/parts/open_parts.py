"""What the Open Mind reads and does about parts and predictions, typed, so ui/ holds no SQL and no patch logic.

- `PartShown`: a part with what a person needs beside it: where it came from (split or merged from which parts) and
  what it became (the parts split or merged from it), its edits, and its recent bids (what it proposed, when, and
  whether the Self followed it).
- `edit_whole`: a person's edit of a part as a whole JSON text, turned into a patch of the top-level fields it
  changes and applied through Parts.patch, so the same checks hold (schema, size, voice, protected fields) and a
  refused edit changes nothing; refused too when the part changed since it was shown (reflection added a trigger
  meanwhile), rather than undoing that change unseen.
- `PredictionShown` and `predictions`: every prediction with its part's name and where it stands (pending, due,
  evaluated) at a given time.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import InvalidEdit
from ..models.structured import NotJSON, parse_json
from ..store.soul import Soul
from .bids import span
from .parts import Part, Parts
from .predictions import Prediction

PENDING, DUE, EVALUATED = "pending", "due", "evaluated"  # what Prediction.status says


@dataclass(frozen=True)
class PartShown:
    part: Part
    children: list[int]  # the parts split or merged from it
    edits: list[dict[str, Any]]  # its edit history, oldest first
    bids: list[dict[str, Any]] = field(default_factory=list)  # its recent bids, newest first (Bidding.of_part)

    @property
    def came_from(self) -> str:
        """ "split from #3", "merged from #4, #5", or ""."""
        lineage = self.part.lineage
        if not lineage:
            return ""
        return f"{lineage['how']} from " + ", ".join(f"#{i}" for i in lineage["from"])

    @property
    def became(self) -> str:
        """ "became #6, #7" for a part split or merged into others, or ""."""
        return "became " + ", ".join(f"#{i}" for i in self.children) if self.children else ""


def shown_parts(
    soul: Soul, parts: Parts, archived: bool | None = None, bids: Callable[[int], list[dict[str, Any]]] | None = None
) -> list[PartShown]:
    """The parts (active first, then archived; each oldest first) with their lineage both ways, their edits and,
    given `bids` (a part's id -> its recent bids: Bidding.of_part), their bids."""
    every = parts.all(archived)
    every.sort(key=lambda p: (p.archived, p.id))
    return [PartShown(p, parts.children(p.id), soul.history("part", p.id), bids(p.id) if bids else []) for p in every]


def bid_line(b: dict[str, Any]) -> str:
    """One bid as the Open Mind says it: when, whether it was followed, and what the part wanted, suggested and
    predicted (Bidding.of and of_part rows)."""
    followed = "followed" if b["followed"] else "not followed"
    return (
        f"{b['made_at'][:16].replace('T', ' ')} ({followed}): I wanted the focus on {b['focus'].rstrip('.')}; "
        f"I suggested: {b['suggestion'].rstrip('.')}; I predicted: {b['predicted_result'].rstrip('.')} "
        f"({b['confidence']} sure, within {span(b['timeframe_s'])})."
    )


def edit_whole(parts: Parts, part_id: int, text: str, *, shown: dict[str, Any], actor: str = "user") -> Part:
    """Apply a part's whole JSON as edited by a person from `shown`, the part as it was shown to them: InvalidEdit
    (one clear line) when it is not JSON that can be kept (parse_json), not an object, or a part the store would
    not keep, or when the part has changed since it was shown; then nothing changes."""
    try:
        after = parse_json(text)
    except NotJSON as e:
        raise InvalidEdit(f"Part #{part_id} was not changed: {e}.") from None
    if not isinstance(after, dict):
        raise InvalidEdit(
            f"Part #{part_id} was not changed: a part is a JSON object {{...}}, not a {type(after).__name__}."
        )
    operations = [{"op": "remove", "path": "/" + _pointer(k)} for k in shown if k not in after]
    operations += [
        {"op": "add" if k not in shown else "replace", "path": "/" + _pointer(k), "value": v}
        for k, v in after.items()
        if shown.get(k, _MISSING) != v
    ]
    return parts.patch(part_id, operations, actor, shown=shown)


_MISSING = object()


def _pointer(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True)
class PredictionShown(Prediction):
    """A prediction with its part's name, as the Open Mind lists it."""

    part_name: str = ""

    def state(self, at: datetime) -> str:
        return self.status(at)


def predictions(soul: Soul) -> list[PredictionShown]:
    """Every prediction, the soonest due first, the evaluated ones after (the newest evaluated first)."""
    rows = soul.query(
        "SELECT pr.id, pr.part_id, p.name AS part_name, pr.suggestion, pr.predicted_result, pr.confidence, "
        "pr.timeframe_s, pr.made_at, pr.due_at, pr.result, pr.evaluated_at FROM predictions AS pr "
        "JOIN parts AS p ON p.id = pr.part_id "
        "ORDER BY pr.evaluated_at IS NOT NULL, CASE WHEN pr.evaluated_at IS NULL THEN pr.due_at END, "
        "pr.evaluated_at DESC, pr.id"
    )
    return [PredictionShown(**r) for r in rows]
