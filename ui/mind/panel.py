from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget

from . import VIEWS
from .base import MindView
from .group import ViewGroup
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
        self.views: dict[str, MindView] = {}
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
        proposals = self.views[ProposalsView.title]
        assert isinstance(proposals, ProposalsView)
        self.proposals = proposals
        self.currentChanged.connect(lambda i: self._tab(i).refresh())
        for each in self.views.values():
            each.forgotten.connect(self.forgotten)

    def _tab(self, index: int) -> MindView | ViewGroup:
        """What a tab holds: a view, or a group of them."""
        tab = self.widget(index)
        assert isinstance(tab, (MindView, ViewGroup))
        return tab

    def refresh(self) -> None:
        self._tab(self.currentIndex()).refresh()

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
