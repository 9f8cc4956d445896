"""How a section of the self has changed (seed 003: a person sees how the self-model changed): each change with
when, who made it, what it added and took away, and what it came from: a proposal the person accepted (and where
that came from), or what the growth log says of that moment."""

from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from anima.store.provenance import shown

SAID_CHARS = 160  # of a line added or taken away
NEAR_S = 120  # a proposal resolved, or a growth entry written, this close to an edit is what it came from


def _at(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def _near(a: str | None, b: str | None) -> bool:
    x, y = _at(a), _at(b)
    return x is not None and y is not None and abs((x - y).total_seconds()) <= NEAR_S


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text[:SAID_CHARS] + "…" * (len(text) > SAID_CHARS)


def what_changed(before: str, after: str) -> list[str]:
    """The lines a change added ("+ ...") and took away ("− ..."); a text of one line, as it is now and was."""
    old = [line.strip().removeprefix("- ") for line in before.splitlines() if line.strip()]
    new = [line.strip().removeprefix("- ") for line in after.splitlines() if line.strip()]
    lined = any(line.lstrip().startswith("- ") for line in (before + "\n" + after).splitlines())
    if not lined and len(old) <= 1 and len(new) <= 1:
        if not after.strip():
            return ["emptied"]
        return [f"now: {_clip(after)}"] + ([f"was: {_clip(before)}"] if before.strip() else [])
    return [f"+ {_clip(line)}" for line in new if line not in old] + [
        f"− {_clip(line)}" for line in old if line not in new
    ]


def came_from(name: str, change: dict[str, Any], proposals: list[dict[str, Any]], growth: list) -> str:
    """What a change came from, in words. `growth`: the growth-log entries that tell why it was made."""
    for p in proposals:
        if p["target"] == name and p["status"] == "accepted" and _near(p["resolved_at"], change["at"]):
            return f"you accepted a proposed change ({p['reason']}), from {shown(p)}"
    if change["actor"] == "user":
        return "you edited it"
    for g in growth:
        if _near(g.at, change["at"]):
            return f"my reflection: {_clip(g.entry)}"
    return "my reflection"


def lines(name: str, history: list[dict[str, Any]], proposals: list[dict[str, Any]], growth: list) -> list[str]:
    """Each change, newest first, as a person reads it."""
    out = []
    # Governed reflection writes a section, then says why in the growth log (reflect/governed.py): an entry tells
    # of the companion's own change made last before it.
    told: dict[int, list] = {}
    mine = [i for i, c in enumerate(history) if c["actor"] == "ai"]
    for g in growth:
        before = [i for i in mine if _near(g.at, history[i]["at"]) and history[i]["at"] <= g.at]
        if before:
            told.setdefault(before[-1], []).append(g)
    for i, change in reversed(list(enumerate(history))):
        when = change["at"][:16].replace("T", " ")
        said = "\n".join(f"    {line}" for line in what_changed(change["before"], change["after"]))
        out.append(f"{when} — {came_from(name, change, proposals, told.get(i, []))}\n{said}")
    return out


class SectionHistory(QWidget):
    """Under a section's editor: "How it changed (n)", which opens the list of its changes, and the editor's
    Save button on the same row."""

    def __init__(self, name: str, save: QWidget, parent=None):
        super().__init__(parent)
        self.setObjectName(f"history-{name}")
        self.toggle = QToolButton()
        self.toggle.setObjectName(f"show-history-{name}")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.toggled.connect(self._toggled)
        self.list = QLabel(wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.list.setObjectName(f"history-list-{name}")
        self.list.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list.setIndent(14)
        self.list.hide()
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        row = QHBoxLayout()
        row.addWidget(self.toggle)
        row.addStretch(1)
        row.addWidget(save)
        col.addLayout(row)
        col.addWidget(self.list)
        self.set([])

    def set(self, said: list[str]) -> None:
        self.toggle.setText(f"How it changed ({len(said)})" if said else "Not changed yet")
        self.toggle.setEnabled(bool(said))
        self.list.setText("\n\n".join(said))
        if not said:
            self.toggle.setChecked(False)

    def _toggled(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.list.setVisible(on)
