from PySide6.QtWidgets import QTabWidget

from . import VIEWS
from .inner_life import InnerLife
from .memories_view import MemoriesView
from .proposals_view import ProposalsView


class OpenMind(QTabWidget):
    """Read and correct everything the companion holds, one tab per kind of belief; the inner life (what
    reflection made: growth, episodes, rules, feelings, working memory) shares one tab."""

    def __init__(self, companion, parent=None):
        super().__init__(parent)
        self.setUsesScrollButtons(True)
        self.views = {}
        for cls in VIEWS:
            view = cls(companion)
            self.views[cls.title] = view
            self.addTab(view, cls.title)
        self.inner_life = InnerLife(companion)
        self.insertTab(self.indexOf(self.views[MemoriesView.title]) + 1, self.inner_life, InnerLife.title)
        for view in self.inner_life.views:
            self.views[view.title] = view
        self.proposals: ProposalsView = self.views[ProposalsView.title]
        self.currentChanged.connect(lambda i: self.widget(i).refresh())

    def refresh(self) -> None:
        self.currentWidget().refresh()

    def open_view(self, title: str):
        """Bring a view forward by its title, an inner-life one included; returns it."""
        view = self.views[title]
        if view in self.inner_life.views:
            self.setCurrentWidget(self.inner_life)
            self.inner_life.show_view(view)
        else:
            self.setCurrentWidget(view)
        return view

    def note_pending(self, count: int) -> None:
        """The proposed changes' tab says how many wait."""
        title = ProposalsView.title + (f" ({count})" if count else "")
        self.setTabText(self.indexOf(self.proposals), title)
