"""Known errors become a dialog with their message; anything else is a bug and is raised again."""

from PySide6.QtWidgets import QMessageBox, QWidget

from anima.errors import KnownError


def show(parent: QWidget, error: Exception, title: str = "Anima") -> None:
    if isinstance(error, KnownError):
        QMessageBox.warning(parent, title, str(error))
        return
    raise error
