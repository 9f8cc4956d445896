"""Memories: what is and was true, what superseded what, where each came from; edit, forget, forget a person.

"source" is how it was learned; "from" is its provenance: who said it and in which message."""

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QInputDialog, QMessageBox

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion

SOURCES = {"user_stated": "you said it", "inferred": "I inferred it", "untrusted": "outside text"}
# A forget took the message it was learned from (store/forget.py): the fact stays, for the person to judge.
SOURCE_FORGOTTEN = "; the message it was learned from was forgotten"


class MemoriesView(TableView[dict[str, Any]]):
    title = "Memories"
    kinds = ("memory",)
    about = (
        "What I know and remember: facts about you and what you prefer, each with when it was true and where "
        "I learned it."
    )
    appears = (
        "Memories appear as we talk: what you tell me about yourself, and what I learn from our conversations. "
        "You can also ask me to remember something."
    )
    columns = ("memory", "from", "how", "true since", "until", "replaced by", "matters", "last recalled")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.action("Edit…", self.edit)
        self.action("Forget", self.forget)
        self.action("Forget a person…", self.forget_person, always=True)

    def load(self):
        recalled = self.companion.last_recalled("memory")
        # each with "from": its provenance in words
        return [{**m, "recalled": recalled.get(m["id"], "")} for m in self.companion.memories.all()]

    def show_data(self, rows):
        self.fill(
            rows,
            lambda m: (
                m["content"],
                m["from"] + (SOURCE_FORGOTTEN if m["needs_regeneration"] else ""),
                SOURCES[m["source"]],
                m["valid_from"][:10],
                (m["valid_to"] or "")[:10],
                f"#{m['superseded_by']}" if m["superseded_by"] else "",
                f"{m['importance']:.2f}",
                m["recalled"],
            ),
        )

    def edit(self):
        m = self.selected()
        if m is None:
            return self.say("Select a memory first.")
        text, ok = QInputDialog.getMultiLineText(self, "Edit memory", "What it should say:", m["content"])
        if ok:
            self.change(lambda: self.companion.memories.edit(m["id"], text, "user"))

    def forget(self):
        m = self.selected()
        if m is None:
            return self.say("Select a memory first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget “{m['content']}” completely? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("memory", m["id"]))

    def forget_person(self):
        name, ok = QInputDialog.getText(self, "Forget a person", "Forget everything about (name):")
        if ok and name.strip():
            gone = []

            def forget():  # returns what went, so that the window takes the forgotten messages off the screen too
                gone.append(self.companion.forget_person(name.strip()))
                return gone[0]

            self.forgetting(forget, then=lambda: self.say(f"Forgot {gone[0].describe()}."))
