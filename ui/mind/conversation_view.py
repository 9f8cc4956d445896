"""The conversation history: every message, newest first; any one can be forgotten."""

from PySide6.QtWidgets import QMessageBox

from .table_view import TableView


class ConversationView(TableView):
    title = "Conversation"
    columns = ("when", "who", "message")

    def __init__(self, companion, parent=None):
        super().__init__(companion, parent)
        self.action("Forget this message", self.forget)

    def load(self):
        return self.companion.messages.newest(500)

    def show_data(self, rows):
        self.fill(rows, lambda m: (m["created_at"][:16].replace("T", " "),
                                   m["speaker"] or ("you" if m["role"] == "user" else "I"), m["content"][:300]))

    def forget(self):
        m = self.selected()
        if m is None:
            return self.say("Select a message first.")
        if QMessageBox.question(self, "Forget", "Forget this message everywhere? This cannot be undone.") \
                == QMessageBox.Yes:
            self.change(lambda: self.companion.forget("message", m["id"]))
