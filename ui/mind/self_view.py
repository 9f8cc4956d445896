"""The self: origin and guardrails (read-only), persona, the human block and the self-model's sections."""

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

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
        self.growth = QLabel()
        self.growth.setWordWrap(True)
        col.addWidget(QLabel("<b>How I have changed</b> (the growth log: append-only)"))
        col.addWidget(self.growth)
        col.addStretch(1)
        scroll.setWidget(inner)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(scroll)

    def load(self):
        growth = self.companion.self_model.growth(50)
        return self.companion.self_model.read(), growth

    def show_data(self, data):
        floor, growth = data
        self.origin.setText(floor.origin)
        self.guardrails.setText(floor.guardrails)
        for name, editor in self.editors.items():
            editor.setPlainText(getattr(floor, name))
        self.growth.setText("\n".join(f"{g['at'][:10]}: {g['entry']}" for g in growth) or "Nothing yet.")

    def save(self, name: str) -> None:
        text = self.editors[name].toPlainText()
        self.change(lambda: self.companion.edit_self(name, text))
