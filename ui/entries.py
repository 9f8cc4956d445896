"""A list's entries as a person reads them in a modern app: a first line that names the entry, then its details
in the muted colour, with room around each so one entry is told from the next (the model catalogues ran their
lines together; the search's results were plain text). Follows the theme in use, selected or not.

An item's text is "head\nbody"; a view may give the HTML of an entry itself instead (`html`), as the search does
to set the words found in bold."""

import html as markup
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QTextDocument
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from . import theme

PAD = 8  # around an entry's text
Index = QModelIndex | QPersistentModelIndex
# The HTML of an entry, given its index and the two colours to use (text, muted).
Html = Callable[[Index, str, str], str]


def head_and_body(index: Index, text: str, muted: str) -> str:
    """An item's text as its head (the first line, in the text colour, semibold) over its body (muted)."""
    head, _, body = str(index.data(Qt.ItemDataRole.DisplayRole) or "").partition("\n")
    faded = index.data(Qt.ItemDataRole.ForegroundRole) is not None  # the view greyed it out (too big a model)
    colour = muted if faded else text
    out = f'<div style="color:{colour}; font-weight:600">{markup.escape(head)}</div>'
    return out + (f'<div style="color:{muted}">{markup.escape(body)}</div>' if body else "")


def head_and_tip(index: Index, text: str, muted: str) -> str:
    """An item's text as its head, over its tooltip (muted): for a drop-down, whose closed box shows the text
    alone."""
    head = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
    tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
    out = f'<div style="color:{text}; font-weight:600">{markup.escape(head)}</div>'
    return out + (f'<div style="color:{muted}">{markup.escape(tip)}</div>' if tip else "")


class Entries(QStyledItemDelegate):
    def __init__(self, parent: QWidget, html: Html = head_and_body):
        super().__init__(parent)
        self.html = html

    def _document(self, option: QStyleOptionViewItem, index: Index) -> QTextDocument:
        look = theme.current()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text, muted = (look.on_highlight, look.on_highlight) if selected else (look.text, look.muted)
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        doc.setTextWidth(max(100, option.rect.width() - 2 * PAD))
        doc.setHtml(self.html(index, text, muted))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        rect = option.rect
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(rect.adjusted(2, 1, -2, -1), QColor(theme.current().highlight))
        painter.translate(rect.left() + PAD, rect.top() + PAD)
        self._document(option, index).drawContents(painter, QRectF(0, 0, rect.width() - 2 * PAD, rect.height()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        doc = self._document(option, index)
        return QSize(int(doc.idealWidth()) + 2 * PAD, int(doc.size().height()) + 2 * PAD)
