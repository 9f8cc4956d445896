"""The companion's inner life in one Open Mind tab: what reflection made of your time together.

The panel's other tabs already fill its width, so the views of the inner life
(growth, episodes, how to help, feelings, working memory) share one tab and a
selector above them. Each is a MindView like any other; to add one, add it to
INNER_VIEWS.
"""

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from .episodes_view import EpisodesView
from .growth_view import GrowthView
from .rules_view import RulesView
from .signals_view import SignalsView
from .working_memory_view import WorkingMemoryView

INNER_VIEWS = (GrowthView, EpisodesView, RulesView, SignalsView, WorkingMemoryView)


class InnerLife(QWidget):
    title = "Inner life"

    def __init__(self, companion, parent=None):
        super().__init__(parent)
        self.views = [cls(companion) for cls in INNER_VIEWS]
        self.selector = QComboBox()
        self.selector.setObjectName("inner-life-selector")
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
