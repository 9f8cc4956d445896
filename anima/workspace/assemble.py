"""The workspace: each turn's context, in tiers (seed 003, section 8).

1. The SELF floor, always present and never cut: origin, guardrails, persona,
   the self-model's identity and intentions, the human block, working memory.
   Its texts are capped where they are written, and the floor as a whole is
   kept within FLOOR_CAP_TOKENS there too (self/selfmodel.py), so it can never
   crowd the conversation out.
2. Emotional context and current focus (the inner state).
3. Within the remaining budget, counted with the model's own tokenizer:
   recalled memories, episodes and world cards, and the recent turns.
Each tier's budget is declared once, scaled to the model's context (budget.py), and what each took is reported
with every turn (Assembled.by_tier); no item is in a turn's context twice (once.py).

The layout runs from the most stable text to the most volatile, and what was
sent once is sent again byte for byte, so llama.cpp reuses its computed
prefix: [floor] [the session's transcript: earlier notes and turns, append-only]
[this turn's note: focus, feelings, what was newly recalled] [the new message].
A recalled item enters the transcript once, in the note of the turn that
recalled it. Where the model can drop a block from what it computed, a note of
recalled items leaves after a few exchanges (conversation/live.py NOTES_KEPT),
and the item can be recalled again when the talk comes back to it; elsewhere it
stays while the transcript holds it. When the transcript outgrows its room its
oldest turns go, down to TRIM_TO of the room, so the prefix then stays valid
for many turns; llama.cpp drops them from what it computed rather than reading
the rest again (models/shift.py).
"""

import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from ..errors import KnownError
from ..knowledge.wording import today
from ..retrieval.recall import Recalled
from ..self.selfmodel import FLOOR_CAP_TOKENS, SelfFloor
from ..store.sections import ALWAYS, WRITTEN, section, title
from .budget import RECALL_SHARE, RECALLED_TIER, REPLY_RESERVE, TIER_NAMES, budgets, ranked_fit
from .note import note_sections, render_item, render_note
from .once import unsaid_bids, unsaid_facts, unsaid_items

if TYPE_CHECKING:
    from ..models.chat import Message
    from ..parts.bids import Bid

log = logging.getLogger(__name__)

# A floor over FLOOR_CAP_TOKENS still goes in whole while it leaves the conversation this much (see _over_cap).
CONVERSATION_LEAST = 512
# When the transcript must be trimmed, it is trimmed to this share of its room, so the next trim is many
# turns away (a trim is cheap where the model can drop tokens from its cache, a full re-read elsewhere).
TRIM_TO = 0.6
# Read ahead only while the next turn (a message and a short note of its own) still fits untrimmed.
NEXT_TURN_ROOM = 256


@dataclass
class Held:
    """One recalled item in the workspace, and why it is there."""

    kind: str
    id: int
    rank: int
    score: float
    components: dict[str, Any]


@dataclass
class Entry:
    """One message of the session's transcript, as it was sent to the model."""

    role: str
    content: str
    keys: frozenset[tuple[str, int]] = frozenset()  # the recalled items a note carries
    # Whether its keys vouch for all it says. A note that says what was on my mind, or what parts of me bid, says
    # it in words no stored item's presence can check: after another program forgets (a person, say), it goes.
    vouched: bool = True
    # Whether it may age out of the transcript (conversation/live.py age_notes): a note of what was recalled (and
    # bid) only. One that says what is on my mind, how they seem or what I just learned stays: nothing says it
    # again while it holds (the focus and feelings shown, the floor's human block kept until its next rebuild).
    ages: bool = False


@dataclass
class Assembled:
    messages: "list[Message]"
    tiers: dict[str, int]  # tier name -> tokens
    held: list[Held] = field(default_factory=list)
    note: Entry | None = None
    kept_from: int = 0  # the transcript entries before this index did not fit
    user_text_cut: bool = False
    # What each tier took (budget.py TIERS, in their order): together, all `tiers` take (the floor's headings and
    # joins count as "self", the note's as its recalled kinds'). And how many items a ranked tier left out to keep
    # within its budget.
    by_tier: dict[str, int] = field(default_factory=dict)
    over_budget: dict[str, int] = field(default_factory=dict)


_over_noted: int | None = None  # the over-cap floor last logged (once, not every turn)


class FloorTooLarge(KnownError):
    """The self's texts leave a turn no room for the conversation; they must be shortened."""


def render_floor(f: SelfFloor, companion_name: str) -> str:
    """The sections always in the prompt (store/sections.py), in their order, each under its heading; an empty
    one is left out."""
    texts = {name: getattr(f, name).strip() for name in ALWAYS}
    texts["origin"] = f"My name is {companion_name}. {texts['origin']}"
    return "\n\n".join(f"# {section(name).heading}\n{text}" for name, text in texts.items() if text)


def note_entry(
    focus: str,
    emotional: str,
    items: list[Recalled],
    learned: Sequence[tuple[int, str]],
    *,
    query: str = "",
    brief: bool = False,
    on: date | None = None,
    bids: Sequence["Bid"] = (),
) -> Entry | None:
    """A turn's note (or one read ahead) as it enters the transcript, with the items it carries; None if empty.
    See render_note for `query`, `brief`, `on` and `bids`."""
    text = render_note(
        focus, emotional, items, [fact for _, fact in learned], query=query, brief=brief, on=on, bids=bids
    )
    keys = frozenset(
        {r.key for r in items}
        | {("memory", memory_id) for memory_id, _ in learned}
        | {("part", b.part_id) for b in bids}
    )
    return (
        Entry(
            "system",
            text,
            keys,
            vouched=not focus.strip() and not bids,
            ages=not (focus.strip() or emotional.strip() or learned),
        )
        if text
        else None
    )


class Workspace:
    def __init__(self, count_tokens: Callable[[str], int], context_tokens: int):
        self.count = count_tokens
        self.budget = context_tokens - REPLY_RESERVE
        self.budgets = budgets(context_tokens)

    def within(self, floor: SelfFloor) -> SelfFloor:
        """The floor with its rules kept to their budget: the most confident first (knowledge/rules.py), whole."""
        lines = floor.rules.splitlines()
        kept = ranked_fit(lines, lambda line: self.count(line) + 1, self.budgets["rules"])
        return floor if len(kept) == len(lines) else dataclasses.replace(floor, rules="\n".join(kept))

    def render(self, floor: SelfFloor, companion_name: str) -> str:
        return render_floor(self.within(floor), companion_name)

    def prefix(
        self, floor: SelfFloor, companion_name: str, transcript: list[Entry], note: Entry | None
    ) -> "list[Message] | None":
        """The stable part the next turn will send, with `note` (if any) at its end; None if it would not fit
        untrimmed (leaving room for a next message and its own note)."""
        floor_text = self.render(floor, companion_name)
        entries = [*transcript, *([note] if note else [])]
        used = self.count(floor_text) + sum(self.count(e.content) + 4 for e in entries)
        if used + NEXT_TURN_ROOM > self.budget:
            return None
        messages: list[Message] = [{"role": "system", "content": floor_text}]
        return messages + [{"role": e.role, "content": e.content} for e in entries]

    def trimmed_start(self, floor: SelfFloor, companion_name: str, transcript: list[Entry], note: Entry) -> int:
        """Where the transcript would start after the trim a next turn would make (see assemble)."""
        left = self.budget - self.count(self.render(floor, companion_name)) - self.count(note.content) - NEXT_TURN_ROOM
        return self._trim(transcript, left, always=True)[0]

    def _trim(self, transcript: list[Entry], left: int, always: bool = False) -> tuple[int, int]:
        """(first entry kept, tokens kept): when the transcript does not fit in `left` (or `always`), its oldest
        entries go until it takes TRIM_TO of it."""
        costs = [self.count(e.content) + 4 for e in transcript]
        start, spent = 0, sum(costs)
        if always or spent > left:
            while spent > left * TRIM_TO and start < len(transcript):
                spent -= costs[start]
                start += 1
        return start, spent

    def floor_tokens(self, floor: SelfFloor, companion_name: str) -> int:
        """What the floor takes in this model's tokens (SelfModel measures its edits with this)."""
        return self.count(self.render(floor, companion_name))

    def _over_cap(self, floor: SelfFloor, tokens: int) -> None:
        """A floor over FLOOR_CAP_TOKENS. Its texts are measured in the model's tokens when they are written
        (SelfModel.write), so it is over only when they were measured with another tokenizer: the person
        switched to a model that takes more tokens for the same text, imported a core, or undid an edit. That is
        no bug, and no reason to stop talking: the turn goes on with the whole floor, and less room for the rest.
        (Cutting the texts to fit would have the companion forget parts of itself without a word.) Only a floor
        that would leave the conversation (the message, the note, recent turns) under CONVERSATION_LEAST tokens
        stops the turn, with a message saying what to shorten; an edit that shortens it is always accepted."""
        global _over_noted
        most = max(FLOOR_CAP_TOKENS, self.budget - CONVERSATION_LEAST)
        if tokens > most:
            sizes = sorted(((self.count(getattr(floor, name)), name) for name in WRITTEN), reverse=True)
            longest = " and ".join(f"the {title(name)} ({n:,})" for n, name in sizes[:2] if n)
            raise FloorTooLarge(
                f"The self takes {tokens:,} of this model's tokens, which leaves too little of its context for the "
                f"conversation (it may take {most:,}). Shorten it in the Open Mind's Self view (the longest texts, "
                f"in tokens: {longest}), or give the model a larger context in the settings."
            )
        if _over_noted != tokens:
            _over_noted = tokens
            log.warning(
                "the SELF floor takes %d tokens with this model, over its cap of %d; turns go on with less "
                "room for the rest",
                tokens,
                FLOOR_CAP_TOKENS,
            )

    def assemble(
        self,
        floor: SelfFloor,
        companion_name: str,
        transcript: list[Entry],
        recalled: list[Recalled],
        user_text: str,
        *,
        focus: str = "",
        emotional: str = "",
        learned: Sequence[tuple[int, str]] = (),
        brief: bool = False,
        bids: Sequence["Bid"] = (),
        recalled_for: str | None = None,
    ) -> Assembled:
        """`brief`: this message's note follows one read ahead, so it is cut to what touches the message.
        `bids`: the parts' bids the Self follows, in the note (never the floor: the computed prefix stays).
        `recalled_for`: what `recalled` was recalled for, when not this message (its draft, read along): the
        note cuts its items to that, as it did when the model read it."""
        floor = self.within(floor)
        floor_text = render_floor(floor, companion_name)
        floor_tokens = self.count(floor_text)
        if floor_tokens > FLOOR_CAP_TOKENS:
            self._over_cap(floor, floor_tokens)
        left = self.budget - floor_tokens

        # The new message always fits: an enormous one is cut to half of what is left, keeping its end.
        user_tokens = self.count(user_text)
        cut = False
        if user_tokens > left // 2:
            keep = max(1, int(len(user_text) * (left // 2) / user_tokens))
            user_text, cut = "[…the start of this message was cut to fit…] " + user_text[-keep:], True
            user_tokens = self.count(user_text)
        left -= user_tokens

        # This turn's note: focus, feelings, and the newly recalled items, best first, each kind within its
        # tier's budget and all within their share of what is left; none that another tier already says.
        learned = unsaid_facts(learned, floor.human)
        bids = unsaid_bids(bids)
        on = today()  # one day for the counting and the writing, even at midnight
        query = user_text if recalled_for is None else recalled_for
        fresh = unsaid_items(recalled, transcript, floor.human, learned)
        items, costs, over_budget = self._recalled(fresh, int(left * RECALL_SHARE), on, query, brief)
        shown_bids = ranked_fit(bids, lambda b: self.count(b.line()) + 1, self.budgets["parts"])
        if len(shown_bids) < len(bids):
            over_budget["parts"] = len(bids) - len(shown_bids)
        note = note_entry(focus, emotional, items, learned, query=query, brief=brief, on=on, bids=shown_bids)
        note_tokens = self.count(note.content) if note else 0
        left -= note_tokens

        # The transcript, trimmed from the front in steps when it does not fit.
        start, spent = self._trim(transcript, left)

        messages: list[Message] = [{"role": "system", "content": floor_text}]
        messages += [{"role": e.role, "content": e.content} for e in transcript[start:]]
        if note:
            messages.append({"role": "system", "content": note.content})
        messages.append({"role": "user", "content": user_text})
        held = [Held(r.kind, r.id, i + 1, r.score, r.components) for i, r in enumerate(items)]
        by_tier = self._floor_tiers(floor, companion_name, floor_tokens)
        by_tier["history"] = spent
        by_tier |= self._note_tiers(note_tokens, focus, emotional, learned, shown_bids, items, costs)
        by_tier["message"] = user_tokens
        by_tier = {name: by_tier.get(name, 0) for name in TIER_NAMES}
        log.debug("a turn's workspace in tokens by tier: %s; left out to keep to budget: %s", by_tier, over_budget)
        return Assembled(
            messages,
            {"floor": floor_tokens, "transcript": spent, "note": note_tokens, "message": user_tokens},
            held,
            note,
            start,
            cut,
            by_tier,
            over_budget,
        )

    def _recalled(
        self, items: list[Recalled], share: int, on: date, query: str, brief: bool
    ) -> tuple[list[Recalled], list[int], dict[str, int]]:
        """The recalled items that fit, best first, with what each takes; and how many each tier left out. Each
        kind keeps to its tier's budget, all of them to `share`: from an item that does not fit on, the items of
        its kind ranked below it go too (or all below it, past `share`), so none stays that ranks under one gone."""
        kept: list[Recalled] = []
        costs: list[int] = []
        spent: dict[str, int] = {}
        closed: set[str] = set()
        left_out: dict[str, int] = {}
        used = 0
        for r in items:
            tier = RECALLED_TIER[r.kind]
            cost = self.count(render_item(r, on, query, brief)) + 1
            if used + cost > share:
                closed |= set(RECALLED_TIER.values())
            elif spent.get(tier, 0) + cost > self.budgets[tier]:
                closed.add(tier)
            if tier in closed:
                left_out[tier] = left_out.get(tier, 0) + 1
                continue
            kept.append(r)
            costs.append(cost)
            spent[tier] = spent.get(tier, 0) + cost
            used += cost
        return kept, costs, left_out

    def _note_tiers(
        self,
        note_tokens: int,
        focus: str,
        emotional: str,
        learned: Sequence[tuple[int, str]],
        bids: Sequence["Bid"],
        items: list[Recalled],
        costs: list[int],
    ) -> dict[str, int]:
        """The note's tokens by tier: each section as it counts alone; what is left (the recalled items, their
        heading, the joins) to the recalled kinds, in proportion to what their items take."""
        sections = note_sections(focus, emotional, [], [f for _, f in learned], bids=bids) if note_tokens else []
        out = {tier: self.count(text) for tier, text in sections}
        rest = note_tokens - sum(out.values())
        kinds: dict[str, int] = {}
        for r, n in zip(items, costs, strict=True):
            kinds[RECALLED_TIER[r.kind]] = kinds.get(RECALLED_TIER[r.kind], 0) + n
        if not kinds:
            if out:
                first = next(iter(out))
                out[first] += rest
            return out
        shares = {tier: rest * n // sum(kinds.values()) for tier, n in kinds.items()}
        shares[next(iter(shares))] += rest - sum(shares.values())
        return out | shares

    def _floor_tiers(self, floor: SelfFloor, companion_name: str, floor_tokens: int) -> dict[str, int]:
        """The floor's tokens by tier: its rules, human block and working memory each under its heading, and the
        rest (who it is, and the joins) as "self"."""
        own = {
            name: self.count(f"# {section(name).heading}\n{text}")
            for name in ("rules", "human", "working_memory")
            if (text := getattr(floor, name).strip())
        }
        return {"self": floor_tokens - sum(own.values()), **own}
