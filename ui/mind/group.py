"""Several Open Mind views behind one tab and a selector above them.

The panel's tabs already fill its width, so related views share a tab: the inner life (growth, episodes, rules,
feelings, working memory), and parts with their predictions. Each view is a MindView like any other; a group is a
subclass that names its title and its view classes.
"""

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from anima.companion import Companion


class ViewGroup(QWidget):
    title = "?"
    kinds: tuple = ()  # the MindView classes it holds, in the selector's order
    name = "views"  # its selector's object name is f"{name}-selector"

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(parent)
        self.views = [cls(companion) for cls in self.kinds]
        self.selector = QComboBox()
        self.selector.setObjectName(f"{self.name}-selector")
        self.stack = QStackedWidget()
        for view in self.views:
            self.selector.addItem(view.title)
            self.stack.addWidget(view)
        self.selector.currentIndexChanged.connect(self._chosen)
        row = QHBoxLayout()
        row.addWidget(QLabel("Show:"))
        row.addWidget(self.selector, 1)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(row)
        col.addWidget(self.stack)

    @property
    def current(self):
        return self.stack.currentWidget()

    @property
    def loaded(self) -> bool:
        return self.current.loaded

    def show_view(self, view) -> None:
        """Bring one of its views forward (it loads when shown)."""
        self.selector.setCurrentIndex(self.views.index(view))

    def _chosen(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        self.refresh()

    def refresh(self) -> None:
        self.current.refresh()
