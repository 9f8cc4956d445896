"""The settings' reaching-out group: it shows the limits saved, and what the person sets there is saved (off, or at
most N a day; quiet hours)."""

from PySide6.QtCore import QTime

from anima.settings import Settings
from tests.ui.dialogs.test_settings import open_dialog, save


def test_it_shows_the_defaults_one_a_day_quiet_from_ten_to_eight(qtbot):
    group = open_dialog(qtbot).reaching_out
    assert group.per_day.value() == 1 and group.per_day.text() == "1 a day at most"
    assert (group.quiet_from.time(), group.quiet_to.time()) == (QTime(22, 0), QTime(8, 0))


def test_what_is_set_there_is_saved(qtbot):
    dialog = open_dialog(qtbot)
    group = dialog.reaching_out
    group.per_day.setValue(3)
    group.quiet_from.setTime(QTime(23, 30))
    group.quiet_to.setTime(QTime(7, 15))
    assert save(qtbot, dialog) is not None
    saved = Settings.load()
    assert (saved.reach_out_per_day, saved.quiet_from, saved.quiet_to) == (3, "23:30", "07:15")

    again = open_dialog(qtbot, saved).reaching_out
    assert again.per_day.value() == 3 and again.quiet_from.time() == QTime(23, 30)


def test_off_is_zero_and_greys_the_quiet_hours(qtbot):
    dialog = open_dialog(qtbot)
    group = dialog.reaching_out
    group.per_day.setValue(0)
    assert group.per_day.text() == "Off" and not group.quiet_from.isEnabled()
    assert save(qtbot, dialog) is not None
    assert Settings.load().reach_out_per_day == 0
