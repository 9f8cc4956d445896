"""The conversations sidebar (issue 39): one soul, many conversations, at the left of the chat.

Newest first, grouped Today / Yesterday / Previous 7 days / Earlier, the live one selected. New (the button,
Ctrl+N), rename (F2 or the context menu, in place), delete (the Delete key or the context menu, after the person
confirms that it is forgotten for good: the soul's absolute forgetting, Companion.forget_conversation), and a
click opens one. Every read and write of the soul runs in a worker (ui/tasks.py); the window shows the
conversation it switched to (`show`), and says it is busy while a reply is under way (`busy`).
"""

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from anima.errors import SoulClosed

from .. import errors, tasks, theme

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.knowledge.conversations import Listed

GROUPS = ("Today", "Yesterday", "Previous 7 days", "Earlier")
LISTED = 200  # conversations shown: the newest; older ones are found by search
SESSION = Qt.ItemDataRole.UserRole  # an item's session (None: a group's heading)
log = logging.getLogger(__name__)


def group(updated_at: str, today: date) -> str:
    """Which group a conversation last spoken in at `updated_at` (ISO, stored in UTC) falls in, by the local day."""
    at = datetime.fromisoformat(updated_at)
    days = (today - (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone().date()).days
    if days <= 0:
        return GROUPS[0]
    if days == 1:
        return GROUPS[1]
    return GROUPS[2] if days <= 7 else GROUPS[3]


class _List(QListWidget):
    delete_pressed = Signal()

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Delete:
            self.delete_pressed.emit()
            return
        super().keyPressEvent(event)


class Sidebar(QWidget):
    def __init__(
        self,
        companion: Callable[[], "Companion | None"],
        show: Callable[[str, int | None], None],
        busy: Callable[[], bool],
        parent: QWidget | None = None,
    ):
        """`companion()`: the one shown. `show(session, message_id)`: the window shows that conversation (the
        companion has switched to it), scrolled to `message_id` when it is given. `busy()`: a reply is under way
        or messages wait to be sent: no switching meanwhile."""
        super().__init__(parent)
        self.companion, self.show_conversation, self.busy = companion, show, busy
        self.current: str | None = None  # the live conversation's session
        self.listed: dict[str, Listed] = {}
        self._filling = False
        self._titling: set[str] = set()  # sessions the model was asked to title (once each)
        self.new_button = QPushButton("New conversation")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N); your companion still remembers the others")
        self.new_button.clicked.connect(self.new_conversation)
        self.list = _List()
        self.list.setObjectName("conversations")
        self.list.setAccessibleName("Conversations")
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)  # F2
        # A long title is cut with "…" at the sidebar's width, never scrolled sideways (its full title is its tip).
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setWordWrap(False)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.itemClicked.connect(self._clicked)
        self.list.itemActivated.connect(self._clicked)
        self.list.itemChanged.connect(self._edited)
        self.list.delete_pressed.connect(self.delete_selected)
        col = QVBoxLayout(self)
        col.setContentsMargins(6, 6, 0, 6)
        col.setSpacing(6)
        # Before the first message there is nothing to list: say what will be (issue 39's empty states).
        self.empty = QLabel("Your conversations will be listed here, newest first.")
        theme.tone(self.empty, "muted")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.empty.setContentsMargins(8, 8, 8, 8)
        col.addWidget(self.new_button)
        col.addWidget(self.empty)
        col.addWidget(self.list)
        self.empty.hide()
        self.setMinimumWidth(180)

    # ---- what is listed ------------------------------------------------------------

    def refresh(self) -> None:
        """Read the conversations again, off the UI thread, and list them."""
        companion = self.companion()
        if companion is None:
            return

        def read() -> tuple[list["Listed"], str]:
            return companion.conversations.listed(LISTED), companion.session

        def read_done(result) -> None:
            if companion is self.companion():  # not a soul swapped out meanwhile
                self.show_listed(*result)

        tasks.run(read, read_done, self._failed, self)

    def show_listed(self, listed: list["Listed"], current: str, today: date | None = None) -> None:
        today = today or date.today()
        self._filling = True
        try:
            self.list.clear()
            self.listed = {c.session: c for c in listed}
            self.current = current
            heading = None
            for c in listed:
                if (g := group(c.updated_at, today)) != heading:
                    heading = g
                    head = QListWidgetItem(g)
                    head.setFlags(Qt.ItemFlag.NoItemFlags)
                    font = head.font()
                    font.setBold(True)
                    head.setFont(font)
                    self.list.addItem(head)
                item = QListWidgetItem(c.title)
                item.setData(SESSION, c.session)
                item.setToolTip(f"{c.title}\n{c.messages} messages")
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.list.addItem(item)
            self.select(current)
            self.empty.setVisible(not listed)
        finally:
            self._filling = False

    def select(self, session: str | None) -> None:
        self.current = session
        item = self._item(session)
        self.list.setCurrentItem(item) if item is not None else self.list.clearSelection()

    def _item(self, session: str | None) -> QListWidgetItem | None:
        for i in range(self.list.count()):
            if (item := self.list.item(i)).data(SESSION) == session and session is not None:
                return item
        return None

    def groups(self) -> dict[str, list[str]]:
        """The titles listed under each group, in order (what a person reads)."""
        shown: dict[str, list[str]] = {}
        heading = ""
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(SESSION) is None:
                heading = item.text()
                shown[heading] = []
            else:
                shown[heading].append(item.text())
        return shown

    def selected(self) -> str | None:
        item = self.list.currentItem()
        return item.data(SESSION) if item is not None else None

    def turn_ended(self) -> None:
        """A turn ended: the list follows it, and a conversation's first exchange is titled by the model (when the
        companion titles so), once per conversation."""
        companion = self.companion()
        if companion is None:
            return
        session = companion.session

        def read() -> tuple[list["Listed"], str]:
            return companion.conversations.listed(LISTED), session

        def read_done(result) -> None:
            if companion is not self.companion():
                return
            self.show_listed(*result)
            listed = self.listed.get(session)
            if (
                companion.titles_by_model
                and listed is not None
                and not listed.titled
                and listed.messages >= 2
                and session not in self._titling
            ):
                self._titling.add(session)
                tasks.run(lambda: companion.title_conversation(session), self._titled, self._failed, self)

        tasks.run(read, read_done, self._failed, self)

    def _titled(self, title: str | None) -> None:
        if title is not None:
            self.refresh()

    # ---- new, open ---------------------------------------------------------------------

    def _refused_while_busy(self) -> bool:
        if self.busy():
            window = self.window()
            status = getattr(window, "statusBar", None)
            if status is not None:
                status().showMessage("Wait for the reply to finish, then switch conversations.", 4000)
            return True
        return False

    def new_conversation(self) -> None:
        """A new conversation: the transcript empties; it is listed once it has a message."""
        companion = self.companion()
        if companion is None or self._refused_while_busy():
            return

        def started(session: str) -> None:
            if companion is self.companion():
                self.select(None)
                self.current = session
                self.show_conversation(session, None)

        tasks.run(companion.new_conversation, started, self._failed, self)

    def _clicked(self, item: QListWidgetItem) -> None:
        session = item.data(SESSION)
        if session is not None and session != self.current:
            self.open(session)

    def open(self, session: str, message_id: int | None = None) -> None:
        """Switch to a conversation (its newest turns become the live transcript) and show it, at `message_id`."""
        companion = self.companion()
        if companion is None or self._refused_while_busy():
            self.select(self.current)
            return

        def switch() -> None:
            if companion.session != session:
                companion.open_conversation(session)

        def switched(_) -> None:
            if companion is self.companion():
                self.select(session)
                self.show_conversation(session, message_id)

        tasks.run(switch, switched, self._failed, self)

    # ---- rename, delete -------------------------------------------------------------------

    def rename_selected(self) -> None:
        """F2 and the context menu: the title is edited in place."""
        item = self.list.currentItem()
        if item is not None and item.data(SESSION) is not None:
            self.list.editItem(item)

    def _edited(self, item: QListWidgetItem) -> None:
        session = item.data(SESSION)
        was = self.listed.get(session)
        if self._filling or session is None or was is None or item.text() == was.title:
            return
        companion = self.companion()
        if companion is None:
            return
        title = item.text()
        tasks.run(lambda: companion.conversations.rename(session, title), lambda _: self.refresh(), self._failed, self)

    def delete_selected(self) -> None:
        session = self.selected()
        if session is not None:
            self.delete(session)

    def delete(self, session: str) -> None:
        """Forget a conversation for good, once the person says so."""
        companion, listed = self.companion(), self.listed.get(session)
        if companion is None or listed is None:
            return
        if session == self.current and self._refused_while_busy():
            return
        answer = QMessageBox.question(
            self,
            "Forget this conversation?",
            f"Forget “{listed.title}” for good? Its {listed.messages} messages are forgotten absolutely: your "
            "companion will not remember them, and they cannot be brought back.",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer != QMessageBox.StandardButton.Discard:
            return

        def forgotten(_) -> None:
            if companion is not self.companion():
                return
            if session == self.current:  # the live one started anew: an empty transcript
                self.show_conversation(companion.session, None)
            self.refresh()

        tasks.run(lambda: companion.forget_conversation(session), forgotten, self._failed, self)

    def _menu(self, at) -> None:
        item = self.list.itemAt(at)
        if item is None or item.data(SESSION) is None:
            return
        self.list.setCurrentItem(item)
        menu = QMenu(self)
        menu.addAction("Rename", self.rename_selected)
        menu.addAction("Delete (forget for good)…", lambda: self.delete(item.data(SESSION)))
        menu.popup(self.list.viewport().mapToGlobal(at))

    def _failed(self, error: Exception) -> None:
        if isinstance(error, SoulClosed):  # the window is closing, or an import swapped the soul
            log.info("the conversations were not read: the soul was closed")
            return
        self.refresh()  # a rename refused, a conversation forgotten elsewhere: list what is there
        errors.show(self, error)
