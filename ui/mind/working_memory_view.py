"""Working memory: what the companion holds for a few days, each item with the day it lapses.

The items are lines of the self-model's working-memory section
(anima/self/working_memory.py); correcting or forgetting one rewrites that
line as the person's edit, every other line as it was."""

from datetime import date
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
)

from anima.self import working_memory as wm

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


class ItemDialog(QDialog):
    def __init__(self, item: wm.Item, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Working memory")
        form = QFormLayout(self)
        self.note = QLineEdit(item.note)
        self.note.setMaxLength(wm.NOTE_CHARS)
        self.lapses = QCheckBox("Let it go after a day")
        self.lapses.setChecked(item.until is not None)
        day = item.until
        self.until = QDateEdit(QDate(day.year, day.month, day.day) if day else QDate.currentDate())
        self.until.setCalendarPopup(True)
        self.until.setEnabled(self.lapses.isChecked())
        self.lapses.toggled.connect(self.until.setEnabled)
        form.addRow("Hold on to", self.note)
        form.addRow(self.lapses)
        form.addRow("Until (through that day)", self.until)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def value(self) -> wm.Item:
        # QDate.toPython gives a datetime.date (typed object in PySide6's stubs).
        until = cast(date, self.until.date().toPython()) if self.lapses.isChecked() else None
        return wm.Item(" ".join(self.note.text().split()), until)


class WorkingMemoryView(TableView[wm.Item]):
    title = "Working memory"
    kinds = ("section",)
    places = ("working_memory",)
    about = "What I hold in mind for now, each until a date, so that I remember it in the next days."
    appears = "Working memory fills as we talk: quick reflection keeps what matters for the days ahead."
    columns = ("what I hold", "until")
    dialog = ItemDialog  # a test may put a scripted one in its place

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        intro = QLabel(
            "What I keep in mind for a few days. Each item is gone the day after its date; "
            "one without a date stays until you remove it."
        )
        intro.setWordWrap(True)
        self.layout_.insertWidget(0, intro)
        self.action("Edit…", self.edit)
        self.action("Forget", self.forget)

    def load(self):
        sm = self.companion.self_model
        return wm.held_items(sm.read().working_memory, sm.today())

    def show_data(self, rows):
        today = self.companion.self_model.today()
        self.fill(rows, lambda i: (i.note, until(i.until, today)))

    def _rewrite(self, old: wm.Item, new: wm.Item | None) -> None:
        """On a worker thread: the section as it is now, with that one line changed (or left out)."""
        sm = self.companion.self_model
        self.companion.edit_self("working_memory", wm.replacing(sm.read().working_memory, old, new))

    def edit(self):
        item = self.selected()
        if item is None:
            return self.say("Select an item first.")
        d = self.dialog(item, self)
        if d.exec():
            new = d.value()
            if not new.note:
                return self.say("Say what to hold on to, or forget the item instead.")
            self.change(lambda: self._rewrite(item, new))

    def forget(self):
        item = self.selected()
        if item is None:
            return self.say("Select an item first.")
        if QMessageBox.question(self, "Forget", f"Stop holding on to “{item.note}”?") == QMessageBox.StandardButton.Yes:
            self.change(lambda: self._rewrite(item, None))


def until(day: date | None, today: date) -> str:
    if day is None:
        return "until you remove it"
    if day == today:
        return "today"
    return day.isoformat() + (" (tomorrow)" if (day - today).days == 1 else "")
