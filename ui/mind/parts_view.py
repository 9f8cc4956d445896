"""Parts (seed 000): the perspectives that bid, active and archived, each with its outcomes, its recent bids (what it
proposed, when, and whether the Self followed it), its JSON, where it came from and what it became (splits and
merges), and its edits. The person edits a part's JSON (checked as any patch
is: a JSON that breaks the schema is refused with a clear message and nothing changes; so is a save over a change
made since the part was shown, which Revert then shows), archives it or makes it active again."""

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from anima.parts.open_parts import bid_line

from .base import MindView
from .table_view import row_table

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.parts.parts import Part


def outcome_line(o: dict) -> str:
    result = o["result"] or "(not known yet)"
    return (
        f"{o['timestamp'][:16].replace('T', ' ')}: I suggested “{o['your_suggestion']}”, predicting "
        f"“{o['predicted_result']}” ({o['predicted_result_confidence']}, within "
        f"{o['predicted_result_timeframe_in_seconds']} s). What came of it: {result}"
    )


def edit_line(e: dict) -> str:
    return f"{e['at'][:19].replace('T', ' ')}  {'you' if e['actor'] == 'user' else 'I'}: {e['op']} (edit #{e['id']})"


class PartsView(MindView):
    title = "Parts"
    columns = ("#", "part", "status", "lineage", "outcomes")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.table = row_table(self.columns)
        self.table.setObjectName("parts")
        self.table.verticalHeader().hide()
        self.table.itemSelectionChanged.connect(self.show_part)

        self.outcomes = QListWidget()
        self.outcomes.setObjectName("part-outcomes")
        self.outcomes.setWordWrap(True)
        self.json = QPlainTextEdit()
        self.json.setObjectName("part-json")
        self.edits = QListWidget()
        self.edits.setObjectName("part-edits")
        self.bids = QListWidget()
        self.bids.setObjectName("part-bids")
        self.bids.setWordWrap(True)
        json_page = QWidget()
        json_col = QVBoxLayout(json_page)
        json_col.setContentsMargins(0, 0, 0, 0)
        json_col.addWidget(self.json)
        json_buttons = QHBoxLayout()
        self.save_button = self._button("Save JSON", "save-part", self.save, json_buttons)
        self._button("Revert", "revert-part", self.revert, json_buttons)
        json_col.addLayout(json_buttons)
        self.details = QTabWidget()
        self.details.addTab(self.outcomes, "Outcomes")
        self.details.addTab(self.bids, "Bids")
        self.details.addTab(json_page, "JSON")
        self.details.addTab(self.edits, "Edits")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.details)
        buttons = QHBoxLayout()
        self.archive_button = self._button("Archive", "archive-part", self.toggle_archived, buttons)
        buttons.addStretch(1)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(split)
        self.layout_.addLayout(buttons)
        self.rows: list = []
        # A refused edit's text, kept for the person to fix, with the part as it was shown when they wrote it.
        self._draft: tuple[int, str, dict[str, Any] | None] | None = None
        # The part as the JSON text was made from it: a save is checked against it.
        self._shown: dict[str, Any] | None = None
        self._put: tuple[int, str] | None = None  # the part and the text this view last put in the editor

    @staticmethod
    def _button(text, name, fn, row) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.clicked.connect(lambda: fn())
        row.addWidget(b)
        return b

    def load(self):
        return self.companion.shown_parts()

    def show_data(self, rows) -> None:
        keep = self.selected()
        self.rows = rows
        self.table.blockSignals(True)
        self.table.fill(
            rows,
            lambda s: (
                f"#{s.part.id}",
                s.part.name,
                s.part.status + (", core" if s.part.core else ""),
                "; ".join(x for x in (s.came_from, s.became) if x),
                len(s.part.data["suggestions_and_results"]),
            ),
        )
        self.table.blockSignals(False)
        self.select(keep.part.id if keep else None)

    def select(self, part_id: int | None) -> None:
        """Select a part by its id (tests; and the selection kept across reloads); the first when it is gone."""
        ids = [s.part.id for s in self.rows]
        if ids:
            self.table.selectRow(ids.index(part_id) if part_id in ids else 0)
        self.show_part()

    def selected(self):
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def show_part(self) -> None:
        s = self.selected()
        # Text typed and not saved outlives a reload (a reply ending, a forget in another program reload the view),
        # as a refused save's does: kept as a draft of the part it was typed for.
        if (
            s is not None
            and self._put
            and self._put[0] == s.part.id
            and not self._draft
            and self.json.toPlainText() != self._put[1]
        ):
            self._draft = (s.part.id, self.json.toPlainText(), self._shown)
        self.outcomes.clear()
        self.edits.clear()
        self.bids.clear()
        if s is None:
            self.json.setPlainText("")
            self.archive_button.setEnabled(False)
            self.save_button.setEnabled(False)
            return
        p = s.part
        self.outcomes.addItems(
            [outcome_line(o) for o in p.data["suggestions_and_results"]]
            or ["No outcomes yet: nothing it suggested has been followed and checked."]
        )
        self.bids.addItems([bid_line(b) for b in s.bids] or ["No bids yet: nothing has woken it since it was made."])
        if self._draft and self._draft[0] == p.id:
            _, text, self._shown = self._draft
        else:
            text, self._shown = json.dumps(p.data, ensure_ascii=False, indent=1), p.data
        self.json.setPlainText(text)
        self._put = (p.id, text)
        self.edits.addItems([edit_line(e) for e in s.edits[::-1]])
        self.archive_button.setText("Make active" if p.archived else "Archive")
        self.archive_button.setEnabled(True)
        self.save_button.setEnabled(True)

    def save(self) -> None:
        s = self.selected()
        if s is None:
            return self.say("Select a part first.")
        pid, text, shown = s.part.id, self.json.toPlainText(), self._shown
        self._draft = (pid, text, shown)
        stored: list[Part] = []

        def saved():
            if self._draft == (pid, text, shown):  # not a newer edit made while this one was saved
                self._draft = None
            if self._shown is shown:  # the text shown is now the part as stored, before the view reloads
                self._shown = stored[0].data

        def store() -> None:
            assert shown is not None  # show_part put the part selected in the editor, from the part as it was
            stored.append(self.companion.edit_part(pid, text, shown=shown))

        self.change(store, saved)

    def revert(self) -> None:
        """The part's JSON as it is now: a refused edit's text is let go, and the parts are read again."""
        self._draft = self._put = None
        self.say("")
        self.refresh()

    def toggle_archived(self) -> None:
        s = self.selected()
        if s is None:
            return self.say("Select a part first.")
        self._draft = None
        self.change(lambda: self.companion.parts.set_archived(s.part.id, not s.part.archived, "user"))
