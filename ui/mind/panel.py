from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget

from . import VIEWS
from .inner_life import InnerLife
from .memories_view import MemoriesView
from .parts_tab import PartsTab
from .proposals_view import ProposalsView

if TYPE_CHECKING:
    from anima.companion import Companion


class OpenMind(QTabWidget):
    """Read and correct everything the companion holds, one tab per kind of belief; related views share a tab
    behind a selector (group.py): the inner life (what reflection made: growth, episodes, rules, feelings, working
    memory), and parts with their predictions."""

    forgotten = Signal(object)  # something was forgotten in one of the views: what went (anima's Forgotten)

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(parent)
        self.setUsesScrollButtons(True)
        self.views = {}
        for cls in VIEWS:
            view = cls(companion)
            self.views[cls.title] = view
            self.addTab(view, cls.title)
        self.inner_life = InnerLife(companion)
        self.parts = PartsTab(companion)
        after = self.indexOf(self.views[MemoriesView.title])
        for group in (self.inner_life, self.parts):
            after += 1
            self.insertTab(after, group, group.title)
            for view in group.views:
                self.views[view.title] = view
        self.groups = (self.inner_life, self.parts)
        self.proposals: ProposalsView = self.views[ProposalsView.title]
        self.currentChanged.connect(lambda i: self.widget(i).refresh())
        for view in self.views.values():
            view.forgotten.connect(self.forgotten)

    def refresh(self) -> None:
        self.currentWidget().refresh()

    def open_view(self, title: str):
        """Bring a view forward by its title, one in a group included; returns it."""
        view = self.views[title]
        for group in self.groups:
            if view in group.views:
                self.setCurrentWidget(group)
                group.show_view(view)
                return view
        self.setCurrentWidget(view)
        return view

    def note_pending(self, count: int) -> None:
        """The proposed changes' tab says how many wait."""
        title = ProposalsView.title + (f" ({count})" if count else "")
        self.setTabText(self.indexOf(self.proposals), title)
