"""World cards: the people, places, situations, projects, platforms and threads of your life."""

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QMessageBox, QPlainTextEdit

from anima.knowledge.world import CARD_KINDS

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


class CardDialog(QDialog):
    def __init__(self, card: dict | None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("World card")
        form = QFormLayout(self)
        self.kind = QComboBox()
        self.kind.addItems(CARD_KINDS)
        self.title_ = QLineEdit()
        self.body = QPlainTextEdit()
        self.keywords = QLineEdit()
        self.keywords.setPlaceholderText("comma-separated")
        if card:
            self.kind.setCurrentText(card["kind"])
            self.title_.setText(card["title"])
            self.body.setPlainText(card["body"])
            self.keywords.setText(", ".join(card["keywords"]))
        form.addRow("About a", self.kind)
        form.addRow("Title", self.title_)
        form.addRow("Card", self.body)
        form.addRow("Keywords", self.keywords)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> dict:
        return {
            "kind": self.kind.currentText(),
            "title": self.title_.text(),
            "body": self.body.toPlainText(),
            "keywords": [k.strip() for k in self.keywords.text().split(",") if k.strip()],
        }


class WorldView(TableView[dict[str, Any]]):
    title = "World"
    kinds = ("world_card",)
    headline = 2
    about = "Cards about the people, places and projects in your life, woken when a conversation mentions them."
    appears = "A world card appears when you add one (New card…), import a lorebook, or I learn of someone who matters."
    columns = ("about", "title", "card", "keywords", "woken")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.action("New card…", self.new, always=True)
        self.action("Edit card…", self.edit)
        self.action("Turn on / off", self.toggle)
        self.action("Delete card", self.delete)

    def load(self):
        return self.companion.world.all()

    def show_data(self, rows):
        self.fill(
            rows,
            lambda c: (
                c["kind"],
                c["title"],
                c["body"],
                ", ".join(c["keywords"]),
                "by its keys" if c["enabled"] else "off: never woken",
            ),
        )

    def new(self):
        d = CardDialog(None, self)
        if d.exec():
            v = d.values()
            self.change(lambda: self.companion.world.create(v["kind"], v["title"], v["body"], v["keywords"]))

    def edit(self):
        card = self.selected()
        if card is None:
            return self.say("Select a card first.")
        d = CardDialog(card, self)
        if d.exec():
            v = d.values()
            self.change(lambda: self.companion.world.update(card["id"], **v))

    def toggle(self):
        card = self.selected()
        if card is None:
            return self.say("Select a card first.")
        self.change(lambda: self.companion.world.set_enabled(card["id"], not card["enabled"]))

    def delete(self):
        card = self.selected()
        if card is None:
            return self.say("Select a card first.")
        if (
            QMessageBox.question(self, "Delete", f"Delete the card “{card['title']}”?")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("world_card", card["id"]))
