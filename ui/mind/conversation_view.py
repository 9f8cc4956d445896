"""The conversation history: every message, newest first, a page at a time back to the first; a search finds
messages by their words, and "#123" goes to message 123 (what the other views name where a thing came from, "you
said it, message #123"); any one can be forgotten."""

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QLabel, QLineEdit, QMessageBox

from .. import tasks
from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.knowledge.messages import Messages


@dataclass(frozen=True)
class Listing:
    """What the view lists, read off the UI thread: `rows` newest first, and whether older ones are left."""

    words: str  # the search it answers ("": the conversation)
    rows: list[dict]
    more: bool
    after: int | None = None  # a page older than this message, to add below what is shown; None: all of it


# "#123", "# 123": a message by its number. Its words hold no "#" as a search (the index drops it). Any number of
# digits: one past SQLite's largest id is no message (said so), not a search for its digits as words.
_NUMBER = re.compile(r"#\s*(\d+)")
_LARGEST_ID = 2**63 - 1


def numbered(words: str) -> int | None:
    """The message a search goes to by number, or None for a search by words."""
    m = _NUMBER.fullmatch(words)
    return int(m.group(1)) if m else None


def read(
    messages: "Messages", words: str, page: int, *, after: int | None = None, down_to: int | None = None
) -> Listing:
    """On a worker thread: the page older than message `after` (the newest page, without it), or, with `down_to`,
    everything down to that message again (what is shown, read anew after a change). For "#123": the
    conversation from message 123 back."""
    number = numbered(words)

    def fetch(limit, before=None, down_to=None):
        if number is not None:
            top = min(number + 1, _LARGEST_ID)
            return messages.newest(limit, before=top if before is None else min(before, top), down_to=down_to)
        if words:
            return messages.find(words, limit, before=before, down_to=down_to)
        return messages.newest(limit, before=before, down_to=down_to)

    if down_to is not None:
        return Listing(words, fetch(None, down_to=down_to), bool(fetch(1, before=down_to)))
    rows = fetch(page + 1, before=after)
    return Listing(words, rows[:page], len(rows) > page, after)


class ConversationView(TableView[dict[str, Any]]):
    title = "Conversation"
    kinds = ("message",)
    headline = 2
    about = "Everything we have said to each other, newest first. Search it, go to a message, or forget one."
    appears = "Messages appear as we talk."
    columns = ("when", "who", "message")
    page = 200

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(
            "Find messages by their words, or go to one by its number (#123), then press Enter"
        )
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(self.find_words)

        def cleared(text: str) -> None:  # the conversation again
            if not text.strip():
                self.find_words()

        self.search.textChanged.connect(cleared)
        self.layout_.insertWidget(0, self.search)
        self.note = QLabel()
        self.note.setObjectName("note")
        self.layout_.insertWidget(self.layout_.indexOf(self.pages), self.note)
        self.action("Forget this message", self.forget)
        self.older = self.action("Show older", self.show_older, always=True)
        self.older.setEnabled(False)
        self.table.doubleClicked.connect(lambda index: self.open_message(self.rows[index.row()]["id"]))
        self.words = ""  # what is listed: the conversation (""), or the messages that hold these words
        self.went_back = False  # older pages were added: a reload reads down to the oldest shown
        self.more = False

    def go_to(self, message_id: int) -> None:
        """List the conversation from one message back, that message selected (as searching "#123" does)."""
        self.search.setText(f"#{message_id}")
        self.find_words()

    def open_message(self, message_id: int) -> None:
        """A message double-clicked: the window shows it in the conversation, where it can."""
        show = getattr(self.window(), "show_message", None)
        if callable(show):
            show(message_id)

    def find_words(self) -> None:  # not `find`: that is QWidget.find, which it hid
        """List the messages holding the search's words (the conversation, when it is empty), from the newest."""
        words = self.search.text().strip()
        if words == self.words:
            return
        self.words, self.went_back = words, False
        self.older.setEnabled(False)  # until the listing for these words is shown: older than what it shows
        self.refresh()

    def refresh(self) -> None:
        words, page = self.words, self.page
        down_to = self.rows[-1]["id"] if self.went_back and self.rows else None
        tasks.run(lambda: read(self.companion.messages, words, page, down_to=down_to), self._show, self._failed, self)

    def show_older(self) -> None:
        if not (self.rows and self.older.isEnabled()):  # nothing older, or a listing on its way
            return
        words, page, after = self.words, self.page, self.rows[-1]["id"]
        self.older.setEnabled(False)
        tasks.run(lambda: read(self.companion.messages, words, page, after=after), self._show, self._failed, self)

    def show_data(self, listing: Listing) -> None:
        if listing.words != self.words:
            return  # read for a search since changed: the current one's listing is on its way
        if listing.after is None:
            self.fill(listing.rows, self.cells)
            if self.rows and self.rows[0]["id"] == numbered(self.words):
                self.table.selectRow(0)  # the message gone to, ready to read or forget
        elif self.rows and self.rows[-1]["id"] == listing.after:  # still the bottom of what is shown: add below
            self.went_back = True
            self.extend(listing.rows, self.cells)
        else:
            return  # the list changed meanwhile (a forget reloaded it): a later press asks again
        self.more = listing.more
        self.older.setEnabled(listing.more)
        self.note.setText(self.summary())

    def fill(self, rows, cells) -> None:
        super().fill(rows, cells)
        if self.words:  # a search that found nothing says so in its note: the conversation is not empty
            self.pages.setCurrentWidget(self.table)

    def summary(self) -> str:
        n, older = len(self.rows), " Older ones follow." if self.more else ""
        number = numbered(self.words)
        if number is not None:
            if n and self.rows[0]["id"] == number:
                return f"Message #{number}, and the ones before it.{older}"
            return f"There is no message #{number} (it was forgotten, or not yet written)" + (
                f"; the ones before it follow.{older}" if n else ", and none before it."
            )
        if self.words:
            # "#7 boat" is a search for the words "7" and "boat" (the index drops the "#"): say how to go to #7.
            number_typed = _NUMBER.search(self.words)
            hint = (
                f" (To go to message #{number_typed.group(1)}, search “#{number_typed.group(1)}” alone.)"
                if number_typed
                else ""
            )
            if not n:
                return f"No message holds every word of “{self.words}”.{hint}"
            return f"{n} message{'s' * (n != 1)} holding “{self.words}”, newest first.{older}{hint}"
        if not n:
            return "No messages yet."
        return f"The newest {n} messages.{older}" if self.more else f"All {n} messages, newest first."

    @staticmethod
    def cells(m: dict) -> tuple:
        # Its number leads the time: the other views name a message so ("message #123").
        return (
            f"#{m['id']}  {m['created_at'][:16].replace('T', ' ')}",
            m["speaker"] or ("you" if m["role"] == "user" else "I"),
            m["content"][:300],
        )

    def forget(self):
        m = self.selected()
        if m is None:
            return self.say("Select a message first.")
        words = " ".join(m["content"].split())
        words = words[:120] + "…" * (len(words) > 120)
        if (
            QMessageBox.question(
                self, "Forget", f"Forget message #{m['id']} (“{words}”) everywhere? This cannot be undone."
            )
            == QMessageBox.StandardButton.Yes
        ):
            gone = []

            def forget():  # what went, and what it marked, said once it is done
                gone.append(self.companion.forget("message", m["id"]))
                return gone[0]

            self.forgetting(forget, then=lambda: self.say(f"Forgot {gone[0].describe()}."))
