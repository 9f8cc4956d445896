"""What a view of the Open Mind says while it holds nothing: what this kind is, what makes one appear, and, where
deep reflection is what makes them, a button to run it now. An empty table said none of that."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class EmptyState(QWidget):
    def __init__(self, title: str, about: str, appears: str, reflect=None, parent=None):
        """`reflect`: what the button runs (deep reflection now); None: no button."""
        super().__init__(parent)
        self.setObjectName("empty-state")
        col = QVBoxLayout(self)
        col.setContentsMargins(16, 24, 16, 16)
        col.setSpacing(10)
        self.heading = QLabel(f"No {title.lower()} yet")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        self.about = QLabel(about, wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.appears = QLabel(appears, wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.appears.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        for label in (self.heading, self.about, self.appears):
            col.addWidget(label)
        self.button: QPushButton | None = None
        if reflect is not None:
            self.button = QPushButton("Reflect deeply now")
            self.button.setObjectName("reflect-deeply")
            self.button.setToolTip("Look back over our conversations now, rather than when you are next away")
            self.button.clicked.connect(lambda: reflect())
            col.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)
        self.note = QLabel(wordWrap=True)  # what the last reflection made, or why it made nothing
        self.note.setObjectName("empty-note")
        self.note.hide()
        col.addWidget(self.note)
        col.addStretch(1)

    def text(self) -> str:
        """All it says, as a person reads it (tests)."""
        return "\n".join(w.text() for w in (self.heading, self.about, self.appears, self.note) if w.isVisibleTo(self))
