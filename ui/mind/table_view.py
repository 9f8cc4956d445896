"""A view that lists rows in a table with actions on the selected one.

The table holds each row's cells as text in a model (RowsModel), and Qt asks for only the cells it paints. As a
QTableWidget it made an item object per cell on the UI thread: 2,000 memories were 14,000 of them, about 110 ms
with Qt measuring each column's widest cell. Qt's measuring asks a model for eight roles of each cell of a
thousand rows, each a call into Python (0.65-4 s for 2,000 rows, on two busy cores), so the widths are measured
here instead, from the longest texts of each column (fit_columns)."""

from typing import TYPE_CHECKING, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QPushButton, QTableView

from .base import MindView

if TYPE_CHECKING:
    from anima.companion import Companion

Row = TypeVar("Row")  # what a view lists: a row of the soul database, or the core's own type for it

MEASURED = 5  # a column's longest texts (by characters) whose width is measured: the widest is among them
CELL_MARGIN = 12  # the room Qt's delegate leaves around a cell's text, and the header's around a title


class RowsModel(QAbstractTableModel):
    """Rows of text cells; each cell's full text is its tooltip too (long cells in a narrow panel)."""

    def __init__(self, columns: tuple[str, ...], parent=None):
        super().__init__(parent)
        self.columns = columns
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
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self.cells[index.row()][index.column()] or None
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


class RowTable(QTableView):
    """A read-only table of whole rows, one selected at a time."""

    itemSelectionChanged = Signal()  # the selection changed (by the person, or by a refill that cleared it)

    def __init__(self, columns: tuple[str, ...], parent=None):
        super().__init__(parent)
        self.rows_model = RowsModel(columns, self)
        self.setModel(self.rows_model)
        self.keys: list = []  # what each row's item is known by (its id), for the selection to follow it
        self.selectionModel().selectionChanged.connect(lambda *_: self.itemSelectionChanged.emit())
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.horizontalHeader().setStretchLastSection(True)

    def rowCount(self) -> int:
        return self.rows_model.rowCount()

    def columnCount(self) -> int:
        return self.rows_model.columnCount()

    def text(self, row: int, column: int) -> str:
        """What a cell shows."""
        return self.rows_model.cells[row][column]

    def currentRow(self) -> int:
        return self.currentIndex().row()

    def fill(self, rows: list, cells) -> None:
        """One row per item, its cells as `cells(item)` gives them. The selection follows its item, or is cleared
        (and says so, as a person's change of it does): a row number kept across a refill would point at another
        item, and Forget would take that one."""
        i, selected = self.currentRow(), self.selectionModel().hasSelection()
        kept = self.keys[i] if selected and 0 <= i < len(self.keys) else None
        self.keys = [_identity(row) for row in rows]
        self.rows_model.set(_texts(rows, cells))
        self.setCurrentIndex(QModelIndex())
        self.fit_columns()
        if kept is not None and kept in self.keys:
            self.selectRow(self.keys.index(kept))
        elif selected:
            self.itemSelectionChanged.emit()

    def fit_columns(self) -> None:
        """Each column as wide as its widest text or its title, as Qt's resizeColumnsToContents makes it, in a
        pass over the texts in Python rather than eight calls into it per cell."""
        cells, titles = self.rows_model.cells, self.rows_model.columns
        text, header = self.fontMetrics(), self.horizontalHeader().fontMetrics()
        for j, title in enumerate(titles):
            longest = sorted({row[j] for row in cells}, key=len)[-MEASURED:]
            widest = max([header.horizontalAdvance(title)] + [text.horizontalAdvance(t) for t in longest])
            self.setColumnWidth(j, widest + CELL_MARGIN)

    def extend(self, rows: list, cells) -> None:
        """More rows below those shown, which stay as they are (and the one selected stays selected)."""
        self.keys += [_identity(row) for row in rows]
        self.rows_model.add(_texts(rows, cells))

    def dim(self, rows: set[int], brush) -> None:
        """Show these rows greyed (a faded reading)."""
        self.rows_model.dimmed, self.rows_model.dim_brush = set(rows), brush
        self.viewport().update()


def row_table(columns: tuple[str, ...]) -> RowTable:
    return RowTable(columns)


class TableView(MindView, Generic[Row]):
    columns: tuple[str, ...] = ()

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.table = row_table(self.columns)
        self.actions_ = QHBoxLayout()  # not `actions`: that is QWidget.actions(), which it hid
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.table)
        self.layout_.addLayout(self.actions_)
        self.rows: list[Row] = []

    def action(self, text: str, fn) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(text.lower().replace(" ", "-").replace("…", ""))
        button.clicked.connect(fn)
        self.actions_.addWidget(button)
        return button

    def fill(self, rows: list[Row], cells) -> None:
        """The rows shown anew; the selection follows its item (RowTable.fill)."""
        self.rows = rows
        self.table.fill(rows, cells)

    def extend(self, rows: list[Row], cells) -> None:
        """More rows below those shown, which stay as they are (and the one selected stays selected)."""
        self.rows = self.rows + rows
        self.table.extend(rows, cells)

    def selected(self) -> Row | None:
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None
