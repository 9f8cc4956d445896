"""Help: the shortcut sheet, made from the shortcuts the window really has, and About."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication


def test_ctrl_slash_opens_the_shortcut_sheet_made_from_the_real_shortcuts(qtbot, window, monkeypatch, screenshot):
    from ui.help import ShortcutSheet

    shown = []

    def exec_(sheet):
        shown.append(sheet.rows())
        screenshot(sheet, "shortcut-sheet")
        return 0

    monkeypatch.setattr(ShortcutSheet, "exec", exec_)
    window.activateWindow()  # a shortcut goes to the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    window.input.setFocus()
    qtbot.keyClick(window.input, Qt.Key_Slash, Qt.ControlModifier)
    qtbot.waitUntil(lambda: bool(shown), timeout=5_000)
    rows = dict((what, keys) for keys, what in shown[0])
    assert rows["Send the message"] == "Enter"
    # Each action's own shortcut, as the action has it: the sheet and the menus cannot disagree.
    for name, action in window.actions_by_name.items():
        if not action.shortcut().isEmpty():
            plain = action.text().replace("&", "").rstrip("…")
            assert rows.get(plain) == action.shortcut().toString(QKeySequence.NativeText), name


def test_about_names_the_version_the_model_and_the_data_folder(window, monkeypatch):
    from anima import __version__
    from ui.help import AboutDialog

    shown = []
    monkeypatch.setattr(AboutDialog, "exec", lambda dialog: shown.append(dialog.text.text()))
    window.actions_by_name["show_about"].trigger()
    [text] = shown
    assert f"Anima {__version__}" in text
    assert window.companion.model_name in text
    assert str(window.companion.home.dir) in text
    assert "Licence:" in text
