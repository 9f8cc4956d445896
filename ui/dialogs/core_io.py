"""Export and import of the portable core, with progress and clear errors.

An export says where it wrote the file when it is done, and can be cancelled while it writes: the file being
written is let go (files.write_pieces_atomically), so a cancelled export leaves nothing behind.
"""

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QHBoxLayout, QLineEdit, QPushButton, QWidget

from anima.errors import KnownError
from anima.store import Home, Soul
from anima.store.keys import check_new_passphrase, passphrase_problem

from .form import FormDialog

if TYPE_CHECKING:
    from anima.companion import Companion


class ExportCancelled(KnownError):
    """The person cancelled an export while it was written."""


class _Progress(QObject):
    moved = Signal(int, int)


def path_row(dialog: FormDialog, label: str, save: bool) -> QLineEdit:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    field = QLineEdit()
    browse = QPushButton("Choose…")
    browse.setAccessibleName(f"Choose the {label.lower()}")
    field.setAccessibleName(label)
    field.textChanged.connect(lambda _: dialog.say(""))
    if dialog.first_field is None:
        dialog.first_field = field

    def choose():
        pick = QFileDialog.getSaveFileName if save else QFileDialog.getOpenFileName
        path, _ = pick(dialog, label, field.text(), "Anima core (*.anima);;All files (*)")
        if path:
            field.setText(path)

    browse.clicked.connect(choose)
    layout.addWidget(field)
    layout.addWidget(browse)
    dialog.form.addRow(label, row)
    return field


class _CoreDialog(FormDialog):
    def _track(self):
        """A progress callback that is safe to call from the worker thread."""
        signal = _Progress(self)

        def moved(done, total):
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)

        signal.moved.connect(moved)
        return lambda done, total: signal.moved.emit(int(done), int(total))


class ExportDialog(_CoreDialog):
    def __init__(self, companion: "Companion", parent=None, known: tuple[str, ...] = ()):
        """`known`: the companion's name and the person's (the names a thief would try first), read beforehand off
        the UI thread: the strength meter weighs them at every keystroke, and the soul may be busy with a turn."""
        super().__init__(
            "Export the whole soul",
            "One encrypted file holding everything your companion is and "
            "knows, protected by its own export passphrase. Carry it to another computer and import it "
            "there.",
            parent,
            "Export",
        )
        self.companion, self.known = companion, tuple(known)
        self.path = path_row(self, "File", save=True)
        self.passphrase = self.new_secret("Export passphrase", known=lambda: self.known)
        self.again = self.secret("Again")
        self.cancel = threading.Event()  # set by Cancel while the export is written
        self.written: Path | None = None  # where it was written, once it is

    def reject(self) -> None:
        """Cancel: while the file is written, stop writing it (the dialog stays, and says so); else close."""
        if self.progress.isVisible() and self.written is None:
            self.cancel.set()
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(False)
            return
        super().reject()

    def busy(self, on: bool) -> None:
        super().busy(on)
        # While it writes, Cancel stays: it stops the export.
        self.buttons.setEnabled(True)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not on)
        if not on:
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(True)  # after a cancel

    def _exported(self, path: str) -> None:
        self.written = Path(path)
        self.progress.hide()
        self.intro.setText(f"Exported to {path}. Carry that file and its export passphrase to another computer.")
        self.intro.setObjectName("done")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).hide()
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText("Close")
        cancel.setFocus()
        self.fit()

    def submit(self):
        path, pw = self.path.text().strip(), self.passphrase.text()
        if not path:
            return self.say("Choose where to write the file.")
        if problem := passphrase_problem(pw, "an export passphrase", self.known):
            return self.say(problem)
        if pw != self.again.text():
            return self.say("The two export passphrases differ: type it twice the same.")
        track, cancel = self._track(), self.cancel
        cancel.clear()

        def progress(done: int, total: int) -> None:
            if cancel.is_set():  # raised inside the writing: the file being written is let go
                raise ExportCancelled("The export was cancelled; no file was written.")
            track(done, total)

        def export() -> str:
            self.companion.export_core(path, pw, progress)
            return path

        self.work(export, then=self._exported)


class ImportDialog(_CoreDialog):
    def __init__(self, home: Home, replacing: bool, parent=None, before_swap=None):
        super().__init__(
            "Import a soul",
            "The file is checked whole before anything changes."
            + (" It will replace the companion here." if replacing else ""),
            parent,
            "Import",
        )
        self.home, self.replacing, self.before_swap = home, replacing, before_swap
        self.reopened: Soul | None = None  # the companion here, opened again after a refused swap had closed it
        self.path = path_row(self, "File", save=False)
        self.export_pass = self.secret("Its export passphrase")
        # Replacing proves ownership with the passphrase it has; a new home chooses one, and sees its strength.
        self.passphrase = (
            self.secret("This companion's passphrase") if replacing else self.new_secret("New passphrase here")
        )

    def submit(self):
        path, ex, pw = self.path.text().strip(), self.export_pass.text(), self.passphrase.text()
        if not path or not ex or not pw:
            return self.say("Fill in the file and both passphrases.")
        if not self.replacing and (problem := passphrase_problem(pw, "a passphrase for this computer")):
            return self.say(problem)
        progress = self._track()
        swapping = []

        def before_swap():
            swapping.append(True)
            if self.reopened is not None:  # opened again after an earlier try's refused swap: it goes too
                self.reopened.close()
                self.reopened = None
            if self.before_swap is not None:
                self.before_swap()

        def run():
            # The names a thief tries first are inside the core: the passphrase is judged once it is read.
            try:
                self.home.import_core(
                    path,
                    ex,
                    pw,
                    replace=self.replacing,
                    progress=progress,
                    before_swap=before_swap,
                    judge_new=lambda names: check_new_passphrase(pw, "a passphrase for this computer", names),
                )
            except Exception:
                if swapping and self.replacing and self.home.exists():
                    # The companion here was closed for the swap, and the swap was refused (another program has
                    # it open, a full disk): it is as it was, and opened again for the window (reopened).
                    self.reopened = self.home.unlock(pw)
                raise
            return self.home.unlock(pw)  # the imported soul, open

        self.work(run)
