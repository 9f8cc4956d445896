"""What a search across the whole mind found (Companion.search_mind), grouped by kind, each result saying how it
was found (by its words, by its meaning); opening one (double-click, Enter) opens the item in its view."""

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from anima.errors import KnownError
from anima.store.kinds import KINDS
from anima.store.sections import section

from .. import errors, tasks
from . import cards

if TYPE_CHECKING:
    from anima.companion import Companion

SHOWN_CHARS = 220  # of a result's text: its view shows the whole
FOUND = Qt.ItemDataRole.UserRole  # a result's (kind, id, place); a heading has none
HOW = Qt.ItemDataRole.UserRole + 1  # how a result was found, and when it is from


class ResultDelegate(QStyledItemDelegate):
    """A kind's name as a heading over its results, each result a card (cards.py): its text, then how it was
    found."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        if index.data(FOUND) is None:
            return QSize(200, round(QFontMetrics(option.font).lineSpacing() * 1.4) + 10)
        return QSize(200, cards.card_height(option, 2, 1))

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        if index.data(FOUND) is not None:
            cards.paint_card(painter, option, text, index.data(HOW) or "", text_lines=2, detail_lines=1)
            return
        painter.save()
        font = QFont(option.font)
        font.setBold(True)
        painter.setFont(font)
        # A heading cannot be selected, which Qt paints as disabled (grey): it is read as any text is.
        painter.setPen(option.palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text))
        rect = option.rect.adjusted(2, 8, 0, 0)
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, text)
        painter.restore()


def heading(kind: str) -> str:
    """A kind's name over its results ("Memories", "Sections of the self")."""
    if kind == "section":
        return "Sections of the self"
    return KINDS[kind].titles.capitalize()


def where(found) -> str:
    """How a result was found, and when it is from, in words."""
    said = [f"found by its {found.how}"]
    if found.place:
        said.insert(0, section(found.place).shown or found.place)
    if found.at:
        said.append(found.at[:10])
    return "  ·  ".join(said)


class SearchResults(QWidget):
    opened = Signal(str, int, str)  # a result to open: its kind, its id, its place (a section's name)

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(parent)
        self.companion = companion
        self.setObjectName("search-results")
        self.note = QLabel(wordWrap=True)
        self.note.setObjectName("search-note")
        self.note.setMinimumHeight(self.note.fontMetrics().lineSpacing() * 2 + 4)  # two lines, whatever the width
        self.list = QListWidget()
        self.list.setObjectName("search-list")
        self.list.setAccessibleName("What was found in the mind")
        self.list.setItemDelegate(ResultDelegate(self.list))
        self.list.setFrameShape(QListWidget.Shape.NoFrame)
        self.list.viewport().setAutoFillBackground(False)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.list.itemActivated.connect(self._activated)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.note)
        col.addWidget(self.list, 1)
        self.words = ""
        self.found: dict = {}
        self.searched = False  # the last search asked has been shown

    def search(self, words: str) -> None:
        """Search the whole mind off the UI thread; the last search asked is the one shown."""
        self.words, self.searched = words, False
        self.note.setText(f"Searching for “{words}”…")
        self.list.clear()
        companion = self.companion
        tasks.run(lambda: (words, companion.search_mind(words)), self._show, self._failed, self)

    def _show(self, result) -> None:
        words, found = result
        if words != self.words:
            return  # a newer search is on its way
        self.found = found
        self.list.clear()
        n = sum(len(items) for items in found.values())
        if not n:
            self.note.setText(f"Nothing in my mind matches “{words}”, by its words or by its meaning.")
        else:
            self.note.setText(f"{n} found for “{words}”: double-click one to open it.")
        for kind, items in found.items():
            head = QListWidgetItem(f"{heading(kind)} ({len(items)})")
            head.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(head)
            for f in items:
                text = " ".join(f.text.split())
                item = QListWidgetItem(text[:SHOWN_CHARS] + "…" * (len(text) > SHOWN_CHARS))
                item.setData(HOW, where(f))
                item.setData(FOUND, (f.kind, f.id, f.place))
                item.setToolTip(f.text)
                self.list.addItem(item)
        self.searched = True

    def _failed(self, error) -> None:
        if errors.outlived(error):
            return
        if not isinstance(error, KnownError):
            raise error
        self.note.setText(str(error))
        self.searched = True

    def results(self) -> list[tuple[str, int, str]]:
        """Each result listed, in order: (kind, id, place)."""
        return [d for i in range(self.list.count()) if (d := self.list.item(i).data(FOUND))]

    def open(self, kind: str, item_id: int, place: str = "") -> None:
        self.opened.emit(kind, item_id, place)

    def _activated(self, item: QListWidgetItem) -> None:
        found = item.data(FOUND)
        if found:
            self.open(*found)
