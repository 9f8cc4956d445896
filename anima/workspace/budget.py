"""What each tier of a turn's workspace may take, declared once here and scaled to the model's context.

The prompt stays lean: every token is read before a reply's first word, on every warm turn after it too. So each
tier has a budget in the model's own tokens, a share of its room (the context less what the reply needs), and a way
to keep within it that never cuts an item mid-sentence: the SELF is never cut (its texts are capped where they are
written: store/sections.py, self/selfmodel.py), a ranked tier loses its lowest-ranked items whole, the history its
oldest turns whole, and only an enormous message is cut, keeping its end (workspace/assemble.py).

Every turn reports what each tier took (Assembled.by_tier): the Open Mind's "Why?" and `bench learning` read it.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

REPLY_RESERVE = 512  # the reply's own room in the context, whatever the context's size
RECALL_SHARE = 0.25  # all recalled items together: of what is left after the floor and the new message


class Keeps(Enum):
    """How a tier keeps within its budget."""

    WHOLE = "never cut"  # capped where it is written, or said once and small
    RANKED = "its lowest-ranked items go, whole"
    OLDEST = "its oldest turns go, whole"
    END = "the message keeps its end"


@dataclass(frozen=True)
class Tier:
    name: str
    what: str  # as a person reads it in a report
    share: float  # of the room (context less REPLY_RESERVE); 0: no budget of its own (see Keeps)
    keeps: Keeps


# In the prompt's order: from the most stable text to the most volatile (workspace/assemble.py).
TIERS: tuple[Tier, ...] = (
    Tier("self", "who I am: origin, guardrails, persona, identity, intentions", 0.0, Keeps.WHOLE),
    Tier("rules", "the rules I learned from feedback", 0.08, Keeps.RANKED),
    Tier("human", "what I know about the person", 0.0, Keeps.WHOLE),
    Tier("working_memory", "what I hold for a few days", 0.0, Keeps.WHOLE),
    Tier("history", "the conversation so far", 0.0, Keeps.OLDEST),  # what the other tiers leave
    Tier("focus", "what is on my mind", 0.0, Keeps.WHOLE),
    Tier("feelings", "how they seem to feel", 0.0, Keeps.WHOLE),
    Tier("learned", "what I just learned", 0.0, Keeps.WHOLE),
    Tier("memories", "recalled memories", 0.12, Keeps.RANKED),
    Tier("messages", "recalled messages", 0.10, Keeps.RANKED),
    Tier("episodes", "recalled episodes", 0.08, Keeps.RANKED),
    Tier("world", "world cards", 0.08, Keeps.RANKED),
    Tier("parts", "the parts' bids I follow", 0.06, Keeps.RANKED),
    Tier("message", "the new message", 0.0, Keeps.END),  # half of what the SELF leaves
)
TIER_NAMES: tuple[str, ...] = tuple(t.name for t in TIERS)
# The tier of each kind of recalled item (store/kinds.py names the kinds).
RECALLED_TIER = {"memory": "memories", "message": "messages", "episode": "episodes", "world_card": "world"}

T = TypeVar("T")


def budgets(context_tokens: int) -> dict[str, int]:
    """Each tier's budget in tokens for a model with this context (0: none of its own)."""
    room = context_tokens - REPLY_RESERVE
    return {t.name: int(room * t.share) for t in TIERS}


def ranked_fit(items: Sequence[T], cost: Callable[[T], int], budget: int) -> list[T]:
    """The best items (`items` best first) that fit `budget` together: from the first that does not fit on, all
    go, so no item ranked lower stays while one ranked higher went."""
    kept, used = [], 0
    for item in items:
        used += cost(item)
        if used > budget:
            break
        kept.append(item)
    return kept
