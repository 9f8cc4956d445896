"""Long cells in a narrow panel: each cell's full text as its tooltip."""

from PySide6.QtWidgets import QTableWidget


def full_text_tips(table: QTableWidget) -> None:
    for i in range(table.rowCount()):
        for j in range(table.columnCount()):
            item = table.item(i, j)
            if item is not None and item.text():
                item.setToolTip(item.text())
