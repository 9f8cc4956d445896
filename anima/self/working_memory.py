"""Working memory: what the companion holds for a few days, each item with the day it lapses (seed 003, 2.2).

The section stays prose a person reads and edits in the Open Mind: one item a
line, "- Ask how the presentation went (until 2026-05-14)". An item is held
through its day and gone the day after: the self-model never shows it again
(SelfModel.read leaves it out, so neither the floor nor the Open Mind has it)
and quick reflection prunes it from the stored text. A line a person writes
without a date is theirs and never lapses.
"""

import re
from dataclasses import dataclass
from datetime import date, timedelta

NOTE_CHARS = 120
LONGEST_DAYS = 14
_ITEM = re.compile(r"^\s*[-*•]?\s*(?P<note>.*?)\s*\(until (?P<until>\d{4}-\d{2}-\d{2})\)\s*$")


@dataclass(frozen=True)
class Item:
    note: str
    until: date | None  # None: a line without a date (a person's), held until someone removes it

    def line(self) -> str:
        return f"- {self.note}" + (f" (until {self.until.isoformat()})" if self.until else "")

    def lapsed(self, on: date) -> bool:
        return self.until is not None and self.until < on


def parse(text: str) -> list[Item]:
    items = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        m = _ITEM.match(raw)
        until = None
        if m:
            try:
                until = date.fromisoformat(m["until"])
            except ValueError:
                m = None
        note = m["note"] if m else raw.strip().lstrip("-*• ").strip()
        items.append(Item(" ".join(note.split()), until))
    return items


def render(items: list[Item]) -> str:
    return "\n".join(i.line() for i in items)


def held(text: str, on: date) -> str:
    """The section as it reads on day `on`: lapsed items left out, every other line exactly as it is."""
    lines = text.splitlines()
    kept = [raw for raw in lines if not any(i.lapsed(on) for i in parse(raw))]
    return text if len(kept) == len(lines) else "\n".join(kept).strip()


def held_items(text: str, on: date) -> list[Item]:
    """The items held on day `on`, in the order written (the Open Mind lists them with their expiry)."""
    return [i for i in parse(text) if not i.lapsed(on)]


def replacing(text: str, old: Item, new: Item | None) -> str:
    """The section with the first line that reads as `old` written as `new`, or left out (None); the other lines
    exactly as they are. `old` not in it: the text unchanged."""
    lines = text.splitlines()
    for n, raw in enumerate(lines):
        if parse(raw) == [old]:
            lines[n : n + 1] = [new.line()] if new is not None else []
            break
    return "\n".join(lines).strip()


def item(note: str, days: int, on: date) -> Item:
    """A new item held for `days` days from `on` (1 to LONGEST_DAYS)."""
    days = min(max(int(days), 1), LONGEST_DAYS)
    return Item(" ".join(note.split())[:NOTE_CHARS], on + timedelta(days=days))
