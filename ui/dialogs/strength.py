"""The strength of a passphrase being chosen, shown under its field as the person types (store/strength.py)."""

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QLineEdit

from anima.store import strength

from .. import theme

# The theme's tone for each zxcvbn score, from very weak to very strong.
_TONES = ("error", "error", "warning", "success", "success")


class StrengthMeter(QLabel):
    """Follows one passphrase field. zxcvbn takes 1-5 ms on a 72-character passphrase (measured on two cores),
    so estimating on every keystroke keeps up with typing without a thread."""

    def __init__(self, field: QLineEdit, known: Callable[[], tuple[str, ...]] = tuple):
        super().__init__()
        self.setObjectName("strength")
        self.setWordWrap(True)
        self._known = known
        self.estimate: strength.Strength | None = None
        field.textChanged.connect(self.follow)
        self.follow(field.text())

    def follow(self, passphrase: str) -> None:
        if not passphrase:
            self.estimate = None
            self.setText("")
            return
        self.estimate = found = strength.estimate(passphrase, self._known())
        self.setText(f"Strength: {found}")
        theme.tone(self, _TONES[found.score])
