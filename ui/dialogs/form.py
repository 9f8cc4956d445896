"""What every dialog here shares: a form, an error line that says what is wrong, and a busy state."""

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from anima.errors import KnownError

from .. import tasks, theme
from .strength import StrengthMeter


class NewSecret(QLineEdit):
    """The field of a passphrase being chosen, with the meter of its strength."""

    meter: StrengthMeter


Field = TypeVar("Field", bound=QLineEdit)


class FormDialog(QDialog):
    def __init__(self, title: str, intro: str = "", parent: QWidget | None = None, ok_text: str = "OK"):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        layout = QVBoxLayout(self)
        if intro:
            text = QLabel(intro)
            text.setWordWrap(True)
            layout.addWidget(text)
        self.form = QFormLayout()
        layout.addLayout(self.form)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        theme.tone(self.error, "error")
        self.error.hide()
        layout.addWidget(self.error)
        self.progress = QProgressBar()
        self.progress.hide()
        layout.addWidget(self.progress)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.result_value = None

    def secret(self, label: str) -> QLineEdit:
        return self._secret(label, QLineEdit())

    def _secret(self, label: str, field: Field) -> Field:
        field.setEchoMode(QLineEdit.EchoMode.Password)
        self.form.addRow(label, field)
        return field

    def new_secret(self, label: str, known: Callable[[], tuple[str, ...]] = tuple) -> NewSecret:
        """A passphrase being chosen: its field, with its strength shown beneath as the person types (`known`:
        the names a thief would try first). The rule itself is asked on submit (keys.passphrase_problem)."""
        field = self._secret(label, NewSecret())
        field.meter = StrengthMeter(field, known)
        self.form.addRow("", field.meter)
        return field

    def text(self, label: str, value: str = "") -> QLineEdit:
        field = QLineEdit(value)
        self.form.addRow(label, field)
        return field

    def say(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def busy(self, on: bool) -> None:
        self.buttons.setEnabled(not on)
        self.progress.setVisible(on)
        if on:
            self.progress.setRange(0, 0)

    def work(self, fn) -> None:
        """Run fn off the UI thread; a KnownError is shown in the form, the dialog stays open."""
        self.say("")
        self.busy(True)

        def done(value):
            self.busy(False)
            self.result_value = value
            self.accept()

        def failed(error):
            self.busy(False)
            if not isinstance(error, KnownError):
                raise error
            self.say(str(error))

        tasks.run(fn, done, failed, self)

    def submit(self) -> None:  # overridden
        self.accept()
