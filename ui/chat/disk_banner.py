"""The banner above the message box when the disk is full: what was and was not saved, a Retry button, and a
retry of its own once space returns.

A full disk is the environment's doing, not a bug and not a modal error: the person's typed message goes back
into the box (nothing of it was saved), and the banner watches the free space (statvfs on a pool thread, never
the UI thread: the window never waits on the disk) and retries by itself when the disk has room again.
"""

import shutil
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from .. import tasks

# Retry once this much more is free than when the write failed (a write of a turn needs far less).
ROOM = 1 << 20


class DiskBanner(QFrame):
    retry = Signal()  # the person pressed Retry, or space returned: send what waits in the box

    POLL_MS = 2000

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("disk-banner")
        self.setStyleSheet("#disk-banner { background: #fdecea; border: 1px solid #c0392b; border-radius: 4px; }"
                           "#disk-banner QLabel { color: #7b241c; }")
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.button = QPushButton("Retry")
        self.button.clicked.connect(self._retry)
        row = QHBoxLayout(self)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.poll = QTimer(self, interval=self.POLL_MS)
        self.poll.timeout.connect(self._check_space)
        self.folder: Path | None = None
        self.free_at_failure: int | None = None
        self._checking = False
        self.hide()

    def show_full(self, message: str, folder: Path, waiting: bool) -> None:
        """Say `message`; `waiting`: a message waits in the box to be sent again (Retry, and retry by itself)."""
        self.folder = Path(folder)
        self.label.setText(message + (" Your message is kept in the box below and is sent as soon as there is "
                                      "room again." if waiting else ""))
        self.button.setVisible(waiting)
        self.free_at_failure = None
        self.show()
        if waiting:
            self._measure()
            self.poll.start()

    def clear(self) -> None:
        self.poll.stop()
        self.hide()

    def _retry(self) -> None:
        self.clear()
        self.retry.emit()

    def _check_space(self) -> None:
        if self.free_at_failure is None:
            self._measure()  # the first measure is still to come (or failed): nothing to compare with yet
        else:
            self._measure(self._compare)

    def _measure(self, then=None) -> None:
        """The free space, measured on a pool thread; the first measure is the one to beat."""
        if self._checking or self.folder is None:
            return
        self._checking = True
        folder = self.folder

        def measured(free: int) -> None:
            self._checking = False
            if self.free_at_failure is None:
                self.free_at_failure = free
            elif then is not None:
                then(free)

        def failed(_error) -> None:
            self._checking = False  # the folder is gone, say: Retry stays there for the person
        tasks.run(lambda: _free(folder), measured, failed, self)

    def _compare(self, free: int) -> None:
        if self.isVisible() and self.poll.isActive() and free >= self.free_at_failure + ROOM:
            self._retry()


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0
