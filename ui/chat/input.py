from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit


class MessageBox(QPlainTextEdit):
    """Enter sends; Shift+Enter starts a new line."""

    send = Signal(str)
    drafted = Signal(str)  # typing paused on this text: the companion may read along

    PAUSE_MS = 400

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText("Write a message… (Enter sends, Shift+Enter for a new line)")
        self.setMaximumHeight(110)
        self.pause = QTimer(self, singleShot=True, interval=self.PAUSE_MS)
        self.pause.timeout.connect(self._paused)
        self.textChanged.connect(self.pause.start)

    def _paused(self) -> None:
        text = self.toPlainText().strip()
        if text:
            self.drafted.emit(text)

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and not event.modifiers() & Qt.ShiftModifier:
            text = self.toPlainText().strip()
            if text:
                self.clear()
                self.pause.stop()
                self.send.emit(text)
            return
        super().keyPressEvent(event)
