from PySide6.QtWidgets import QTabWidget

from . import VIEWS


class OpenMind(QTabWidget):
    """Read and correct everything the companion holds, one tab per kind of belief."""

    def __init__(self, companion, parent=None):
        super().__init__(parent)
        self.views = {}
        for cls in VIEWS:
            view = cls(companion)
            self.views[cls.title] = view
            self.addTab(view, cls.title)
        self.currentChanged.connect(lambda i: self.widget(i).refresh())

    def refresh(self) -> None:
        self.currentWidget().refresh()
