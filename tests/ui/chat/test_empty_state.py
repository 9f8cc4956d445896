"""A new conversation shows who the companion is and openers; one clicked waits in the message box."""

from PySide6.QtCore import Qt

from tests.ui.conftest import send
from ui.chat.empty_state import OPENERS


def test_a_new_conversation_shows_the_companion_and_openers_until_the_first_message(qtbot, window, screenshot):
    empty = window.transcript.empty
    qtbot.waitUntil(empty.isVisible, timeout=10_000)
    assert empty.title.text() == window.companion.name
    assert [b.text() for b in empty.openers] == list(OPENERS)
    assert all(b.isVisible() for b in empty.openers)
    qtbot.mouseClick(empty.openers[2], Qt.LeftButton)
    assert window.input.toPlainText() == OPENERS[2]  # in the box, not sent: it can be changed first
    assert window.transcript.bubbles == []
    window.input.clear()
    window.companion.chat.enqueue("Gladly.")
    send(qtbot, window, "Hello")
    assert not empty.isVisible()


def test_a_conversation_with_history_shows_no_empty_state(qtbot, fake_companion):
    from anima.settings import Settings
    from ui.window import MainWindow

    fake_companion.messages.record("user", "We talked before.")
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.reading_history and len(w.transcript.bubbles) == 1, timeout=10_000)
    assert not w.transcript.empty.isVisible()
