"""Work off the UI thread: its result or its error comes back on the UI thread, the error with the traceback the
crash handler shows; a widget deleted meanwhile is not told."""

import threading

import shiboken6
from PySide6.QtWidgets import QLabel

from ui import tasks


def test_the_result_comes_back_on_the_ui_thread_from_a_pool_thread(qtbot):
    ran_on: list[int] = []
    told: list[tuple[int, int]] = []

    def work() -> int:
        ran_on.append(threading.get_ident())
        return 42

    tasks.run(work, lambda result: told.append((result, threading.get_ident())))
    qtbot.waitUntil(lambda: bool(told))
    assert told == [(42, threading.get_ident())] and ran_on != [threading.get_ident()]
    qtbot.waitUntil(lambda: not tasks._keep)  # let go once it has told


def test_an_error_comes_back_with_its_traceback(qtbot):
    failed: list[BaseException | str] = []
    tasks.run(lambda: 1 / 0, lambda _: failed.append("done was called"), failed.append)
    qtbot.waitUntil(lambda: bool(failed))
    [error] = failed
    assert isinstance(error, ZeroDivisionError) and "ZeroDivisionError" in vars(error)["__traceback_text__"]


def test_a_widget_deleted_while_the_work_ran_is_not_told(qtbot):
    label, may_end = QLabel(), threading.Event()
    told: list[object] = []
    signals = tasks.run(lambda: may_end.wait(10), told.append, told.append, parent=label)
    ended: list[object] = []
    signals.done.connect(ended.append)
    label.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(label))
    may_end.set()
    qtbot.waitUntil(lambda: bool(ended))
    assert told == []


def test_an_answer_reaches_a_dialog_only_while_it_is_open_and_a_bug_is_never_lost_with_it(qtbot):
    import pytest
    from PySide6.QtWidgets import QDialog

    from anima.errors import WrongPassphrase
    from ui.tasks import while_open

    dialog = QDialog()
    got = []
    answer = while_open(dialog, got.append)
    answer("measured")
    assert got == ["measured"]
    shiboken6.delete(dialog)
    answer("too late")  # closed meanwhile: nothing to show it on
    answer(WrongPassphrase("known: the person was told where it happened"))
    assert got == ["measured"]
    with pytest.raises(KeyError):
        answer(KeyError("a bug"))
