"""A view that lists rows in a table with actions on the selected one."""

from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QPushButton, QTableWidget, QTableWidgetItem

from .base import MindView


def row_table(columns: tuple[str, ...]) -> QTableWidget:
    """A read-only table of whole rows, one selected at a time."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(columns)
    table.setSelectionBehavior(QAbstractItemView.SelectRows)
    table.setSelectionMode(QAbstractItemView.SingleSelection)
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def fill_rows(table: QTableWidget, rows: list, cells) -> None:
    """One row per item, its cells as `cells(item)` gives them."""
    table.setRowCount(len(rows))
    for i, row in enumerate(rows):
        for j, value in enumerate(cells(row)):
            table.setItem(i, j, QTableWidgetItem("" if value is None else str(value)))
    table.resizeColumnsToContents()


def _identity(row) -> object | None:
    """What an item shown in a row is known by (its id), or None."""
    if row is None:
        return None
    return row.get("id") if isinstance(row, dict) else getattr(row, "id", None)


class TableView(MindView):
    columns: tuple[str, ...] = ()

    def __init__(self, companion, parent=None):
        super().__init__(companion, parent)
        self.table = row_table(self.columns)
        self.actions = QHBoxLayout()
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.table)
        self.layout_.addLayout(self.actions)
        self.rows: list[dict] = []

    def action(self, text: str, fn) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(text.lower().replace(" ", "-").replace("…", ""))
        button.clicked.connect(fn)
        self.actions.addWidget(button)
        return button

    def fill(self, rows: list[dict], cells) -> None:
        """The rows shown anew. The selection follows its item, or is cleared: a row number kept across a refill
        would point at another item, and Forget would take that one."""
        kept = _identity(self.selected())
        self.rows = rows
        fill_rows(self.table, rows, cells)
        at = next((i for i, row in enumerate(rows) if kept is not None and _identity(row) == kept), None)
        if at is None:
            self.table.clearSelection()
            self.table.setCurrentCell(-1, -1)
        else:
            self.table.selectRow(at)

    def extend(self, rows: list[dict], cells) -> None:
        """More rows below those shown, which stay as they are (and the one selected stays selected)."""
        start = len(self.rows)
        self.rows = self.rows + rows
        self.table.setRowCount(len(self.rows))
        for i, row in enumerate(rows, start):
            for j, value in enumerate(cells(row)):
                self.table.setItem(i, j, QTableWidgetItem("" if value is None else str(value)))

    def selected(self) -> dict | None:
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None
