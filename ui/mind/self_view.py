"""The self: origin and guardrails (read-only), persona, the human block and the self-model's sections."""

from PySide6.QtWidgets import (QFormLayout, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QSpinBox,
                               QVBoxLayout, QWidget)

from anima.mind.selfmodel import CAPS

from .base import MindView

EDITABLE = (("persona", "My persona"), ("human", "What I know about you"), ("identity", "Who I am with you"),
            ("intentions", "What I am trying to do"), ("working_memory", "What I hold for a few days"),
            ("inner_state", "What is on my mind"))


class SelfView(MindView):
    title = "Self"

    def __init__(self, companion, parent=None):
        super().__init__(companion, parent)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        inner = QWidget()
        col = QVBoxLayout(inner)
        self.origin = QLabel()
        self.origin.setWordWrap(True)
        self.guardrails = QLabel()
        self.guardrails.setWordWrap(True)
        col.addWidget(QLabel("<b>Origin</b> (ships with Anima; read-only)"))
        col.addWidget(self.origin)
        col.addWidget(QLabel("<b>Guardrails</b> (read-only)"))
        col.addWidget(self.guardrails)
        self.editors: dict[str, QPlainTextEdit] = {}
        for name, title in EDITABLE:
            col.addWidget(QLabel(f"<b>{title}</b> (at most {CAPS[name]} characters)"))
            editor = QPlainTextEdit()
            editor.setObjectName(f"self-{name}")
            editor.setMaximumHeight(90)
            self.editors[name] = editor
            col.addWidget(editor)
            save = QPushButton("Save")
            save.setObjectName(f"save-{name}")
            save.clicked.connect(lambda _=False, n=name: self.save(n))
            col.addWidget(save)
        # How I have changed is the Inner life tab's growth log; here, how often I reflect (anima/reflect/rhythm.py).
        col.addWidget(QLabel("<b>How I reflect</b>"))
        rhythm = QFormLayout()
        self.every = QSpinBox(objectName="reflect-every", minimum=0, maximum=1000)
        self.every.setSpecialValueText("never")
        rhythm.addRow("Quick reflection after every … turns", self.every)
        self.earned_after = QSpinBox(objectName="earned-after", minimum=0, maximum=1000)
        rhythm.addRow("Who I am may change after … conversations that mattered", self.earned_after)
        col.addLayout(rhythm)
        save = QPushButton("Save")
        save.setObjectName("save-rhythm")
        save.clicked.connect(self.save_rhythm)
        col.addWidget(save)
        col.addStretch(1)
        scroll.setWidget(inner)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(scroll)
        self._drafts: dict[str, str] = {}  # a refused edit's text, by section, kept for the person to fix

    def load(self):
        return self.companion.self_model.read(), self.companion.rhythm.read()

    def show_data(self, data):
        floor, rhythm = data
        self.every.setValue(rhythm.every)
        self.earned_after.setValue(rhythm.earned_after)
        self.origin.setText(floor.origin)
        self.guardrails.setText(floor.guardrails)
        for name, editor in self.editors.items():
            editor.setPlainText(self._drafts.get(name, getattr(floor, name)))

    def save_rhythm(self) -> None:
        every, earned_after = self.every.value(), self.earned_after.value()
        self.change(lambda: self.companion.rhythm.set(every=every, earned_after=earned_after))

    def save(self, name: str) -> None:
        text = self.editors[name].toPlainText()
        self._drafts[name] = text  # until it is saved: a refused edit reloads the view, and must not lose it

        def saved():
            if self._drafts.get(name) == text:  # not a newer edit made while this one was saved
                del self._drafts[name]
        self.change(lambda: self.companion.edit_self(name, text), saved)
