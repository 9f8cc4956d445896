"""Search across every conversation (Ctrl+K, issue 39): words typed, the messages that hold them listed newest
first with their conversation and a snippet; choosing one opens its conversation scrolled to the message, which is
highlighted for a moment (`show_found`). The search runs in a worker (the full-text index, knowledge/
conversations.py), a short pause after the last key, and an answer to words since changed is dropped."""

import html
import logging
import re
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from anima.errors import KnownError, SoulClosed

from .. import errors, tasks
from ..entries import Entries, Index

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.knowledge.conversations import Found

    from .transcript import Bubble, Transcript

PAUSE_MS = 120  # typed on within this: one search, for the words as they are then
HIGHLIGHT_MS = 2500
FOUND = Qt.ItemDataRole.UserRole  # an item's (session, message id)
SHOWN = Qt.ItemDataRole.UserRole + 1  # an item's (where: title · date, who, snippet, the words searched)
log = logging.getLogger(__name__)


def marked(snippet: str, words: str) -> str:
    """The snippet as HTML with each word searched for (or a word it begins: the index is stemmed) in bold."""
    terms = sorted({w for w in re.findall(r"\w+", words.lower()) if w}, key=len, reverse=True)
    if not terms:
        return html.escape(snippet)
    found = re.compile(r"\b(" + "|".join(re.escape(t) for t in terms) + r")\w*", re.IGNORECASE)
    out, at = [], 0
    for m in found.finditer(snippet):
        out += [html.escape(snippet[at : m.start()]), "<b>", html.escape(m.group(0)), "</b>"]
        at = m.end()
    return "".join([*out, html.escape(snippet[at:])])


def _result(index: "Index", text: str, muted: str) -> str:
    """Where it was said (small, muted), then who said it and the words around the match, the match in bold."""
    where, who, snippet, words = index.data(SHOWN)
    return (
        f'<div style="color:{muted}; font-size:small">{html.escape(where)}</div>'
        f'<div style="color:{text}"><span style="color:{muted}">{html.escape(who)}:</span> '
        f"{marked(snippet, words)}</div>"
    )


class SearchPopup(QDialog):
    chosen = Signal(str, int)  # the session and the message chosen
    shown_results = Signal()  # results for the words typed are listed (the bench times search to this)

    def __init__(self, companion: Callable[[], "Companion | None"], parent: QWidget | None = None):
        super().__init__(parent)
        self.companion = companion
        self.setWindowTitle("Search all conversations")
        self.resize(560, 420)
        self.box = QLineEdit()
        self.box.setPlaceholderText("Search every conversation…")
        self.box.returnPressed.connect(self._choose_current)
        self.results = QListWidget()
        self.results.setObjectName("search-results")
        self.results.setItemDelegate(Entries(self.results, _result))
        self.results.setWordWrap(True)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.itemActivated.connect(self._choose)
        self.results.itemClicked.connect(self._choose)
        self.said = QLabel("")
        self.said.setStyleSheet("color: palette(placeholder-text);")
        col = QVBoxLayout(self)
        col.addWidget(self.box)
        col.addWidget(self.said)
        col.addWidget(self.results)
        self._pause = QTimer(self, singleShot=True, interval=PAUSE_MS)
        self._pause.timeout.connect(self.search)
        self.box.textChanged.connect(lambda _: self._pause.start())
        self.searching = False

    def open_search(self) -> None:
        self.show()
        self.activateWindow()
        self.box.setFocus()
        self.box.selectAll()

    def search(self) -> None:
        """Search for the words in the box now, off the UI thread."""
        companion, words = self.companion(), self.box.text()
        if companion is None:
            return
        if not words.strip():
            self.results.clear()
            self.said.setText("")
            return
        self.searching = True

        def find() -> tuple[list["Found"], dict[str, str], str]:
            found = companion.conversations.search(words)
            titles = {}
            for session in {f.session for f in found}:
                try:
                    titles[session] = companion.conversations.get(session).title
                except KnownError:  # forgotten between the two reads
                    titles[session] = "(forgotten)"
            return found, titles, companion.name

        def found(result) -> None:
            if words != self.box.text() or companion is not self.companion():
                return  # typed on meanwhile: that search shows
            self.searching = False
            self.show_found(*result)

        tasks.run(find, found, self._failed, self)

    def show_found(self, found: list["Found"], titles: dict[str, str], name: str) -> None:
        self.results.clear()
        for f in found:
            when = datetime.fromisoformat(f.at).astimezone().strftime("%d %b %Y")
            who = "You" if f.role == "user" else name
            where = f"{titles.get(f.session, '')} · {when}"
            item = QListWidgetItem(f"{where}\n{who}: {f.snippet}")  # read aloud, and what tests read
            item.setData(FOUND, (f.session, f.message_id))
            item.setData(SHOWN, (where, who, f.snippet, self.box.text()))
            self.results.addItem(item)
        self.said.setText(
            "Nothing found." if not found else f"{len(found)} messages" if len(found) > 1 else "1 message"
        )
        if found:
            self.results.setCurrentRow(0)
        self.shown_results.emit()

    def _choose_current(self) -> None:
        if (item := self.results.currentItem()) is not None:
            self._choose(item)

    def _choose(self, item: QListWidgetItem) -> None:
        session, message_id = item.data(FOUND)
        self.hide()
        self.chosen.emit(session, message_id)

    def _failed(self, error: Exception) -> None:
        self.searching = False
        if isinstance(error, SoulClosed):
            log.info("search stopped: the soul was closed")
            return
        errors.show(self, error)


def show_found(transcript: "Transcript", message_id: int) -> "Bubble | None":
    """Scroll the transcript to the bubble holding `message_id` (the person's words, the companion's, or a text sent
    with them) and highlight it for a moment; None when it is not shown."""
    bubble = next(
        (b for b in transcript.bubbles if message_id in (b.message_id, *(box.message_id for box in b.outside))), None
    )
    if bubble is None:
        return None
    was = bubble.styleSheet()
    bubble.setProperty("found", True)
    bubble.setStyleSheet(was + "\nBubble, QFrame { background: rgba(255, 214, 10, 0.35); }")

    def scroll() -> None:
        transcript._anchor = None  # the transcript pins the view to the bottom as pages load: the reader is here now
        transcript.ensureWidgetVisible(bubble, 0, 40)

    scroll()
    QTimer.singleShot(0, transcript, scroll)  # again once the page just shown is laid out
    QTimer.singleShot(100, transcript, scroll)

    def fade() -> None:
        bubble.setProperty("found", False)
        bubble.setStyleSheet(was)

    QTimer.singleShot(HIGHLIGHT_MS, bubble, fade)
    return bubble
