"""The conversation history and the record of every edit, each edit undoable."""

import json
from typing import TYPE_CHECKING, Any

from anima.store.kinds import KINDS

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


OPS = {"create": "made", "update": "changed", "delete": "removed"}
QUIET = {"created_at", "updated_at", "needs_regeneration", "loads", "uses", "last_used_at"}  # bookkeeping
SHOWN_CHARS = 200


def what(e: dict) -> str:
    """ "you changed memory #3", "I made episode #2"."""
    kind = KINDS[e["item_kind"]].title if e["item_kind"] in KINDS else e["item_kind"].replace("_", " ")
    return f"{'you' if e['actor'] == 'user' else 'I'} {OPS.get(e['op'], e['op'])} {kind} #{e['item_id']}"


def change(e: dict) -> str:
    """What an edit made an item say, in words: its text, or its fields as "name: value" (no JSON)."""
    try:
        after = json.loads(e["after"]) if e["after"] else {}
    except ValueError:
        return str(e["after"])[:SHOWN_CHARS]
    if not isinstance(after, dict):
        return str(after)[:SHOWN_CHARS]
    text = next((str(after[k]) for k in ("content", "summary", "entry", "pattern", "body") if after.get(k)), None)
    if text is None:
        text = "; ".join(
            f"{k.replace('_', ' ')}: {v}" for k, v in after.items() if k not in QUIET and v not in (None, "")
        )
    return " ".join(text.split())[:SHOWN_CHARS]


class HistoryView(TableView[dict[str, Any]]):
    title = "History of edits"
    headline = 2
    about = "Every change to my mind, by you or by me, newest first. Any edit can be undone."
    appears = "An edit appears here each time you or I change something in my mind."
    columns = ("when", "what", "it now says")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.action("Undo this edit", self.undo)

    def load(self):
        return self.companion.edits()

    def show_data(self, rows):
        self.fill(rows, lambda e: (e["at"][:16].replace("T", " "), what(e), change(e) or "(emptied)"))

    def undo(self):
        e = self.selected()
        if e is None:
            return self.say("Select an edit first.")
        self.change(lambda: self.companion.undo(e["id"]))
