"""What every dialog shares: it grows to its text, opens with the focus where typing belongs, and a refusal
goes once what it refused is changed."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from anima.store import Home
from tests.conftest import PASSPHRASE
from ui.dialogs.core_io import ExportDialog
from ui.dialogs.unlock import FirstRunDialog, UnlockDialog


def cut(dialog) -> list[str]:
    """The labels shown that are smaller than their text needs: a wrapped one shorter than its height for its
    width, another narrower or shorter than its size hint."""
    found = []
    for label in dialog.findChildren(QLabel):
        if not label.isVisibleTo(dialog) or not label.text():
            continue
        if label.wordWrap():
            short = label.height() < label.heightForWidth(label.width())
        else:
            hint = label.sizeHint()
            short = label.width() < hint.width() or label.height() < hint.height()
        if short:
            found.append(label.text())
    return found


def shown(qtbot, dialog):
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_strength_text_is_never_cut_at_first_run(qtbot, anima_home, screenshot):
    """QA: "This is a very" and no more, under the passphrase at first run."""
    dialog = shown(qtbot, FirstRunDialog(Home(anima_home)))
    qtbot.waitUntil(lambda: not cut(dialog), timeout=5_000)
    height = dialog.height()
    dialog.passphrase.setText("password1")  # the longest advice zxcvbn gives: a very common password
    meter = dialog.passphrase.meter
    assert "common" in meter.text()
    qtbot.waitUntil(lambda: not cut(dialog), timeout=5_000)
    assert dialog.height() > height  # it grew to say it all
    screenshot(dialog, "first-run-strength-whole")


def test_the_strength_text_is_never_cut_at_export(qtbot, companion):
    dialog = shown(qtbot, ExportDialog(companion))
    dialog.passphrase.setText("password1")
    qtbot.waitUntil(lambda: not cut(dialog), timeout=5_000)


def test_the_unlock_intro_stays_whole_after_a_wrong_passphrase(qtbot, anima_home, screenshot):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    dialog = shown(qtbot, UnlockDialog(home))
    dialog.passphrase.setText("not it")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.error.isVisible(), timeout=10_000)
    qtbot.waitUntil(lambda: not cut(dialog), timeout=5_000)
    assert dialog.intro.isVisible() and dialog.intro.height() >= dialog.intro.heightForWidth(dialog.intro.width())
    screenshot(dialog, "unlock-wrong-passphrase-whole")


def test_a_refusal_goes_once_the_passphrase_it_refused_is_changed(qtbot, anima_home):
    """QA: a red "harder to guess" stayed under a passphrase the meter called Very strong."""
    dialog = shown(qtbot, FirstRunDialog(Home(anima_home)))
    dialog.passphrase.setText("password1")
    dialog.again.setText("password1")
    dialog.submit()
    assert dialog.error.isVisible() and "harder to guess" in dialog.error.text()
    dialog.passphrase.setText("tangerine lighthouse orbit")
    assert dialog.passphrase.meter.text().startswith("Strength: Very strong")
    assert not dialog.error.isVisible()


def test_the_error_line_is_in_the_error_colour(qtbot, anima_home):
    from PySide6.QtGui import QColor

    from ui import theme

    dialog = shown(qtbot, UnlockDialog(Home(anima_home)))
    for choice in ("light", "dark"):  # the theme's error colour, whichever is in use
        theme.use(choice)
        dialog.error.ensurePolished()
        assert dialog.error.palette().color(dialog.error.foregroundRole()) == QColor(theme.THEMES[choice].error)
    theme.use("system")


def test_typing_right_after_the_unlock_dialog_opens_goes_into_the_passphrase(qtbot, anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    dialog = shown(qtbot, UnlockDialog(home))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.passphrase, timeout=5_000)
    QTest.keyClicks(QApplication.focusWidget(), "typed at once")  # wherever the focus is, as a keyboard does
    assert dialog.passphrase.text() == "typed at once"


def test_first_run_opens_in_the_passphrase_and_tab_goes_on_to_again(qtbot, anima_home):
    dialog = shown(qtbot, FirstRunDialog(Home(anima_home)))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.passphrase, timeout=5_000)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Tab)
    assert QApplication.focusWidget() is dialog.again
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Backtab)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Backtab)
    assert QApplication.focusWidget() is dialog.user_name


def test_settings_open_on_the_catalogue_and_export_on_its_file(qtbot, companion):
    from anima.settings import Settings
    from ui.dialogs.settings import SettingsDialog

    settings = shown(qtbot, SettingsDialog(Settings()))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is settings.catalogue, timeout=5_000)
    settings.close()
    export = shown(qtbot, ExportDialog(companion))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is export.path, timeout=5_000)
