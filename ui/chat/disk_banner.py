"""The banner above the message box when a turn could not be saved: a full disk, or a soul kept busy by another
program. It says what was and was not saved, offers Retry, and retries by itself once what was missing returns.

Neither is a bug nor a modal error: the person's typed message goes back into the box (nothing of it was saved).
For a full disk, space is what returns: the banner watches the free space (statvfs on a pool thread, never the UI
thread: the window never waits on the disk) and retries when the disk has room again. For a busy soul, time is what
returns: it retries after a few seconds, a few times, then leaves it to the Retry button.
"""

import shutil
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from .. import tasks

# Retry once this much more is free than when the write failed (a write of a turn needs far less).
ROOM = 1 << 20


class DiskBanner(QFrame):
    retry = Signal()  # the person pressed Retry, or space (or time) returned: send what waits in the box

    POLL_MS = 2000
    BUSY_RETRY_MS = 3000  # a busy soul: the other program's write usually ends within seconds
    BUSY_RETRIES = 3  # retries by itself in a row for a busy soul; then only the button

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("disk-banner")
        self.setStyleSheet(
            "#disk-banner { background: #fdecea; border: 1px solid #c0392b; border-radius: 4px; }"
            "#disk-banner QLabel { color: #7b241c; }"
        )
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.button = QPushButton("Retry")
        self.button.clicked.connect(self._retry)
        row = QHBoxLayout(self)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.poll = QTimer(self, interval=self.POLL_MS)
        self.poll.timeout.connect(self._check_space)
        self.later = QTimer(self, singleShot=True, interval=self.BUSY_RETRY_MS)
        self.later.timeout.connect(self._waited)
        self.folder: Path | None = None
        self.free_at_failure: int | None = None
        self.waiting = False  # a message waits in the box to be sent again
        self.busy_tries = 0  # busy failures in a row, since a turn was last saved
        self._checking = False
        self.hide()

    def show_full(self, message: str, folder: Path, waiting: bool, follow: int = 0) -> None:
        """Say `message`; `waiting`: a message waits in the box to be sent again (Retry, and retry by itself), and
        `follow` more wait to go after it. Either way the free space is watched: with room again, a waiting message
        is sent, else the banner goes."""
        self.folder = Path(folder)
        self._show(
            message
            + (" Your message is kept in the box below and is sent as soon as there is room again." if waiting else ""),
            waiting,
            follow,
        )
        self._measure()
        self.poll.start()

    def show_busy(self, message: str, waiting: bool, follow: int = 0) -> None:
        """Another program kept the soul busy: retry after a few seconds (a few times in a row), not on space."""
        self.busy_tries += 1
        by_itself = self.busy_tries <= self.BUSY_RETRIES
        if not waiting:
            note = ""
        elif by_itself:
            note = " Your message is kept in the box below and is sent again in a few seconds."
        else:
            note = " Your message is kept in the box below: press Retry to send it again."
        self._show(message + note, waiting, follow)
        if by_itself:
            self.later.start(self.BUSY_RETRY_MS)  # then: send what waits, or take the banner away

    def _show(self, text: str, waiting: bool, follow: int) -> None:
        self.clear()
        self.waiting = waiting
        if waiting and follow:
            text += (
                f" {'The message' if follow == 1 else f'The {follow} messages'} you sent after it will follow, "
                "in the order you wrote them."
            )
        self.label.setText(text)
        self.button.setVisible(waiting)
        self.free_at_failure = None
        self.show()

    def clear(self) -> None:
        self.poll.stop()
        self.later.stop()
        self.waiting = False
        self.hide()

    def saved(self) -> None:
        """A turn was saved: whatever was missing is back."""
        self.busy_tries = 0
        self.clear()

    def _retry(self) -> None:
        self.clear()
        self.retry.emit()

    def _waited(self) -> None:
        if self.waiting:
            self._retry()
        else:
            self.clear()  # only a reply was lost, and the bubble says so: nothing more to wait for

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
        at_failure = self.free_at_failure
        assert at_failure is not None  # measured() calls this only once the first measure is in
        if self.isVisible() and self.poll.isActive() and free >= at_failure + ROOM:
            self._waited()


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0
