"""A view that lists items as cards (cards.py) with actions on the selected one, and says what the kind is
when it has none yet (empty.py).

The list holds each row's cells as text in a model (RowsModel), and Qt asks for only the cards it paints. As a
QTableWidget it made an item object per cell on the UI thread: 2,000 memories were 14,000 of them, about 110 ms
with Qt measuring each column's widest cell. The cards are all one height, so Qt measures none of them either
(the list's uniform item sizes)."""

from typing import TYPE_CHECKING, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QListView, QPushButton, QStackedWidget

from ..flow import Flow
from .base import MindView
from .cards import CardDelegate
from .empty import EmptyState

if TYPE_CHECKING:
    from anima.companion import Companion

Row = TypeVar("Row")  # what a view lists: a row of the soul database, or the core's own type for it


class RowsModel(QAbstractTableModel):
    """Rows of text cells; a card's tooltip is its whole text (cards end a long one in "…")."""

    def __init__(self, columns: tuple[str, ...], headline: int = 0, parent=None):
        super().__init__(parent)
        self.columns = columns
        self.headline = headline
        self.cells: list[tuple[str, ...]] = []
        self.dimmed: set[int] = set()  # rows shown greyed
        self.dim_brush = None

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's own default)
        return 0 if parent.isValid() else len(self.cells)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cells[index.row()][index.column()] or None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.cells[index.row()][self.headline] or None
        if role == Qt.ItemDataRole.ForegroundRole and index.row() in self.dimmed:
            return self.dim_brush
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        return super().headerData(section, orientation, role)

    def set(self, cells: list[tuple[str, ...]]) -> None:
        self.beginResetModel()
        self.cells, self.dimmed = cells, set()
        self.endResetModel()

    def add(self, cells: list[tuple[str, ...]]) -> None:
        if cells:
            self.beginInsertRows(QModelIndex(), len(self.cells), len(self.cells) + len(cells) - 1)
            self.cells = self.cells + cells
            self.endInsertRows()


def _texts(rows: list, cells) -> list[tuple[str, ...]]:
    return [tuple("" if value is None else str(value) for value in cells(row)) for row in rows]


def _identity(row) -> object | None:
    """What an item shown in a row is known by (its id), or None."""
    if row is None:
        return None
    return row.get("id") if isinstance(row, dict) else getattr(row, "id", None)


class RowTable(QListView):
    """A read-only list of whole rows as cards, one selected at a time. `headline`: the column that is the item's
    own text; `timeline`: the cards joined by a line, as moments in time."""

    itemSelectionChanged = Signal()  # the selection changed (by the person, or by a refill that cleared it)

    def __init__(self, columns: tuple[str, ...], headline: int = 0, timeline: bool = False, parent=None):
        super().__init__(parent)
        self.rows_model = RowsModel(columns, headline, self)
        self.setModel(self.rows_model)
        self.setItemDelegate(CardDelegate(headline, timeline, self))
        self.keys: list = []  # what each row's item is known by (its id), for the selection to follow it
        self.selectionModel().selectionChanged.connect(lambda *_: self.itemSelectionChanged.emit())
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.viewport().setAutoFillBackground(False)

    def rowCount(self) -> int:
        return self.rows_model.rowCount()

    def columnCount(self) -> int:
        return self.rows_model.columnCount()

    def text(self, row: int, column: int) -> str:
        """What a cell shows."""
        return self.rows_model.cells[row][column]

    def currentRow(self) -> int:
        return self.currentIndex().row()

    def selectRow(self, row: int) -> None:
        """Select a whole row (every cell of it, as a table would: selectedRows() finds it)."""
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.selectionModel().setCurrentIndex(self.rows_model.index(row, 0), flags)

    def fill(self, rows: list, cells) -> None:
        """One row per item, its cells as `cells(item)` gives them. The selection follows its item, or is cleared
        (and says so, as a person's change of it does): a row number kept across a refill would point at another
        item, and Forget would take that one."""
        i, selected = self.currentRow(), self.selectionModel().hasSelection()
        kept = self.keys[i] if selected and 0 <= i < len(self.keys) else None
        self.keys = [_identity(row) for row in rows]
        self.rows_model.set(_texts(rows, cells))
        self.setCurrentIndex(QModelIndex())
        if kept is not None and kept in self.keys:
            self.selectRow(self.keys.index(kept))
        elif selected:
            self.itemSelectionChanged.emit()

    def extend(self, rows: list, cells) -> None:
        """More rows below those shown, which stay as they are (and the one selected stays selected)."""
        self.keys += [_identity(row) for row in rows]
        self.rows_model.add(_texts(rows, cells))

    def dim(self, rows: set[int], brush) -> None:
        """Show these rows greyed (a faded reading)."""
        self.rows_model.dimmed, self.rows_model.dim_brush = set(rows), brush
        self.viewport().update()


def row_table(columns: tuple[str, ...], headline: int = 0, timeline: bool = False) -> RowTable:
    return RowTable(columns, headline, timeline)


class TableView(MindView, Generic[Row]):
    columns: tuple[str, ...] = ()
    headline = 0  # the column that is an item's own text, first on its card
    timeline = False

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.table = row_table(self.columns, self.headline, self.timeline)
        self.empty = EmptyState(self.title, self.about, self.appears, self.reflect_deeply if self.reflects else None)
        self.pages = QStackedWidget()  # the cards, or what the view says while it has none
        self.pages.addWidget(self.table)
        self.pages.addWidget(self.empty)
        self.actions_ = Flow()  # not `actions`: that is QWidget.actions(), which it hid
        self._buttons = 0  # buttons in that row, each at its own width from the left, wrapping when narrow
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.pages)
        self.layout_.addLayout(self.actions_)
        self.rows: list[Row] = []
        self._on_items: list[QPushButton] = []  # the actions on an item, hidden while there is none
        self._revealing: object | None = None  # an item to select once it is listed (a search result opened)

    @property
    def is_empty(self) -> bool:
        """Whether it shows its empty state (what the kind is) rather than cards."""
        return self.pages.currentWidget() is self.empty

    def reveal(self, kind: str, item_id: int, place: str = "") -> None:
        self._revealing = item_id
        self.refresh()

    def reflected(self) -> None:
        if not self.rows:
            self.empty.note.setText("Deep reflection found nothing to make of this yet: talk a little more first.")
            self.empty.note.show()

    def action(self, text: str, fn, always: bool = False) -> QPushButton:
        """A button under the cards; one that acts on an item is hidden while there is none (not `always`)."""
        button = QPushButton(text)
        button.setObjectName(text.lower().replace(" ", "-").replace("…", ""))
        button.clicked.connect(fn)
        self.actions_.insertWidget(self._buttons, button)  # after the others, before what a view adds itself
        self._buttons += 1
        if not always:
            self._on_items.append(button)
        return button

    def fill(self, rows: list[Row], cells) -> None:
        """The rows shown anew; the selection follows its item (RowTable.fill)."""
        self.rows = rows
        self.table.fill(rows, cells)
        self.pages.setCurrentWidget(self.table if rows else self.empty)
        for button in self._on_items:
            button.setVisible(bool(rows))
        if self._revealing is not None and self._revealing in self.table.keys:
            self.table.selectRow(self.table.keys.index(self._revealing))
            self.table.scrollTo(self.table.currentIndex())
        self._revealing = None

    def extend(self, rows: list[Row], cells) -> None:
        """More rows below those shown, which stay as they are (and the one selected stays selected)."""
        self.rows = self.rows + rows
        self.table.extend(rows, cells)

    def selected(self) -> Row | None:
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None
