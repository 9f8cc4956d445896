"""Known errors become a dialog with their message; anything else is a bug, for the crash handler.

With no crash handler installed (a test that did not install one) a bug is raised again, so that it
still cannot pass unseen.
"""

from PySide6.QtWidgets import QMessageBox, QWidget

from anima.errors import KnownError

from . import crash


def show(parent: QWidget, error: Exception, title: str = "Anima") -> None:
    if isinstance(error, KnownError):
        QMessageBox.warning(parent, title, str(error))
        return
    handler = crash.installed()
    if handler is None:
        raise error
    handler.report(error)
