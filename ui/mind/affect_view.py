"""The Self's affect profile (seed 000, "Tuning"): what it values, what it fears, what it seeks, one line each, as
the model reads it when it judges whether a moment deserves a part. Only the person edits it (anima/parts/affect.py
checks it whole): an edit that breaks its schema, or holds a secret, is refused with the reason shown, the stored
profile is kept, and the person's text stays to be fixed."""

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton

from anima.parts.packs import AFFECT

from .base import MindView

if TYPE_CHECKING:
    from anima.companion import Companion

SAID = {"values": "What I value", "fears": "What I fear", "seeks": "What I seek"}


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


class AffectView(MindView):
    title = "What I care about"
    about = "What my Self values, fears and seeks: what decides which moments deserve a part of their own."

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        about = QLabel(
            "What my Self cares about decides what deserves a part of its own. One line for each; only you change it."
        )
        about.setWordWrap(True)
        self.layout_.addWidget(about)
        self.layout_.addWidget(self.error)
        self.boxes: dict[str, QPlainTextEdit] = {}
        for key in AFFECT:
            box = QPlainTextEdit()
            box.setObjectName(f"affect-{key}")
            box.setPlaceholderText("(nothing yet)")
            self.boxes[key] = box
            self.layout_.addWidget(QLabel(SAID[key] + ":"))
            self.layout_.addWidget(box)
        row = QHBoxLayout()
        self.save_button = QPushButton("Save")
        self.save_button.setObjectName("save-affect")
        self.save_button.clicked.connect(lambda: self.save())
        revert = QPushButton("Revert")
        revert.setObjectName("revert-affect")
        revert.clicked.connect(lambda: self.revert())
        row.addWidget(self.save_button)
        row.addWidget(revert)
        row.addStretch(1)
        self.layout_.addLayout(row)
        self.stored: dict = {k: [] for k in AFFECT}
        self._draft: dict | None = None  # a refused edit's lines, kept for the person to fix
        self._put: dict | None = None  # what this view last put in the boxes, as they read back

    def load(self):
        return self.companion.affect.profile()

    def show_data(self, profile: dict) -> None:
        # Lines typed and not saved outlive a reload (a reply ending, a forget in another program reload the view).
        if self._draft is None and self._put is not None and self.edited() != self._put:
            self._draft = self.edited()
        self.stored = profile
        shown = self._draft if self._draft is not None else profile
        for key, box in self.boxes.items():
            box.setPlainText("\n".join(shown.get(key, [])))
        self._put = self.edited()

    def edited(self) -> dict:
        return {key: lines(box.toPlainText()) for key, box in self.boxes.items()}

    def save(self) -> None:
        profile = self.edited()
        self._draft = profile

        def saved():
            if self._draft == profile:  # not a newer edit made while this one was saved
                self._draft = None

        self.change(lambda: self.companion.affect.set(profile, "user"), saved)

    def revert(self) -> None:
        self._draft = self._put = None
        self.say("")
        self.show_data(self.stored)
