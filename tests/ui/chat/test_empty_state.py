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


def test_beside_the_open_mind_in_a_small_window_the_empty_state_is_not_cut(qtbot, window):
    from tests.ui.conftest import settled

    window.resize(900, 600)
    window.toggle_mind()
    empty = window.transcript.empty
    qtbot.waitUntil(lambda: empty.isVisible() and window.mind is not None and window.mind.isVisible(), timeout=10_000)
    settled(qtbot)
    room = window.transcript.viewport().width()
    for part in (empty.line, *empty.openers):
        right = part.mapTo(window.transcript.viewport(), part.rect().topRight()).x()
        assert right <= room, f"{part.text()[:30]!r} ends at {right}, past the {room} px shown"
