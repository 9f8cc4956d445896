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
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from anima.parts.open_parts import bid_line

from .base import MindView
from .empty import EmptyState
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


def summary(s) -> str:
    """A part as a person reads it, under its name: who it is in its own words, what it wants, what wakes it, how
    it feels, where it came from."""
    d = s.part.data
    said = [d["description"]]
    if d.get("wants"):
        said.append("I want: " + "; ".join(d["wants"]))
    if d.get("triggers"):
        said.append("I wake when: " + "; ".join(d["triggers"]))
    said.append(f"I feel: {d['emotion']} ({d['intensity'].lower()}). {d['personality']}")
    if where := "; ".join(x for x in (s.came_from, s.became) if x):
        said.append(f"Where I came from: {where}")
    return "\n".join(said)


OPS = {"create": "made it", "update": "changed it", "delete": "removed it"}


def edit_line(e: dict) -> str:
    who = "you" if e["actor"] == "user" else "I"
    return f"{e['at'][:16].replace('T', ' ')}: {who} {OPS.get(e['op'], e['op'])} (edit #{e['id']})"


class PartsView(MindView):
    title = "Parts"
    kinds = ("part",)
    about = "The parts of me: perspectives that each speak as “I”, bid for what to focus on, and predict what happens."
    appears = (
        "A part is born when a moment touches what I value, fear or seek (What I care about), or when you "
        "install a parts pack."
    )
    columns = ("number", "part", "status", "where it came from", "outcomes")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.table = row_table(self.columns, headline=1)
        self.table.setObjectName("parts")
        self.table.itemSelectionChanged.connect(self.show_part)
        self.empty = EmptyState(self.title, self.about, self.appears)
        self.pages = QStackedWidget()  # the parts' cards, or what a part is while there is none
        self.pages.addWidget(self.table)
        self.pages.addWidget(self.empty)

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
        # The part in words, then what came of it; its JSON only behind "Show as JSON".
        self.summary = QLabel(wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.summary.setObjectName("part-summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        readable = QWidget()
        read_col = QVBoxLayout(readable)
        read_col.setContentsMargins(0, 0, 0, 0)
        self.part_name = QLabel(textFormat=Qt.TextFormat.PlainText, wordWrap=True)
        self.part_name.setObjectName("part-name")
        font = self.part_name.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.part_name.setFont(font)
        read_col.addWidget(self.part_name)
        read_col.addWidget(self.summary)
        for heading, listing in (
            ("What came of my suggestions", self.outcomes),
            ("When I spoke up (my bids)", self.bids),
            ("History of edits", self.edits),
        ):
            read_col.addWidget(QLabel(f"<b>{heading}</b>"))
            listing.setMaximumHeight(110)
            listing.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            read_col.addWidget(listing)
        read_col.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(readable)
        self.readable = scroll
        self.details = QStackedWidget()
        self.details.addWidget(scroll)
        self.details.addWidget(json_page)
        self.show_json = QPushButton("Show as JSON")
        self.show_json.setObjectName("show-json")
        self.show_json.setCheckable(True)
        self.show_json.toggled.connect(self._json_shown)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.pages)
        split.addWidget(self.details)
        split.setChildrenCollapsible(False)
        buttons = QHBoxLayout()
        self.archive_button = self._button("Archive", "archive-part", self.toggle_archived, buttons)
        buttons.addStretch(1)
        buttons.addWidget(self.show_json)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(split)
        self.layout_.addLayout(buttons)
        self.rows: list = []
        self._revealing: int | None = None  # a part to select once listed (a search result opened)
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
        self.pages.setCurrentWidget(self.table if rows else self.empty)
        self.details.setVisible(bool(rows))
        self.select(self._revealing if self._revealing in [s.part.id for s in rows] else keep.part.id if keep else None)
        self._revealing = None

    @property
    def is_empty(self) -> bool:
        return self.pages.currentWidget() is self.empty

    def reveal(self, kind: str, item_id: int, place: str = "") -> None:
        self._revealing = item_id
        self.refresh()

    def _json_shown(self, on: bool) -> None:
        self.details.setCurrentIndex(1 if on else 0)
        self.show_json.setText("Show in words" if on else "Show as JSON")

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
        self.summary.setText(summary(s) if s is not None else "")
        self.part_name.setText(f"{s.part.name} ({s.part.status}{', core' if s.part.core else ''})" if s else "")
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
