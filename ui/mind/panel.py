from PySide6.QtWidgets import QTabWidget

from . import VIEWS
from .proposals_view import ProposalsView


class OpenMind(QTabWidget):
    """Read and correct everything the companion holds, one tab per kind of belief."""

    def __init__(self, companion, parent=None):
        super().__init__(parent)
        self.views = {}
        for cls in VIEWS:
            view = cls(companion)
            self.views[cls.title] = view
            self.addTab(view, cls.title)
        self.proposals: ProposalsView = self.views[ProposalsView.title]
        self.currentChanged.connect(lambda i: self.widget(i).refresh())

    def refresh(self) -> None:
        self.currentWidget().refresh()

    def note_pending(self, count: int) -> None:
        """The proposed changes' tab says how many wait."""
        title = ProposalsView.title + (f" ({count})" if count else "")
        self.setTabText(self.indexOf(self.proposals), title)
