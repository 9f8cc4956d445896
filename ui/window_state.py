"""The window as it was last closed: its size and place, maximised or not, the widths of the chat and the Open
Mind, and whether the Open Mind was open. Kept in the settings file (anima/settings.py) as plain values; the
place and size as Qt's own bytes (saveGeometry), which also put a window back on a screen that is still there.
"""

import base64
import binascii
import logging

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QMainWindow, QSplitter

from anima.errors import KnownError
from anima.settings import Settings

log = logging.getLogger(__name__)
NAMES = ("window_geometry", "window_maximized", "window_split", "mind_open")  # what is kept, in Settings


def restore(window: QMainWindow, settings: Settings) -> None:
    """Put the window back where and as large as it was; before it is first shown, so it never jumps."""
    try:
        geometry = base64.b64decode(settings.window_geometry, validate=True)
    except (binascii.Error, ValueError):
        geometry = b""  # edited by hand: the window opens where it opens by default
    if geometry:
        window.restoreGeometry(QByteArray(geometry))
    if settings.window_maximized:
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def split_sizes(settings: Settings | None) -> list[int] | None:
    """The widths the chat and the Open Mind had; None when none were kept (or they cannot be read)."""
    try:
        sizes = [int(part) for part in (settings.window_split if settings else "").split(",")]
    except ValueError:
        return None
    return sizes if len(sizes) >= 2 and all(size >= 0 for size in sizes) and any(sizes) else None


def remember(window: QMainWindow, settings: Settings, split: QSplitter, mind_open: bool) -> None:
    """Write the window's state to the settings file, that alone (Settings.keep). A file that cannot be written
    is logged, not said: the window is closing, and what is lost is only where it stood."""
    settings.window_geometry = base64.b64encode(bytes(window.saveGeometry().data())).decode("ascii")
    settings.window_maximized = window.isMaximized()
    if split.count() > 1:  # the Open Mind was built: its width beside the chat's
        settings.window_split = ",".join(str(size) for size in split.sizes())
    settings.mind_open = mind_open
    try:
        settings.keep(*NAMES)
    except KnownError as e:
        log.warning("the window's size and place were not kept: %s", e)
