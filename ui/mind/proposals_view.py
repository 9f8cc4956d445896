"""Proposed changes: what would change the companion's always-present self, waiting for the person's say.

The gate (anima/self/gate.py) keeps here what did not come from the person's
own words about themselves: text from outside, an instruction, a claim made
for someone else, a contradiction. Each shows what it would change, why it
waits and where it came from; Accept applies it as the person's own edit,
Reject keeps the old text. Resolved ones can be shown too. One made stale by
a change since (the line it would replace is gone, the text a rewrite was
made against changed) says so and cannot be accepted: it waits to be rejected.
"""

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QLabel

from anima.store.provenance import shown

from .self_view import EDITABLE
from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion

TARGETS = dict(EDITABLE)
OPS = {"add": "add", "replace": "replace a line with", "rewrite": "rewrite it as"}


def change(p: dict) -> str:
    return f"{OPS.get(p['op'], p['op'])}: {p['content']}"


class ProposalsView(TableView[dict[str, Any]]):
    title = "Waiting for you"
    kinds = ("proposal",)
    about = "Changes to what I always keep in mind that wait for your say."
    appears = (
        "A change waits here when it did not come from your own words about yourself: text from outside, "
        "an instruction, a claim made for someone else, or a contradiction."
    )
    columns = ("change", "instead of", "why it waits", "from", "to", "status", "proposed")

    pending = Signal(int)  # how many wait, each time the view loads

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.intro = QLabel(
            "Changes to what I always keep in mind that wait for your say. "
            "Accept makes one yours; Reject keeps what is there."
        )
        self.intro.setWordWrap(True)
        self.layout_.insertWidget(0, self.intro)
        self.detail = QLabel()
        self.detail.setObjectName("proposal-detail")
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.layout_.insertWidget(self.layout_.indexOf(self.pages) + 1, self.detail)
        self.accept_button = self.action("Accept", self.accept)
        self.reject_button = self.action("Reject", self.reject)
        self.resolved = QCheckBox("Show resolved ones too")
        self.resolved.toggled.connect(lambda _: self.refresh())
        self.actions_.addWidget(self.resolved)
        self.table.itemSelectionChanged.connect(self._selected)
        self._selected()

    def load(self):
        if self.resolved.isChecked():
            rows, waiting = self.companion.proposals(pending_only=False), len(self.companion.proposals())
        else:
            rows = self.companion.proposals()
            waiting = len(rows)
        floor = self.companion.self_model.read()
        return [
            {**p, "stale": self.companion.proposal_stale(p, floor) if p["status"] == "pending" else None} for p in rows
        ], waiting

    def show_data(self, data):
        rows, waiting = data
        self.fill(
            rows,
            lambda p: (
                change(p),
                p["replaces"] or "",
                p["reason"],
                shown(p),
                TARGETS.get(p["target"], p["target"]),
                p["status"]
                + (f" {p['resolved_at'][:10]}" if p["resolved_at"] else "")
                + (" (stale)" if p["stale"] else ""),
                p["created_at"][:16].replace("T", " "),
            ),
        )
        if rows and self.table.currentRow() < 0:
            self.table.selectRow(0)
        self._selected()
        self.pending.emit(waiting)

    def _selected(self) -> None:
        p = self.selected()
        waits = p is not None and p["status"] == "pending"
        self.accept_button.setEnabled(waits and p is not None and not p["stale"])
        self.reject_button.setEnabled(waits)
        if p is None:
            self.detail.setText("Nothing waits for you." if not self.rows else "")
            return
        lines = [f"{TARGETS.get(p['target'], p['target'])}: {change(p)}"]
        if p["replaces"]:
            lines.append(f"Instead of: {p['replaces']}")
        lines += [f"Why it waits: {p['reason']}", f"From: {shown(p)}"]
        if not waits:
            lines.append(f"You {p['status']} it on {p['resolved_at'][:10]}.")
        elif p["stale"]:
            lines.append(f"It can no longer be applied: {p['stale']}. Reject it to clear it.")
        self.detail.setText("\n".join(lines))

    def accept(self) -> None:
        p = self.selected()
        if p is None or p["status"] != "pending":
            return self.say("Select a change that waits first.")
        self.change(lambda: self.companion.accept_proposal(p["id"]))

    def reject(self) -> None:
        p = self.selected()
        if p is None or p["status"] != "pending":
            return self.say("Select a change that waits first.")
        self.change(lambda: self.companion.reject_proposal(p["id"]))
