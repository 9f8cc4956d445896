"""The File menu's character cards and lorebooks: a preview of what will come in before anything is applied.

The reading, the plan and the import run off the UI thread (tasks.run); a card that cannot come in is shown
as the one line the core says, and nothing is changed.
"""

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QVBoxLayout

from anima.interchange import cards

from .. import errors, tasks

if TYPE_CHECKING:
    from anima.companion import Companion

CARD_FILTER = "Character cards (*.png *.json);;All files (*)"
LOREBOOK_FILTER = "Lorebooks (*.json *.png);;All files (*)"


class PreviewDialog(QDialog):
    """What an import will bring, for the person to read before it is applied."""

    def __init__(self, title: str, lines: list[str], picture: bytes = b"", parent=None, card: str = ""):
        """`card`: the name of a card's character. Its import makes a new companion by default; bringing it into
        the one shown instead (its name and persona replaced) is asked for apart, and confirmed."""
        super().__init__(parent)
        self.card = card
        self.replacing = False
        self.setWindowTitle(title)
        self.resize(640, 520)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        if picture:
            image = QLabel()
            image.setObjectName("card-picture")
            pixmap = QPixmap()
            if pixmap.loadFromData(picture):
                image.setPixmap(
                    pixmap.scaled(
                        120, 180, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                    )
                )
                top.addWidget(image)
        intro = QLabel(
            "This is what will come in. Text from a card is information about the character: it never "
            "changes the guardrails, and what reads as an instruction stays out of the persona."
        )
        intro.setWordWrap(True)
        top.addWidget(intro, 1)
        layout.addLayout(top)
        self.text = QPlainTextEdit("\n".join(lines))
        self.text.setObjectName("card-preview")
        self.text.setAccessibleName("What will come in")
        self.text.setReadOnly(True)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import as a new companion" if card else "Import")
        if card:
            self.replace_button = buttons.addButton(
                "Replace this companion instead", QDialogButtonBox.ButtonRole.ActionRole
            )
            self.replace_button.setObjectName("replace-companion")
            self.replace_button.clicked.connect(self.replace_instead)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def replace_instead(self) -> None:
        """Bring the card into the companion shown, once the person confirms it: what it was called and its persona
        are the card's from then on."""
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(
            self,
            "Replace this companion?",
            f"{self.card} takes the place of the companion you have open: its name and its persona become the "
            "card's (what it remembers stays). Import the card as a new companion instead to keep it as it is. "
            "Replace it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.replacing = True
            self.accept()


def _ready(window) -> bool:
    if window.companion is None:
        return False
    if window.worker is not None:
        window.statusBar().showMessage("Busy with a reply: try again when it has ended.", 4000)
        return False
    return True


def _applied(companion: "Companion", apply):
    """Off the UI thread: apply(), then what the window shows after it (the name and the picture read the soul)."""
    done = apply()
    return done, companion.name, companion.characters.avatar()


def _refresh(window, companion: "Companion", applied, said) -> None:
    """After an import: the name, the picture, the conversation as stored (the greeting) and the Open Mind.
    `said(done)`: the status line."""
    done, name, picture = applied
    if companion is not window.companion:
        return
    window.show_looks(name, picture)
    window.show_history(same_soul=True)
    window.refresh_mind()
    window.statusBar().showMessage(said(done), 12000)


def import_card(window, path: str | None = None) -> None:
    """File ▸ Import character card…: choose, preview, then import."""
    if not _ready(window):
        return
    if path is None:
        path, _ = QFileDialog.getOpenFileName(window, "Import a character card", "", CARD_FILTER)
        if not path:
            return
    companion = window.companion

    def bring(target: "Companion", plan, again: bool) -> None:
        """Apply the card to `target` off the UI thread; `again`: planned anew against it (a new companion: the
        plan previewed was made against the one shown then). What was not taken in or not kept is said again
        after it, as the terminal does."""

        def apply():
            planned = target.characters.plan(plan.card) if again else plan
            return _applied(target, lambda: target.characters.apply(planned))

        tasks.run(
            apply,
            lambda applied: _refresh(
                window,
                target,
                applied,
                lambda done: " ".join([f"Imported {plan.name}, with {done.summary()}.", *plan.notices()]),
            ),
            lambda e: errors.show(window, e),
            window,
        )

    def previewed(plan) -> None:
        dialog = PreviewDialog(f"Import {Path(path).name}", plan.lines(), plan.card.avatar, window, card=plan.name)
        if not dialog.exec():
            return
        if dialog.replacing:
            bring(companion, plan, again=False)
        else:  # a companion of its own, which the window then shows; the one shown stays as it was
            from .companions import new_companion

            new_companion(window, plan.name, then=lambda new: bring(new, plan, again=True))

    tasks.run(lambda: companion.characters.plan(cards.read(path)), previewed, lambda e: errors.show(window, e), window)


def import_lorebook(window, path: str | None = None) -> None:
    """File ▸ Import lorebook…: its entries as world cards, disabled ones disabled."""
    if not _ready(window):
        return
    if path is None:
        path, _ = QFileDialog.getOpenFileName(window, "Import a lorebook", "", LOREBOOK_FILTER)
        if not path:
            return
    companion = window.companion

    def read():
        book = cards.read_lorebook(path)
        return book, companion.characters.book_lines(book)

    def previewed(loaded) -> None:
        book, lines = loaded
        if PreviewDialog(f"Import {Path(path).name}", lines, parent=window).exec():
            tasks.run(
                lambda: _applied(companion, lambda: companion.characters.import_lorebook(book, Path(path).name)),
                lambda applied: _refresh(window, companion, applied, lambda done: f"Imported {done.summary()}."),
                lambda e: errors.show(window, e),
                window,
            )

    tasks.run(read, previewed, lambda e: errors.show(window, e), window)


def export_card(window, path: str | None = None) -> None:
    """File ▸ Export character card…: a v2 card (PNG or JSON by the name's ending), world cards as its lorebook."""
    if window.companion is None:
        return
    if path is None:
        path, _ = QFileDialog.getSaveFileName(
            window, "Export as a character card", f"{window.companion.name}.png", "PNG card (*.png);;JSON card (*.json)"
        )
        if not path:
            return
    companion = window.companion

    def write():
        return companion.characters.write(path), companion.characters.export_notices()

    def written(done) -> None:
        card, notices = done
        entries = len((card["data"].get("character_book") or {}).get("entries", []))
        window.statusBar().showMessage(
            " ".join(
                [f"Wrote {card['data']['name']} to {path} (not encrypted), with {entries} lorebook entries.", *notices]
            ),
            12000,
        )

    tasks.run(write, written, lambda e: errors.show(window, e), window)
