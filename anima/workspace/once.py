"""No item twice in a turn's context: what a tier would say again that another already says is left out of it.

People say a thing again and recall finds it again; learning writes a fact as a memory and as a line of the human
block at once. Each repetition costs its tokens before a reply's first word, on every warm turn after it too, and a
small model reads a thing said twice as a thing that matters twice. So, in the order the tiers are read: a line of
the human block is not said again by a recalled memory nor by a fact just learned; what the conversation's history
holds (the message itself, or the same words by the same role) is not recalled into it; a recalled item is in a
note once (by its key, or as the same kind saying the same words); a part bids once.
"""

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Protocol

from ..retrieval.recall import Recalled
from ..trust.gate import block_lines

if TYPE_CHECKING:
    from ..parts.bids import Bid


class Said(Protocol):
    """An entry of the conversation's history (workspace/assemble.py Entry), as far as this reads it."""

    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def keys(self) -> AbstractSet[tuple[str, int]]: ...


def same(text: str) -> str:
    """What two sayings share when they are the same words: spacing, case and a closing full stop aside."""
    return " ".join(text.split()).casefold().rstrip(".")


def unsaid_facts(learned: Sequence[tuple[int, str]], human: str) -> list[tuple[int, str]]:
    """Facts just learned that the human block (as the floor sends it) does not hold already, each once."""
    held = {same(line) for line in block_lines(human)}
    out = []
    for memory_id, fact in learned:
        if same(fact) not in held:
            held.add(same(fact))
            out.append((memory_id, fact))
    return out


def unsaid_items(
    items: Sequence[Recalled], history: Sequence[Said], human: str, learned: Sequence[tuple[int, str]]
) -> list[Recalled]:
    """Recalled items (best first) that nothing before them in the turn's context says: the history's entries
    (their keys, and a message's words as its role said them), the human block, facts just learned, a better item."""
    keys = {key for e in history for key in e.keys} | {("memory", i) for i, _ in learned}
    said = {(e.role, same(e.content)) for e in history if e.role != "system"}
    known = {same(line) for line in block_lines(human)} | {same(fact) for _, fact in learned}
    seen: set[tuple[str, str]] = set()
    out = []
    for r in items:
        words = same(r.text)
        role = "user" if r.row.get("role") == "user" else "assistant"
        if (
            r.key in keys
            or (r.kind, words) in seen
            or (r.kind == "message" and (role, words) in said)
            or (r.kind == "memory" and words in known)
        ):
            continue
        keys.add(r.key)
        seen.add((r.kind, words))
        out.append(r)
    return out


def unsaid_bids(bids: Sequence["Bid"]) -> list["Bid"]:
    """A part's first bid only (in the order the Self chose them)."""
    seen: set[int] = set()
    out = []
    for b in bids:
        if b.part_id not in seen:
            seen.add(b.part_id)
            out.append(b)
    return out
