"""What every dialog here shares: a form, an error line that says what is wrong, and a busy state.

A dialog grows to its text: a wrapped line that gets longer (a passphrase's strength, an error) makes it taller
rather than cut. It opens with the focus in its first field (or the one it names), so typing goes there; each
field is named for screen readers by its label. What the error line says goes as soon as a field is changed:
a refusal stays no longer than what it refused.
"""

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QTimer
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

from .. import access, tasks, theme
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
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.intro.setVisible(bool(intro))
        layout.addWidget(self.intro)
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
        self.first_field: QWidget | None = None  # where the focus is when it opens: the first field, unless set
        self.setMinimumWidth(440)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        access.name_controls(self)
        if self.first_field is not None:
            self.first_field.setFocus()
            if isinstance(self.first_field, QLineEdit):
                self.first_field.selectAll()  # a value already there (a default name) is replaced by typing
        self.activateWindow()  # opened from the window's event loop: typing goes here, not nowhere
        self.fit()

    def fit(self) -> None:
        """Grow (never shrink) to what the text needs at this width; once the layout has taken the new text."""
        QTimer.singleShot(0, self, self._fit)

    def _fit(self) -> None:
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        need = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else 0
        need = max(need, layout.totalMinimumSize().height())
        if need > self.height():
            self.resize(self.width(), need)

    def _field(self, label: str, field: Field) -> Field:
        """A field in the form, named by its label, that takes the focus first if it is the first."""
        field.setAccessibleName(label)
        field.textChanged.connect(lambda _: self.say(""))
        if self.first_field is None:
            self.first_field = field
        self.form.addRow(label, field)
        return field

    def secret(self, label: str) -> QLineEdit:
        return self._secret(label, QLineEdit())

    def _secret(self, label: str, field: Field) -> Field:
        field.setEchoMode(QLineEdit.EchoMode.Password)
        return self._field(label, field)

    def new_secret(self, label: str, known: Callable[[], tuple[str, ...]] = tuple) -> NewSecret:
        """A passphrase being chosen: its field, with its strength shown beneath as the person types (`known`:
        the names a thief would try first). The rule itself is asked on submit (keys.passphrase_problem)."""
        field = self._secret(label, NewSecret())
        field.meter = StrengthMeter(field, known)
        self.form.addRow("", field.meter)
        field.textChanged.connect(self.fit)  # after the meter's own: its new text is set
        return field

    def heading(self, text: str) -> QLabel:
        """A section's title across the form: a long form read as groups (the model, a server, this computer,
        the look), as settings windows are."""
        label = QLabel(text)
        label.setObjectName("form-heading")  # the theme's type scale sizes it (ui/theme.py)
        label.setContentsMargins(0, 10, 0, 2)
        self.form.addRow(label)
        return label

    def text(self, label: str, value: str = "") -> QLineEdit:
        return self._field(label, QLineEdit(value))

    def say(self, message: str) -> None:
        if message == self.error.text() and self.error.isVisible() == bool(message):
            return
        self.error.setText(message)
        self.error.setVisible(bool(message))
        self.fit()

    def busy(self, on: bool) -> None:
        self.buttons.setEnabled(not on)
        self.progress.setVisible(on)
        if on:
            self.progress.setRange(0, 0)

    def work(self, fn, then: Callable | None = None) -> None:
        """Run fn off the UI thread, then close with its value (or `then(value)`: the dialog stays); a KnownError
        is shown in the form, the dialog stays open."""
        self.say("")
        self.busy(True)

        def done(value):
            self.busy(False)
            self.result_value = value
            if then is not None:
                then(value)
            else:
                self.accept()

        def failed(error):
            self.busy(False)
            if not isinstance(error, KnownError):
                raise error
            self.say(str(error))

        tasks.run(fn, done, failed, self)

    def submit(self) -> None:  # overridden
        self.accept()
