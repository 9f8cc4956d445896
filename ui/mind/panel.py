"""The Open Mind: one place to read a mind. A list of what it holds on the left (Self, About you, Memories...,
each a view of its own: ui/mind/__init__.py VIEWS) and the one chosen on the right, the same layout for every
kind; above them, a search across the whole mind (Ctrl+Shift+F, the window's action) whose results open the item
in its view.

It was tabs, a "Show:" drop-down inside some, and sub-tabs inside those; at 900 px only two tabs could be seen."""

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QStackedWidget, QVBoxLayout, QWidget

from . import VIEWS
from .base import MindView
from .conversation_view import ConversationView
from .proposals_view import ProposalsView
from .search_view import SearchResults

if TYPE_CHECKING:
    from anima.companion import Companion

PANE_MIN = 300  # px: the detail pane at its narrowest (a card's text still reads at ~40 characters)
NAV_PADDING = 28  # px beside an entry's text: the list's frame, the item's margins and a scrollbar-free edge
WAITING_MOST = " (99)"  # the widest count "Waiting for you" shows


class OpenMind(QWidget):
    forgotten = Signal(object)  # something was forgotten in one of the views: what went (anima's Forgotten)

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(parent)
        self.setObjectName("open-mind")
        self.search = QLineEdit()
        self.search.setObjectName("mind-search")
        self.search.setPlaceholderText("Search everything in my mind (Ctrl+Shift+F)")
        self.search.setClearButtonEnabled(True)
        self.nav = QListWidget()
        self.nav.setObjectName("mind-nav")
        self.nav.setAccessibleName("What the mind holds")
        self.nav.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.nav.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.nav.setSpacing(1)
        self.stack = QStackedWidget()
        # A stack is as wide as its widest page wants (463 px: a view's row of buttons), hidden pages too: at 900 px
        # the chat beside it was left 260 px. Each page is laid out to what it is given; its buttons elide.
        self.stack.setMinimumWidth(PANE_MIN)
        self.stack.setMinimumHeight(PANE_MIN)  # the same of its height: the window stays within a 600 px screen
        self.views: dict[str, MindView] = {}
        for cls in VIEWS:
            view = cls(companion)
            self.views[cls.title] = view
            self.stack.addWidget(view)
            self.nav.addItem(cls.title)
            item = self.nav.item(self.nav.count() - 1)
            item.setToolTip(cls.about or cls.title)
            view.forgotten.connect(self.forgotten)
        self._fit_nav()
        self.results = SearchResults(companion)
        self.results.opened.connect(self.open_found)
        self.stack.addWidget(self.results)
        self.search.returnPressed.connect(self.search_now)
        self.search.textChanged.connect(lambda text: None if text.strip() else self._left_search())
        proposals = self.views[ProposalsView.title]
        assert isinstance(proposals, ProposalsView)
        self.proposals = proposals
        self.nav.currentRowChanged.connect(self._chosen)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(6)
        body.addWidget(self.nav)
        body.addWidget(self.stack, 1)
        col = QVBoxLayout(self)
        col.setContentsMargins(6, 6, 6, 6)
        col.addWidget(self.search)
        col.addLayout(body, 1)
        self.nav.setCurrentRow(0)

    def _fit_nav(self) -> None:
        """The list as wide as its longest entry in the font in use (a fixed 132 px cut "What I care about" to
        "What I care ab…"), again when the font changes (View ▸ Zoom, a theme)."""
        metrics = self.nav.fontMetrics()
        widest = max(
            metrics.horizontalAdvance(cls.title + (WAITING_MOST if cls is ProposalsView else "")) for cls in VIEWS
        )
        self.nav.setFixedWidth(widest + NAV_PADDING)
        for row in range(self.nav.count()):
            self.nav.item(row).setSizeHint(QSize(widest + NAV_PADDING - 8, metrics.height() + 12))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_nav()
        super().changeEvent(event)

    # ---- which view shows -------------------------------------------------------

    def _chosen(self, row: int) -> None:
        if 0 <= row < len(VIEWS):
            self.stack.setCurrentWidget(self.views[VIEWS[row].title])
            self.current().refresh()

    def current(self) -> MindView:
        shown = self.stack.currentWidget()
        assert isinstance(shown, MindView)
        return shown

    def refresh(self) -> None:
        self.current().refresh()

    def open_view(self, title: str) -> MindView:
        """Bring a view forward by its title; returns it."""
        view = self.views[title]
        row = [cls.title for cls in VIEWS].index(title)
        if self.nav.currentRow() != row:
            self.nav.setCurrentRow(row)  # shows it, and loads it
        else:
            self.stack.setCurrentWidget(view)
        return view

    def entry(self, title: str) -> QListWidgetItem:
        """A view's entry in the list."""
        return self.nav.item([cls.title for cls in VIEWS].index(title))

    def note_pending(self, count: int) -> None:
        """The list says how many proposed changes wait for the person."""
        self.entry(ProposalsView.title).setText(ProposalsView.title + (f" ({count})" if count else ""))

    def show_message(self, message_id: int) -> None:
        """A message in the conversation: the window scrolls its transcript to it where it can; otherwise the
        Conversation view goes to it."""
        show = getattr(self.window(), "show_message", None)
        if callable(show):
            show(message_id)
            return
        view = self.open_view(ConversationView.title)
        assert isinstance(view, ConversationView)
        view.go_to(message_id)

    # ---- search across the mind -------------------------------------------------

    def focus_search(self) -> None:
        self.show()
        self.search.setFocus()
        self.search.selectAll()

    def search_now(self) -> None:
        words = self.search.text().strip()
        if not words:
            return
        self.nav.clearSelection()
        self.stack.setCurrentWidget(self.results)
        self.results.search(words)

    def _left_search(self) -> None:
        """The search emptied: back to the view chosen in the list."""
        if self.stack.currentWidget() is self.results:
            self._chosen(max(self.nav.currentRow(), 0))

    def open_found(self, kind: str, item_id: int, place: str) -> None:
        """Open a search result in its view, selected; a message in the conversation, where the window can."""
        if kind == "message":
            return self.show_message(item_id)
        for cls in VIEWS:
            if kind in cls.kinds and (not place or cls.places is None or place in cls.places):
                view = self.open_view(cls.title)
                view.reveal(kind, item_id, place)
                return
