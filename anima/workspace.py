"""The workspace: each turn's context, in tiers (seed 003, section 8).

1. The SELF floor, always present and never cut: origin, guardrails, persona,
   the self-model's identity and intentions, the human block, working memory.
   Its texts are capped where they are written, and the floor as a whole has a
   hard cap here, so it can never crowd the conversation out.
2. Emotional context and current focus (the inner state).
3. Within the remaining budget, counted with the model's own tokenizer:
   recalled memories, episodes and world cards, and the recent turns.

The layout runs from the most stable text to the most volatile, and the stable
part is rendered byte-identically from turn to turn, so llama.cpp reuses its
computed prefix: [floor] [recent turns, append-only] [this moment: focus and
what was recalled] [the new message].
"""

from dataclasses import dataclass, field
from typing import Callable

from .mind.selfmodel import SelfFloor
from .retrieval.recall import Recalled

FLOOR_CAP_TOKENS = 1600
REPLY_RESERVE = 512
RECALL_SHARE = 0.4
WINDOW_STEP = 8  # of what is left after the floor and the new message


@dataclass
class Held:
    """One recalled item in the workspace, and why it is there."""
    kind: str
    id: int
    rank: int
    score: float
    components: dict


@dataclass
class Assembled:
    messages: list[dict]
    tiers: dict[str, int]  # tier name -> tokens
    held: list[Held] = field(default_factory=list)
    history_ids: list[int] = field(default_factory=list)
    user_text_cut: bool = False


class FloorTooLarge(Exception):
    """A bug: the caps on the self's texts should make this impossible."""


def render_floor(f: SelfFloor, companion_name: str) -> str:
    parts = [f"# Who I am\nMy name is {companion_name}. {f.origin}", f"# My guardrails\n{f.guardrails}"]
    for title, text in (("My persona", f.persona), ("Who I am in this relationship", f.identity),
                        ("What I am trying to do", f.intentions), ("What I know about the person", f.human),
                        ("What I am holding for a few days", f.working_memory)):
        if text.strip():
            parts.append(f"# {title}\n{text.strip()}")
    return "\n\n".join(parts)


def render_moment(inner_state: str, emotional: str, items: list[Recalled]) -> str:
    parts = []
    if inner_state.strip():
        parts.append(f"# On my mind\n{inner_state.strip()}")
    if emotional.strip():
        parts.append(f"# What I notice in how they feel\n{emotional.strip()}")
    if items:
        lines = []
        for r in items:
            when = (r.at or "")[:10]
            label = {"message": "said", "memory": "I know", "episode": "we lived", "world_card": "their world"}[r.kind]
            note = " (no longer true)" if r.row.get("valid_to") else ""
            who = f"{r.row['speaker']}: " if r.kind == "message" and r.row.get("speaker") else ""
            lines.append(f"- [{when}, {label}] {who}{r.text}{note}")
        parts.append("# What I recall that may matter now\n" + "\n".join(lines))
    return "\n\n".join(parts)


class Workspace:
    def __init__(self, count_tokens: Callable[[str], int], context_tokens: int):
        self.count = count_tokens
        self.budget = context_tokens - REPLY_RESERVE

    def assemble(self, floor: SelfFloor, companion_name: str, history: list[dict], recalled: list[Recalled],
                 user_text: str, emotional: str = "") -> Assembled:
        floor_text = render_floor(floor, companion_name)
        floor_tokens = self.count(floor_text)
        if floor_tokens > FLOOR_CAP_TOKENS:
            raise FloorTooLarge(f"the SELF floor takes {floor_tokens} tokens (cap {FLOOR_CAP_TOKENS})")
        left = self.budget - floor_tokens

        # The new message always fits: an enormous one is cut to half of what is left, keeping its end.
        user_tokens = self.count(user_text)
        cut = False
        if user_tokens > left // 2:
            keep = max(1, int(len(user_text) * (left // 2) / user_tokens))
            user_text, cut = "[…the start of this message was cut to fit…] " + user_text[-keep:], True
            user_tokens = self.count(user_text)
        left -= user_tokens

        # Recalled items, best first, within their share.
        recall_budget = int(left * RECALL_SHARE)
        moment_items, used = [], 0
        history_ids = {m["id"] for m in history}
        for r in recalled:
            if r.kind == "message" and r.id in history_ids:
                continue  # already in the recent turns
            cost = self.count(render_moment("", "", [r]))
            if used + cost > recall_budget:
                continue
            moment_items.append(r)
            used += cost
        moment = render_moment(floor.inner_state, emotional, moment_items)
        left -= self.count(moment)

        # Recent turns, newest first, until the budget is spent.
        # When they do not all fit, the window's start moves in steps of WINDOW_STEP messages, so
        # the computed prefix stays valid for several turns instead of changing every turn.
        costs = [self.count(m["content"]) + 4 for m in history]
        start, spent = len(history), 0
        while start > 0 and spent + costs[start - 1] <= left:
            start -= 1
            spent += costs[start]
        if start > 0:
            aligned = -(-start // WINDOW_STEP) * WINDOW_STEP
            spent -= sum(costs[start:aligned])
            start = aligned
        turns = history[start:]

        messages = [{"role": "system", "content": floor_text}]
        messages += [{"role": "assistant" if m["role"] == "companion" else "user", "content": m["content"]}
                     for m in turns]
        if moment:
            messages.append({"role": "system", "content": moment})
        messages.append({"role": "user", "content": user_text})
        held = [Held(r.kind, r.id, i + 1, r.score, r.components) for i, r in enumerate(moment_items)]
        return Assembled(messages, {"floor": floor_tokens, "history": spent, "moment": self.count(moment) if moment else 0,
                                    "message": user_tokens}, held, [m["id"] for m in turns], cut)
