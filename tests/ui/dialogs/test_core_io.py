"""Exporting the whole soul: it says where the file went when it is done, and Cancel stops it midway with
nothing left behind."""

import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from ui.dialogs.core_io import ExportDialog


def filled(qtbot, companion, path) -> ExportDialog:
    dialog = ExportDialog(companion)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.path.setText(str(path))
    dialog.passphrase.setText("export passphrase")
    dialog.again.setText("export passphrase")
    return dialog


def test_an_export_says_where_it_wrote_the_file_and_stays_until_closed(qtbot, companion, tmp_path, screenshot):
    core = tmp_path / "ada.anima"
    dialog = filled(qtbot, companion, core)
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=30_000)
    assert core.exists() and dialog.isVisible()
    assert dialog.intro.text().startswith(f"Exported to {core}.")
    close = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert close.text() == "Close" and not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isVisible()
    screenshot(dialog, "export-done")
    qtbot.mouseClick(close, Qt.LeftButton)
    assert not dialog.isVisible()


def test_cancel_stops_an_export_midway_and_leaves_no_file(qtbot, companion, tmp_path, monkeypatch):
    """The export is held at its first progress until Cancel is pressed; then the real writing goes on and
    stops at that progress, and the half-written file goes."""
    core = tmp_path / "ada.anima"
    for i in range(50):
        companion.memories.remember(f"Ada remembers thing number {i}")
    at_progress, pressed = threading.Event(), threading.Event()
    real = companion.export_core

    def held(path, passphrase, progress=None):
        def first_held(done, total):
            at_progress.set()
            pressed.wait(30)
            progress(done, total)

        return real(path, passphrase, first_held)

    monkeypatch.setattr(companion, "export_core", held)
    dialog = filled(qtbot, companion, core)
    dialog.submit()
    qtbot.waitUntil(at_progress.is_set, timeout=30_000)
    cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.isEnabled()  # while it writes
    qtbot.mouseClick(cancel, Qt.LeftButton)
    pressed.set()
    qtbot.waitUntil(lambda: dialog.error.isVisible(), timeout=30_000)
    assert "cancelled" in dialog.error.text() and dialog.isVisible()
    assert list(tmp_path.glob("*ada.anima*")) == []  # neither the file nor a part of it (.ada.anima.<pid>…)
    assert cancel.isEnabled()
    qtbot.mouseClick(cancel, Qt.LeftButton)  # now it closes
    assert not dialog.isVisible()
