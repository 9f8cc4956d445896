"""The window's status line says when work between turns failed (a bug), not only the log."""

import threading

from anima.settings import Settings

FAILED = "learning about the person failed (a bug; see the log)"


def test_a_background_failure_reaches_the_status_line_from_another_thread(qtbot, fake_companion, monkeypatch):
    from ui.window import MainWindow

    subscribed = []
    # The companion's callback list, as the core keeps it: called from its background thread.
    monkeypatch.setattr(fake_companion, "on_background_failure", subscribed.append, raising=False)
    shown_on = []
    show = MainWindow.show_background_failure

    def recording(self, what):
        shown_on.append(threading.current_thread())
        show(self, what)

    monkeypatch.setattr(MainWindow, "show_background_failure", recording)
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert len(subscribed) == 1
    assert w.trouble.text() == ""
    worker = threading.Thread(target=subscribed[0], args=(FAILED,))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: w.trouble.text() == FAILED)
    assert w.trouble.isVisible()
    assert shown_on == [threading.main_thread()]  # marshalled to the UI thread before it touched a widget


def test_the_status_line_shows_the_failure_and_clears_for_another_soul(qtbot, window):
    window.show_background_failure(FAILED)
    assert window.trouble.text() == FAILED and window.trouble.isVisible()
    window.set_companion(window.companion)
    assert window.trouble.text() == ""
