"""Text the person did not type, sent with a message: a paste of more than one line, a file attached or dropped.

Each waits as a chip above the message box, named for what it is ("pasted
text (12 lines)", "file notes.txt (3 lines)"), and can be removed before
sending. It goes to the companion as `External`, which the core marks as
information from outside, never as the person's own words; in the transcript
it is shown as plain text in its own box, never rendered as Markdown.
"""

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

if TYPE_CHECKING:  # the core is imported off the UI thread after the first paint (app.prepare), not before it
    from anima.knowledge.messages import External

from .. import theme

SHOWN_LINES = 8  # of outside text in a transcript bubble; the rest is in its tooltip and stored
SHOWN_CHARS = 2_000  # of those lines: one line of 1,000,000 characters laid out in a label froze the window 46 s


def lines(text: str) -> int:
    return len(text.strip("\r\n").splitlines())


def is_outside_paste(text: str) -> bool:
    """A paste of more than one line is text from outside; a single line stays ordinary typing, unless it is
    longer than one typed message may be (TYPED_MOST)."""
    from anima.knowledge.messages import TYPED_MOST

    return lines(text) > 1 or len(text.strip()) > TYPED_MOST


def describe(label: str, text: str) -> str:
    """How an attachment is named to the person: its label and its length."""
    n = lines(text)
    return f"{label} ({n} line{'s' * (n != 1)})"


def outside(message: dict) -> dict | None:
    """The provenance of a stored message when it is text from outside (else None), for the transcript."""
    from anima.knowledge.messages import from_outside

    if not message.get("speaker") or not from_outside(message):  # Messages.page says where each came from
        return None
    return {"source": message["source"], "message_id": message.get("sent_with"), "detail": message.get("detail", "")}


class Chip(QFrame):
    """One attachment waiting to be sent, with a button that removes it."""

    removed = Signal(object)

    def __init__(self, external: "External", parent=None):
        super().__init__(parent)
        self.external = external
        self.setObjectName("attachment")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 2, 2)
        self.label = QLabel(describe(external.label, external.text))
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setToolTip(preview(external.text))
        row.addWidget(self.label)
        self.remove = QToolButton()
        self.remove.setText("×")
        self.remove.setToolTip("Remove it; it is not sent")
        self.remove.setObjectName("remove-attachment")
        self.remove.setAccessibleName(f"Remove {describe(external.label, external.text)}")
        self.remove.clicked.connect(lambda: self.removed.emit(self))
        row.addWidget(self.remove)


class AttachmentBar(QWidget):
    """The attachments of the message being written, and why it cannot be sent as it is (too long to be typed);
    hidden while there is neither."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        self.why = QLabel(wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.why.setObjectName("message-limit")
        theme.tone(self.why, "error")
        self.why.hide()
        col.addWidget(self.why)
        self.attached = QWidget()
        self.row = QHBoxLayout(self.attached)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.addWidget(QLabel("Sent with it, as text from outside:"))
        self.row.addStretch(1)
        col.addWidget(self.attached)
        self.chips: list[Chip] = []
        self.attached.hide()
        self.hide()

    def say(self, why: str) -> None:
        """Why the message cannot be sent as it is; "" when it can."""
        if why == self.why.text():
            return
        self.why.setText(why)
        self.why.setVisible(bool(why))
        self._show()

    def _show(self) -> None:
        self.attached.setVisible(bool(self.chips))
        self.setVisible(bool(self.chips) or bool(self.why.text()))

    def add(self, external: "External") -> Chip:
        chip = Chip(external)
        chip.removed.connect(self._remove)
        self.row.insertWidget(self.row.count() - 1, chip)
        self.chips.append(chip)
        self._show()
        self.changed.emit()
        return chip

    def _remove(self, chip: Chip) -> None:
        self.chips.remove(chip)
        chip.deleteLater()
        self._show()
        self.changed.emit()

    def items(self) -> list["External"]:
        return [c.external for c in self.chips]

    def clear(self) -> None:
        for chip in list(self.chips):
            self._remove(chip)


def preview(text: str) -> str:
    shown = text.strip("\r\n").splitlines()
    more = len(shown) - SHOWN_LINES
    head = "\n".join(shown[:SHOWN_LINES])
    cut = f"\n… ({len(text) - SHOWN_CHARS:,} more characters)" if len(head) > SHOWN_CHARS else ""
    return head[:SHOWN_CHARS] + (cut or (f"\n… ({more} more line{'s' * (more != 1)})" if more > 0 else ""))


class OutsideText(QFrame):
    """Outside text in a transcript bubble: marked as such, shown as plain text (never rendered, never fetched)."""

    def __init__(self, label: str, text: str, parent=None):
        super().__init__(parent)
        self.text = text
        self.message_id: int | None = None  # stored as a message of its own; known once stored
        self.setObjectName("outside-text")
        self.setFrameShape(QFrame.Shape.Box)
        # Set apart from the person's own words by a dashed border: ui/theme.py, QFrame#outside-text.
        col = QVBoxLayout(self)
        col.setContentsMargins(6, 4, 6, 4)
        self.header = QLabel(f"Text from outside: {describe(label, text)}")
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setStyleSheet("font-style: italic;")
        col.addWidget(self.header)
        self.body = QLabel(preview(text))
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        col.addWidget(self.body)
