"""How an Open Mind item reads: a card, its own text first, then what a person asks of it (when, where it came
from, how sure) in smaller, quieter words under it.

A delegate paints the cards from the rows' cells, so a list of 2,000 memories is still one model of text cells
and Qt paints only the cards in sight. Every card is as tall as the others (two lines of text, two of detail):
measuring each card's wrapped text would ask Python for thousands of sizes at every fill (table_view.py tells
what that cost the tables). A text longer than its lines ends in "…"; the whole of it is the card's tooltip.
Colours are the palette's roles, so a theme or a dark desktop restyles the cards.
"""

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QTextLayout, QTextLine
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

PAD = 10  # inside a card, around its text
GAP = 6  # between two cards
TEXT_LINES = 2
DETAIL_LINES = 2
TIMELINE = 22  # room left of a card for the timeline's line and dot
RADIUS = 6.0


def draw_lines(painter: QPainter, rect: QRect, text: str, font: QFont, most: int) -> None:
    """`text` wrapped to the width of `rect`, at most `most` lines, the last ending in "…" when more is left."""
    text = " ".join(text.split())
    metrics = QFontMetrics(font)
    layout = QTextLayout(text, font)
    layout.beginLayout()
    lines: list[QTextLine] = []
    while len(lines) < most:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(rect.width())
        lines.append(line)
    layout.endLayout()
    painter.save()
    painter.setFont(font)  # the elided last line is drawn as text, in the painter's font
    y = rect.top()
    for i, line in enumerate(lines):
        if i == len(lines) - 1 and line.textStart() + line.textLength() < len(text):
            rest = metrics.elidedText(text[line.textStart() :], Qt.TextElideMode.ElideRight, rect.width())
            painter.drawText(QPointF(rect.left(), y + metrics.ascent()), rest)
        else:
            line.draw(painter, QPointF(rect.left(), y - line.y()))
        y += metrics.lineSpacing()
    painter.restore()


def small(font: QFont) -> QFont:
    f = QFont(font)
    f.setPointSizeF(max(font.pointSizeF() * 0.88, 7.0))
    return f


def unbroken(pair: str, most: int = 40) -> str:
    """A short "column: value" kept on one line (a wrap between "true" and "since: 2026-12-06" read as a value
    "true"); a long one may wrap where it must."""
    return pair.replace(" ", "\u00a0") if len(pair) <= most else pair


class CardDelegate(QStyledItemDelegate):
    """Paints row `r` of a RowsModel as a card: column `headline` as its text, the other columns' non-empty
    cells as "column: value" details. `timeline`: a line and a dot on the left join the cards in time order."""

    def __init__(self, headline: int = 0, timeline: bool = False, parent=None):
        super().__init__(parent)
        self.headline = headline
        self.timeline = timeline

    def details(self, index: QModelIndex | QPersistentModelIndex) -> str:
        model = index.model()
        said = []
        for j in range(model.columnCount()):
            if j == self.headline:
                continue
            value = model.index(index.row(), j).data(Qt.ItemDataRole.DisplayRole)
            if value:
                said.append(f"{model.headerData(j, Qt.Orientation.Horizontal)}: {value}")
        return "  ·  ".join(said)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(200, card_height(option))

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        headline = index.model().index(index.row(), self.headline).data(Qt.ItemDataRole.DisplayRole) or ""
        dimmed = index.data(Qt.ItemDataRole.ForegroundRole) is not None
        shown = "  ·  ".join(unbroken(pair) for pair in self.details(index).split("  ·  "))
        paint_card(painter, option, str(headline), shown, dimmed=dimmed, timeline=self.timeline)


def card_height(option: QStyleOptionViewItem, text_lines: int = TEXT_LINES, detail_lines: int = DETAIL_LINES) -> int:
    text = QFontMetrics(option.font).lineSpacing() * text_lines
    detail = QFontMetrics(small(option.font)).lineSpacing() * detail_lines
    return PAD * 2 + text + 4 + detail + GAP


def paint_card(
    painter: QPainter,
    option: QStyleOptionViewItem,
    text: str,
    details: str,
    *,
    dimmed: bool = False,
    timeline: bool = False,
    text_lines: int = TEXT_LINES,
    detail_lines: int = DETAIL_LINES,
) -> None:
    """One card in `option.rect`: `text` on its first lines, `details` smaller and quieter under it."""
    palette: QPalette = option.palette
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    card = QRectF(option.rect).adjusted(1, 1, -1, -GAP)
    if timeline:
        x = option.rect.left() + TIMELINE / 2
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawLine(QPointF(x, option.rect.top()), QPointF(x, option.rect.bottom()))
        painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
        painter.drawEllipse(QPointF(x, card.top() + PAD + 8), 4.5, 4.5)
        card.setLeft(card.left() + TIMELINE)
    selected = bool(option.state & QStyle.StateFlag.State_Selected)
    fill = palette.color(QPalette.ColorRole.Base)
    if selected:
        fill = QColor(palette.color(QPalette.ColorRole.Highlight))
        fill.setAlpha(48)
    painter.setBrush(fill)
    painter.setPen(palette.color(QPalette.ColorRole.Highlight if selected else QPalette.ColorRole.Mid))
    painter.drawRoundedRect(card, RADIUS, RADIUS)
    inner = card.toRect().adjusted(PAD, PAD, -PAD, -PAD)
    painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText if dimmed else QPalette.ColorRole.Text))
    draw_lines(painter, inner, text, option.font, text_lines)
    painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
    below = inner.adjusted(0, QFontMetrics(option.font).lineSpacing() * text_lines + 4, 0, 0)
    draw_lines(painter, below, details, small(option.font), detail_lines)
    painter.restore()
