"""The conversation history and the record of every edit, each edit undoable."""

from typing import TYPE_CHECKING, Any

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


class HistoryView(TableView[dict[str, Any]]):
    title = "Edits"
    columns = ("when", "who", "what", "change")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.action("Undo this edit", self.undo)

    def load(self):
        return self.companion.edits()

    def show_data(self, rows):
        self.fill(
            rows,
            lambda e: (
                e["at"][:19].replace("T", " "),
                "you" if e["actor"] == "user" else "I",
                f"{e['op']} {e['item_kind'].replace('_', ' ')} #{e['item_id']}",
                (e["after"] or "")[:120],
            ),
        )

    def undo(self):
        e = self.selected()
        if e is None:
            return self.say("Select an edit first.")
        self.change(lambda: self.companion.undo(e["id"]))
