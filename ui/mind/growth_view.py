"""The growth log: how the companion changed and why, newest first, each entry with the experiences it cites.

Append-only: no entry is ever edited, by the companion or the person; the person may forget one."""

from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QMessageBox

from anima.knowledge.wording import today, when
from anima.retrieval.recall import parse_time
from anima.self.growth import GrowthEntry

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


def moment(at: str, on: date) -> str:
    """When, on the timeline: "today, 6 December 2026", "3 weeks ago, 14 November 2026", "2 March 2026"."""
    t = parse_time(at)
    if t is None:
        return at[:10]
    day = f"{t.astimezone().day} {t.astimezone():%B %Y}"
    said = when(at, on)
    return day if said == day else f"{said}, {day}"


def cited(entry) -> str:
    """What an entry comes from, for a person: "episode #3: Ada asked for the bottom line"."""
    said = "; ".join(f"{c.kind.replace('_', ' ')} #{c.id}: {c.text}" for c in entry.cites)
    flag = " (something it came from was forgotten)" if entry.flagged else ""
    return (said or "nothing cited") + flag


class GrowthView(TableView[GrowthEntry]):
    title = "Growth"
    kinds = ("growth_log",)
    headline = 1
    timeline = True
    reflects = True
    about = "How I have changed, in my own words, each with the experiences it came from. I never rewrite an entry."
    appears = "Growth comes from deep reflection, when what we lived through changes how I see myself."
    columns = ("when", "how I changed", "from")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        intro = QLabel(
            "How I have changed, in my own words. Append-only: I never rewrite an entry; you may forget one."
        )
        intro.setWordWrap(True)
        self.layout_.insertWidget(0, intro)
        self.action("Forget", self.forget)

    def load(self):
        return self.companion.growth_log()

    def show_data(self, rows):
        on = today()
        self.fill(rows, lambda g: (moment(g.at, on), g.entry, cited(g)))

    def forget(self):
        g = self.selected()
        if g is None:
            return self.say("Select an entry first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget “{g.entry}” completely? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("growth_log", g.id))
