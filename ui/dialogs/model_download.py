"""Downloading one catalogue model, as the Settings and the Choose-the-mind dialogs both offer it: a Download and
a Cancel button, a progress bar and a status line under them.

The download runs in a thread of its own (the window never waits on the network or the disk), through
anima/models/download.py: it can be cancelled, and goes on from where it stopped the next time. The dialog says
which model and where, and what to do once it is downloaded and checked (the `downloaded` signal, with its path).
"""

import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from anima.errors import KnownError
from anima.models.catalogue import CatalogueModel

from .. import tasks

_running: set = set()  # downloads still finishing after their dialog closed (a cancel ends them at the next chunk)


class Download(QThread):
    """One catalogue model downloading: `progressed(done, total)`, then `downloaded(path)` or `failed(error)`."""

    progressed = Signal(object, object)  # objects: a size past 2 GB does not fit Qt's int
    downloaded = Signal(object)
    failed = Signal(object)

    def __init__(self, model, dest):
        super().__init__()
        self.model, self.dest, self.cancel = model, dest, threading.Event()
        _running.add(self)
        self.finished.connect(lambda: _running.discard(self))

    def run(self):
        from anima.models.download import download

        try:
            path = download(
                self.model.url,
                self.dest,
                size=self.model.size,
                sha256=self.model.sha256,
                progress=self.progressed.emit,
                cancel=self.cancel,
            )
        except Exception as e:  # shown in the dialog; a bug is re-raised there
            tasks.note(e, __traceback_text__=traceback.format_exc())
            self.failed.emit(e)
        else:
            self.downloaded.emit(path)


class DownloadPanel(QWidget):
    """The buttons, the progress bar and the status line of a catalogue model's download.

    `download_text`: the Download button's words; `done_text`: the status line's once it is downloaded, with the
    model's {name}; `say(text, error)`: how the status line is set when the download starts, ends or fails (by
    default its text, nothing more). `row` holds the two buttons: a dialog may add its own after them. The dialog
    connects the Download button to what picks the model, which then calls `start`."""

    downloaded = Signal(object)  # the path of the model file, downloaded and checked

    def __init__(
        self,
        download_text: str = "Download",
        done_text: str = "{name} is downloaded and checked.",
        say: Callable[[str, bool], None] | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.done_text = done_text
        self.downloading: Download | None = None
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        self.row = QHBoxLayout()
        self.download_button = QPushButton(download_text)
        self.cancel_button = QPushButton("Cancel download")
        self.cancel_button.setEnabled(False)
        self.row.addWidget(self.download_button)
        self.row.addWidget(self.cancel_button)
        col.addLayout(self.row)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)  # thousandths: a byte count past 2 GB does not fit Qt's int
        self.progress.hide()
        col.addWidget(self.progress)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        col.addWidget(self.status)
        self.say: Callable[[str, bool], None] = say or self._set_status
        self.cancel_button.clicked.connect(self.cancel)

    def _set_status(self, text: str, error: bool) -> None:
        self.status.setText(text)

    def start(self, model: CatalogueModel, dest: Path) -> None:
        """Download `model` to `dest` (what came before a cancel is kept, and it goes on from there)."""
        if self.downloading is not None:
            return
        self.downloading = Download(model, dest)
        self.downloading.progressed.connect(tasks.while_open(self, self._progressed))
        self.downloading.downloaded.connect(tasks.while_open(self, self._downloaded))
        self.downloading.failed.connect(tasks.while_open(self, self._failed))
        self.download_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.show()
        self.say(f"Downloading {model.name}…", False)
        self.downloading.start()

    def cancel(self) -> None:
        if self.downloading is not None:
            self.downloading.cancel.set()

    def _progressed(self, done: int, total: int | None) -> None:
        if total and self.downloading is not None:
            self.progress.setValue(int(1000 * done / total))
            self.status.setText(
                f"Downloading {self.downloading.model.name}: {done / 1e6:,.0f} of {total / 1e6:,.0f} MB"
            )

    def _over(self) -> None:
        self.downloading = None
        self.download_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _downloaded(self, path) -> None:
        assert self.downloading is not None  # the download that ended
        name = self.downloading.model.name
        self._over()
        self.progress.setValue(1000)
        self.say(self.done_text.format(name=name), False)
        self.downloaded.emit(path)

    def _failed(self, error) -> None:
        self._over()
        self.progress.hide()
        if not isinstance(error, KnownError):
            raise error
        self.say(str(error), True)
