"""How to help this person: the behavioural rules the companion learned from how they reacted, kept and shown
apart from the preferences they stated (seed 003, section 6).

A rule is a hypothesis with evidence: its pattern, where it stands (in force,
gathering evidence, retired), how many conversations support it or went against it,
its confidence and the messages it was learned from. A stated preference is the
person's own word (a memory of kind "preference"). The person may correct,
retire or forget a rule, and edit or forget a preference."""

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from .base import MindView
from .empty import EmptyState
from .table_view import row_table

if TYPE_CHECKING:
    from anima.companion import Companion

EVIDENCE_SHOWN = 200  # characters of each message in the evidence pane


class Rows(QGroupBox):
    """A titled table of rows with buttons under it."""

    def __init__(self, title: str, columns: tuple[str, ...], empty: QWidget | None = None, parent=None):
        """`empty`: shown instead of the table while it has no rows."""
        super().__init__(title, parent)
        self.table = row_table(columns)
        self.col = QVBoxLayout(self)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.table)
        self.empty = empty
        if empty is not None:
            self.pages.addWidget(empty)
        self.col.addWidget(self.pages)
        self.on_items: list[QWidget] = []  # what acts on, or shows, a selected row: hidden while there is none
        self.buttons = QHBoxLayout()
        self.col.addLayout(self.buttons)
        self.rows: list = []

    def action(self, text: str, name: str, fn) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(fn)
        self.buttons.addWidget(button)
        self.on_items.append(button)
        return button

    def fill(self, rows: list, cells) -> None:
        self.rows = rows
        self.table.fill(rows, cells)
        if self.empty is not None:
            self.pages.setCurrentWidget(self.table if rows else self.empty)
            for widget in self.on_items:
                widget.setVisible(bool(rows))

    def selected(self):
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def select(self, match) -> None:
        """Select the first row `match(row)` holds for (tests, and keeping a selection across reloads)."""
        for i, row in enumerate(self.rows):
            if match(row):
                self.table.selectRow(i)
                return


class RulesView(MindView):
    title = "Rules"
    kinds = ("rule",)
    reflects = True
    about = "What I have learned helps you, from how you reacted: each rule a hypothesis with its evidence."
    appears = "Rules come from your corrections, after deep reflection."

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.empty = EmptyState(self.title, self.about, self.appears, self.reflect_deeply)
        self.rules = Rows(
            "What I learned helps you (from how you reacted)",
            ("rule", "status", "conversations for it", "against it", "how sure", "since"),
            self.empty,
        )
        self.rules.table.itemSelectionChanged.connect(self.show_evidence)
        self.evidence_title = QLabel()
        self.evidence = QListWidget()  # the selected rule's evidence: one message a line
        self.evidence.setObjectName("rule-evidence")
        self.evidence.setWordWrap(True)
        self.evidence.setMaximumHeight(110)
        self.rules.col.insertWidget(1, self.evidence_title)
        self.rules.col.insertWidget(2, self.evidence)
        self.rules.on_items += [self.evidence_title, self.evidence]
        self.rules.action("Correct…", "correct-rule", self.correct_rule)
        self.rules.action("Confirm", "confirm-rule", self.confirm_rule)  # a proposal from outside text made theirs
        self.rules.action("Retire", "retire-rule", self.retire_rule)
        self.rules.action("Forget", "forget-rule", self.forget_rule)
        none_stated = QLabel(
            "None yet. When you tell me how you like things (“I prefer short answers”), I keep it here, in your words.",
            wordWrap=True,
        )
        none_stated.setAlignment(Qt.AlignmentFlag.AlignTop)
        none_stated.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.preferences = Rows("What you told me you prefer", ("preference", "true from", "until"), none_stated)
        self.preferences.action("Edit…", "edit-preference", self.edit_preference)
        self.preferences.action("Forget", "forget-preference", self.forget_preference)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.rules)
        split.addWidget(self.preferences)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(split)
        self.evidence_of: dict[int, list] = {}
        self._revealing: int | None = None  # a rule to select once listed (a search result opened)

    def load(self):
        c = self.companion
        rules = c.rules.all()
        preferences = [m for m in c.memories.all() if m["kind"] == "preference"]
        return rules, {r.id: c.rules.evidence(r.id) for r in rules}, preferences

    def show_data(self, data):
        rules, evidence, preferences = data
        self.evidence_of = evidence
        self.rules.fill(
            rules, lambda r: (r.pattern, r.status, r.support, r.against, f"{r.confidence:.2f}", r.derived_at[:10])
        )
        self.preferences.fill(preferences, lambda m: (m["content"], m["valid_from"][:10], (m["valid_to"] or "")[:10]))
        if self._revealing is not None:
            self.rules.select(lambda r: r.id == self._revealing)
            self._revealing = None
        self.show_evidence()

    @property
    def is_empty(self) -> bool:
        return self.rules.pages.currentWidget() is self.empty

    def reflected(self) -> None:
        if not self.rules.rows:
            self.empty.note.setText("Deep reflection found no rule to learn yet: I learn them from your corrections.")
            self.empty.note.show()

    def reveal(self, kind: str, item_id: int, place: str = "") -> None:
        self._revealing = item_id
        self.refresh()

    def show_evidence(self) -> None:
        r = self.rules.selected()
        self.evidence.clear()
        if r is None:
            self.evidence_title.setText("Select a rule to see the messages it was learned from.")
            return
        said = self.evidence_of.get(r.id, [])
        self.evidence_title.setText("Learned from:" if said else "No message is left of its evidence.")
        self.evidence.addItems(
            [
                f"#{e.message_id} ({'you' if e.role == 'user' else 'I'}, {e.at[:10]}): {e.content[:EVIDENCE_SHOWN]}"
                for e in said
            ]
        )

    # ---- rules ------------------------------------------------------------------

    def correct_rule(self):
        r = self.rules.selected()
        if r is None:
            return self.say("Select a rule first.")
        text, ok = QInputDialog.getText(self, "Correct a rule", "What I should do:", text=r.pattern)
        if ok:
            self.change(lambda: self.companion.rules.correct(r.id, text))

    def confirm_rule(self):
        r = self.rules.selected()
        if r is None:
            return self.say("Select a rule first.")
        if not r.outside:
            return self.say("That rule was learned from your own words: there is nothing to confirm.")
        self.change(lambda: self.companion.rules.confirm(r.id))

    def retire_rule(self):
        r = self.rules.selected()
        if r is None:
            return self.say("Select a rule first.")
        if r.retired_at is not None:
            return self.say("That rule is already retired.")
        self.change(lambda: self.companion.rules.retire(r.id, "user"))

    def forget_rule(self):
        r = self.rules.selected()
        if r is None:
            return self.say("Select a rule first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget the rule “{r.pattern}” completely? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("rule", r.id))

    # ---- stated preferences -------------------------------------------------------

    def edit_preference(self):
        m = self.preferences.selected()
        if m is None:
            return self.say("Select a preference first.")
        text, ok = QInputDialog.getMultiLineText(self, "Edit preference", "What it should say:", m["content"])
        if ok:
            self.change(lambda: self.companion.memories.edit(m["id"], text, "user"))

    def forget_preference(self):
        m = self.preferences.selected()
        if m is None:
            return self.say("Select a preference first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget “{m['content']}” completely? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("memory", m["id"]))
