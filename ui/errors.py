"""Known errors become a dialog with their message; anything else is a bug, for the crash handler.

With no crash handler installed (a test that did not install one) a bug is raised again, so that it
still cannot pass unseen.
"""

import logging

from PySide6.QtWidgets import QMessageBox, QWidget

from anima.errors import KnownError, SoulClosed

from . import crash

log = logging.getLogger(__name__)


def colour(widget: QWidget | None = None) -> str:
    """The colour an error is written in, readable on the window's background: the theme's (theme.py), the one
    place it is chosen."""
    from . import theme

    return theme.current().error


def outlived(error: Exception) -> bool:
    """Background work that finished after its companion was closed (the window closed, an import swapped the
    soul): nobody waits for it, and a dialog about it would only puzzle. Logged, not shown."""
    if isinstance(error, SoulClosed):
        log.info("background work ended after its companion was closed; nothing was changed")
        return True
    return False


def show(parent: QWidget, error: Exception, title: str = "Anima") -> None:
    if outlived(error):
        return
    if isinstance(error, KnownError):
        QMessageBox.warning(parent, title, str(error))
        return
    handler = crash.installed()
    if handler is None:
        raise error
    handler.report(error)
