"""Help: the sheet of keyboard shortcuts, and About.

The sheet is made from the menus' declared items (menus.py) and the message box's keys (chat/input.py), the
one place each is declared: a key changed there changes here.
"""

from importlib import metadata
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import anima

from . import menus
from .chat.input import KEYS as MESSAGE_KEYS

if TYPE_CHECKING:
    from anima.companion import Companion


def shortcuts(window: object) -> list[tuple[str, list[tuple[str, str]]]]:
    """(section, [(keys, what they do)]) for every shortcut the window has, the message box's first."""
    sections = [("Writing a message", list(MESSAGE_KEYS))]
    by_menu: dict[str, list[tuple[str, str]]] = {}
    for menu, item in menus.items():
        if item.keys() and menus.available(window, item):
            by_menu.setdefault(menu.replace("&", ""), []).append((item.keys(), item.plain))
    return sections + list(by_menu.items())


class ShortcutSheet(QDialog):
    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        layout = QVBoxLayout(self)
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Keyboard shortcuts")
        self.tree.setHeaderLabels(["Keys", "What they do"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        for section, rows in shortcuts(window):
            head = QTreeWidgetItem(self.tree, [section])
            head.setFirstColumnSpanned(True)
            font = head.font(0)
            font.setBold(True)
            head.setFont(0, font)
            for keys, what in rows:
                QTreeWidgetItem(head, [keys, what])
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        layout.addWidget(self.tree)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, 520)

    def rows(self) -> list[tuple[str, str]]:
        """(keys, what) of every shortcut listed."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            head = self.tree.topLevelItem(i)
            assert head is not None  # i is in range
            for j in range(head.childCount()):
                row = head.child(j)
                assert row is not None
                out.append((row.text(0), row.text(1)))
        return out


def version() -> str:
    """The installed package's version; from source, where nothing is installed, the one it declares."""
    try:
        return metadata.version("anima")
    except metadata.PackageNotFoundError:
        return anima.__version__


def licence() -> str:
    try:
        meta = metadata.metadata("anima")
    except metadata.PackageNotFoundError:
        return "not declared"
    for field in ("License-Expression", "License"):
        if said := meta.get_all(field):
            return str(said[0])
    return "not declared"


def about_text(companion: "Companion | None") -> str:
    lines = [
        f"<h3>Anima {version()}</h3>",
        "<p>A local-first companion: everything it is and knows lives in one encrypted file on this computer.</p>",
    ]
    if companion is not None:
        lines.append(f"<p>Model in use: {_escape(companion.model_name)}<br>")
        lines.append(f"Data folder: {_escape(str(companion.home.dir))}</p>")
    else:
        lines.append("<p>No companion is open yet.</p>")
    lines.append(f"<p>Licence: {_escape(licence())}</p>")
    return "".join(lines)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class AboutDialog(QDialog):
    def __init__(self, window: QWidget, companion: "Companion | None"):
        super().__init__(window)
        self.setWindowTitle("About Anima")
        layout = QVBoxLayout(self)
        self.text = QLabel(about_text(companion))
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)
