"""The SELF floor: origin and guardrails (shipped, read-only), persona and the human block, and the
five-section self-model (seed 003, section 2). Each editable text has a cap, so the floor stays small
and can never crowd the conversation out of the workspace.

A cap in characters means different things in different scripts: in the default model 1,200 characters
are some 300 tokens of English and 2,600 of Chinese. So whenever a text is written the floor as a whole
is also measured in the chat model's own tokens, as the workspace renders it: an edit after which it
would take more than FLOOR_CAP_TOKENS is refused, and the companion's learning fits what it writes to both.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import InvalidEdit
from ..knowledge.rules import Rules
from ..knowledge.wording import today as local_today
from ..store.sections import WRITTEN, Kept, cap, kept_in, title
from ..store.soul import Soul, now
from ..trust.text import unfit_text
from . import working_memory

RESOURCES = Path(__file__).resolve().parent.parent / "resources"  # shipped in the package (pyproject.toml)

# Each section's cap (store/sections.py) is in characters, which a person can see in the Open Mind panel; the
# whole floor's is in the chat model's tokens (workspace/assemble.py renders it and keeps it within this).
FLOOR_CAP_TOKENS = 1600


def shipped(name: str) -> str:
    return (RESOURCES / f"{name}.md").read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class SelfFloor:
    """Each section of the self (store/sections.py) by its name."""

    origin: str
    guardrails: str
    persona: str
    human: str
    identity: str
    intentions: str
    working_memory: str
    inner_state: str
    rules: str = ""  # the behavioural rules in force, as lines (knowledge/rules.py): learned, not stated


def check_plain(name: str, content: object) -> None:
    """InvalidEdit unless `content` is text that shows as it is: no control character but tab and newline, none
    invisible or turning the text's direction, no half of a surrogate pair (the rule of a part's texts). A terminal
    obeyed "\x1b[2J" in the inner state `anima reflect` printed; "\ud800" could not be written at all."""
    if not isinstance(content, str):
        raise InvalidEdit(f"The {title(name)} must be plain text.")
    if (why := unfit_text([("it", content)], names=())) is not None:
        raise InvalidEdit(f"The {title(name)} must be plain text: {why}; the old text is kept.")


class SelfModel:
    def __init__(
        self, soul: Soul, measure: Callable[[SelfFloor], int] | None = None, today: Callable[[], date] = local_today
    ):
        """`measure(floor)`: the tokens the floor takes in the chat model's context (None: only the character
        caps are kept). It may wait for the model to load, so edits run off the UI thread. `today()`: the
        person's day, when working-memory items lapse (self/working_memory.py)."""
        self.soul = soul
        self.measure = measure
        self.today = today

    def read(self) -> SelfFloor:
        """The floor as it is today: a working-memory item past its day is not in it, pruned or not."""
        texts = {r["section"]: r["content"] for r in self.soul.query("SELECT section, content FROM self_model")}
        texts |= {r["name"]: r["content"] for r in self.soul.query("SELECT name, content FROM blocks")}
        texts["working_memory"] = working_memory.held(texts.get("working_memory", ""), self.today())
        rules = "\n".join(f"- {r.pattern}" for r in Rules(self.soul).in_force())
        return SelfFloor(
            rules=rules,
            **{name: shipped(name) for name in kept_in(Kept.SHIPPED)},
            **{k: texts.get(k, "") for k in (*kept_in(Kept.BLOCK), *kept_in(Kept.SECTION))},
        )

    def stored(self, section: str) -> str:
        """A self-model section as stored, lapsed working-memory items and all (what read() shows is today's)."""
        rows = self.soul.query("SELECT content FROM self_model WHERE section = ?", (section,))
        return rows[0]["content"] if rows else ""

    def write(self, name: str, content: str, actor: str) -> None:
        """Rewrite one section or block. Over its cap, not text, or making the floor too large for the model:
        refused, the old value kept."""
        if name not in WRITTEN:
            raise InvalidEdit(f"{name!r} is not an editable part of the self (origin and guardrails are read-only).")
        check_plain(name, content)
        content = content.strip()
        if len(content) > cap(name):
            raise InvalidEdit(
                f"The {title(name)} holds at most {cap(name)} characters ({len(content)} given); the old text is kept."
            )
        if (tokens := self._floor_too_large(name, content)) is not None:
            raise InvalidEdit(
                f"With this text the self would take {tokens:,} of the model's tokens in every turn, more than "
                f"the {FLOOR_CAP_TOKENS:,} it may (some scripts, such as Chinese, take a token or more for each "
                f"character); the old text is kept. Shorten the {title(name)} by about "
                f"{tokens - FLOOR_CAP_TOKENS:,} tokens."
            )
        if name in kept_in(Kept.BLOCK):
            row = self.soul.query("SELECT id FROM blocks WHERE name = ?", (name,))[0]
            self.soul.update("block", row["id"], actor, content=content, updated_at=now())
        else:
            row = self.soul.query("SELECT id FROM self_model WHERE section = ?", (name,))[0]
            self.soul.update("self_model", row["id"], actor, content=content, updated_at=now(), needs_regeneration=0)

    def prepare(self) -> None:
        """Wait, before a write transaction, for what measuring an edit needs (the chat model loading): inside
        one, the write then holds the soul only as long as it takes to write (Gate.accept, Companion.edit_self)."""
        if self.measure is not None:
            self.measure(self.read())

    def fits(self, name: str, content: str) -> bool:
        """Whether `content` may be written as `name` without making the floor too large (see write)."""
        return self._floor_too_large(name, content.strip()) is None

    def _floor_too_large(self, name: str, content: str) -> int | None:
        """The floor's tokens with `content` as `name`, if that is over FLOOR_CAP_TOKENS and more than now. (A
        floor already over it, measured anew by a hungrier tokenizer, may still be shortened a little at a time.)"""
        if self.measure is None:
            return None
        floor = self.read()
        tokens = self.measure(replace(floor, **{name: content}))
        if tokens <= FLOOR_CAP_TOKENS or tokens <= self.measure(floor):
            return None
        return tokens

    def history(self, name: str) -> list[dict[str, Any]]:
        """How one section changed, oldest first: each edit's time, who made it ("user" or "ai"), and the text
        before and after it ("" where there was none)."""
        if name not in WRITTEN:
            raise InvalidEdit(f"{name!r} is not an editable part of the self.")
        kind, table, key = (
            ("block", "blocks", "name") if name in kept_in(Kept.BLOCK) else ("self_model", "self_model", "section")
        )
        row = self.soul.query(f"SELECT id FROM {table} WHERE {key} = ?", (name,))[0]
        return [
            {
                "at": e["at"],
                "actor": e["actor"],
                "before": json.loads(e["before"] or "{}").get("content", ""),
                "after": json.loads(e["after"] or "{}").get("content", ""),
            }
            for e in self.soul.history(kind, row["id"])
            if "content" in json.loads(e["after"] or "{}") or e["op"] != "update"
        ]

    def growth(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest growth-log entries that stand, newest first: what the model reads of the log (evolving the
        persona). None a forget flagged: its words may carry what went. (One citing an episode a forget flagged
        went in that forget: store/forget.py _blank.) The Open Mind shows every entry (GrowthLog)."""
        return self.soul.query(
            "SELECT at, entry FROM growth_log WHERE needs_regeneration = 0 ORDER BY id DESC LIMIT ?", (limit,)
        )

    def grow(self, entry: str, evidence: Sequence[tuple[str, int]] = ()) -> int:
        """Append to the growth log (append-only: never edited, never trimmed)."""
        entry = entry.strip()
        if not entry or len(entry) > 600:
            raise InvalidEdit("A growth-log entry is one to 600 characters.")
        gid = self.soul.add("growth_log", "ai", at=now(), entry=entry)
        for kind, item_id in evidence:
            self.soul.cite("growth_log", gid, kind, item_id)
        return gid
