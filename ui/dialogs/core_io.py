"""Export and import of the portable core, with progress and clear errors."""

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLineEdit, QPushButton, QWidget

from anima.store import Home, Soul
from anima.store.keys import check_new_passphrase, passphrase_problem

from .form import FormDialog

if TYPE_CHECKING:
    from anima.companion import Companion


class _Progress(QObject):
    moved = Signal(int, int)


def path_row(dialog: FormDialog, label: str, save: bool) -> QLineEdit:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    field = QLineEdit()
    browse = QPushButton("Choose…")

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

    def submit(self):
        path, pw = self.path.text().strip(), self.passphrase.text()
        if not path:
            return self.say("Choose where to write the file.")
        if problem := passphrase_problem(pw, "an export passphrase", self.known):
            return self.say(problem)
        if pw != self.again.text():
            return self.say("The two export passphrases differ: type it twice the same.")
        progress = self._track()
        self.work(lambda: self.companion.export_core(path, pw, progress))


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
