from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QPlainTextEdit


class MessageBox(QPlainTextEdit):
    """Enter sends; Shift+Enter starts a new line."""

    send = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText("Write a message… (Enter sends, Shift+Enter for a new line)")
        self.setMaximumHeight(110)

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and not event.modifiers() & Qt.ShiftModifier:
            text = self.toPlainText().strip()
            if text:
                self.clear()
                self.send.emit(text)
            return
        super().keyPressEvent(event)
