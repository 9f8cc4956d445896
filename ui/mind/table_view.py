"""A view that lists rows in a table with actions on the selected one."""

from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QPushButton, QTableWidget, QTableWidgetItem

from .base import MindView


class TableView(MindView):
    columns: tuple[str, ...] = ()

    def __init__(self, companion, parent=None):
        super().__init__(companion, parent)
        self.table = QTableWidget(0, len(self.columns))
        self.table.setHorizontalHeaderLabels(self.columns)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
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
        self.rows = rows
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, value in enumerate(cells(row)):
                self.table.setItem(i, j, QTableWidgetItem("" if value is None else str(value)))
        self.table.resizeColumnsToContents()

    def selected(self) -> dict | None:
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None
