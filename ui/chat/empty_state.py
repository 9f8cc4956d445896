"""What a new conversation shows instead of a blank area: the companion's name, a line of what it is, and a few
openers; one clicked is put in the message box (not sent: the person may change it first)."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from .meta import initial

OPENERS = (
    "Tell me a little about yourself.",
    "I'd like to talk about my day.",
    "Help me think something through.",
    "What do you remember about me?",
)
WHAT = (
    "Your companion, here on this computer. It remembers what you tell it, and all of it stays in one encrypted "
    "file that you own: open the Open Mind (Ctrl+M) to read or correct it."
)


class EmptyState(QWidget):
    chosen = Signal(str)  # an opener's text, for the message box

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("empty-state")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        column = QVBoxLayout(self)
        column.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        column.addStretch(2)
        self.avatar = QLabel()
        self.avatar.setObjectName("empty-avatar")
        self.avatar.setFixedSize(56, 56)
        self.avatar.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(self.avatar, alignment=Qt.AlignmentFlag.AlignHCenter)
        self.title = QLabel()
        self.title.setObjectName("empty-title")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(self.title)
        self.line = QLabel(WHAT)
        self.line.setObjectName("empty-line")
        self.line.setWordWrap(True)
        self.line.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.line.setMaximumWidth(460)
        centred = QHBoxLayout()  # (a wrapped label aligned in a layout is given too little height for its lines)
        centred.addStretch(1)
        centred.addWidget(self.line, 100)
        centred.addStretch(1)
        column.addLayout(centred)
        column.addSpacing(14)
        self.openers: list[QPushButton] = []
        for text in OPENERS:
            button = QPushButton(text)
            button.setObjectName("opener")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(lambda _=False, t=text: self.chosen.emit(t))
            column.addWidget(button, alignment=Qt.AlignmentFlag.AlignHCenter)
            self.openers.append(button)
        # One width, a tidy stack, as wide as the longest (short openers: the chat beside a 900 px Open Mind is
        # ~410 px, and a wider stack was cut at its right edge with the line above it).
        widest = min(460, max(b.sizeHint().width() for b in self.openers))
        for button in self.openers:
            button.setFixedWidth(widest)
        column.addStretch(3)
        self.set_name("Anima")

    def set_name(self, name: str) -> None:
        self.title.setText(name)
        self.avatar.setText(initial(name))
