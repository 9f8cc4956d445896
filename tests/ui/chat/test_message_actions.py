"""A message's own actions in the window, driven through its widgets on a real encrypted soul with the fake
model: edit and resend (the old pair kept, ‹ 1/2 › stepping through), regenerate, delete (forgotten in the
soul), continue a cut-off reply, and Esc stopping a reply as it streams."""

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import send


def shown(window) -> list[tuple[str, str]]:
    return [(b.role, b.text) for b in window.transcript.bubbles]


def reveal(qtbot, bubble, name: str):
    """Tab's way to a bubble's button: the bubble takes the focus, and its row shows the button."""
    bubble.window().activateWindow()
    bubble.setFocus(Qt.FocusReason.TabFocusReason)
    button = bubble.action_row.buttons[name]
    qtbot.waitUntil(button.isVisible, timeout=5_000)
    assert button.accessibleName()
    return button


def settled(qtbot, window) -> None:
    """The action's reply has ended and the history is shown again, with its versions."""
    qtbot.waitUntil(lambda: window.worker is None and not window.reading_history, timeout=20_000)
    qtbot.waitUntil(lambda: all(b.message_id is not None for b in window.transcript.bubbles), timeout=20_000)


def test_edit_and_resend_keeps_the_old_pair_and_the_stepper_goes_between_them(qtbot, window, screenshot):
    c = window.companion
    c.chat.enqueue("What is a dgo?")
    send(qtbot, window, "I have a dgo")
    sent = window.transcript.bubbles[-2]
    qtbot.mouseClick(reveal(qtbot, sent, "edit"), Qt.MouseButton.LeftButton)
    editor = sent.action_row.editor
    assert editor is not None and editor.box.toPlainText() == "I have a dgo"
    qtbot.keyClick(editor.box, Qt.Key.Key_Escape)  # Esc leaves it as it was
    qtbot.waitUntil(lambda: sent.action_row.editor is None and sent.label.isVisible())
    qtbot.mouseClick(reveal(qtbot, sent, "edit"), Qt.MouseButton.LeftButton)
    editor = sent.action_row.editor
    assert editor is not None
    editor.box.selectAll()
    c.chat.enqueue("What is your dog called?")
    qtbot.keyClicks(editor.box, "I have a dog")
    qtbot.keyClick(editor.box, Qt.Key.Key_Return)
    settled(qtbot, window)
    assert shown(window) == [("user", "I have a dog"), ("companion", "What is your dog called?")]
    stepper = window.transcript.bubbles[0].action_row
    qtbot.waitUntil(stepper.shown.isVisible)  # a bubble added to a shown transcript shows at the next turn
    assert stepper.shown.text() == "2/2"
    screenshot(window, "message-edited-2-of-2")
    assert stepper.older.isEnabled() and not stepper.newer.isEnabled()
    qtbot.mouseClick(stepper.older, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: shown(window) == [("user", "I have a dgo"), ("companion", "What is a dgo?")])
    settled(qtbot, window)
    assert window.transcript.bubbles[0].action_row.shown.text() == "1/2"
    first = window.transcript.bubbles[0].message_id
    assert c.soul.query("SELECT message_id FROM version_chosen") == [{"message_id": first}]
    # The next message goes on from the version shown.
    c.chat.enqueue("No worries.")
    send(qtbot, window, "sorry, a typo")
    prompt = [m["content"] for m in c.chat.history[-1]["messages"]]
    assert "What is a dgo?" in prompt and "I have a dog" not in prompt


def test_regenerate_makes_a_new_reply_and_keeps_the_old_one(qtbot, window):
    c = window.companion
    c.chat.enqueue("Call it Biscuit.")
    send(qtbot, window, "name my cat")
    reply = window.transcript.bubbles[-1]
    c.chat.enqueue("Call it Pepper.")
    qtbot.mouseClick(reveal(qtbot, reply, "regenerate"), Qt.MouseButton.LeftButton)
    settled(qtbot, window)
    assert shown(window) == [("user", "name my cat"), ("companion", "Call it Pepper.")]
    stepper = window.transcript.bubbles[-1].action_row
    qtbot.waitUntil(stepper.shown.isVisible)
    assert stepper.shown.text() == "2/2"
    stored = c.soul.query("SELECT content FROM messages WHERE role = 'companion' ORDER BY id")
    assert [r["content"] for r in stored] == ["Call it Biscuit.", "Call it Pepper."]


def test_delete_asks_then_forgets_the_message_in_the_soul(qtbot, window, monkeypatch):
    c = window.companion
    c.chat.enqueue("Noted: the code is 4417.")
    send(qtbot, window, "my locker is number 4417")
    sent = window.transcript.bubbles[-2]
    message_id = sent.message_id
    asked = []

    def question(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.Cancel if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    qtbot.mouseClick(reveal(qtbot, sent, "delete"), Qt.MouseButton.LeftButton)
    assert "my locker is number 4417" in asked[0]  # asked first; Cancel keeps it
    assert c.soul.query("SELECT id FROM messages WHERE id = ?", (message_id,))
    qtbot.mouseClick(reveal(qtbot, sent, "delete"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ("user", "my locker is number 4417") not in shown(window), timeout=10_000)
    settled(qtbot, window)
    assert not c.soul.query("SELECT id FROM messages WHERE content LIKE '%locker%'")
    assert not c.soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'locker'")


def test_a_cut_off_reply_is_marked_and_continue_appends_to_it(qtbot, window):
    c = window.companion
    c.reply_tokens = 4
    c.chat.enqueue("Once upon a time there was a cat.")
    send(qtbot, window, "tell me a story")
    reply = window.transcript.bubbles[-1]
    row = reply.action_row
    qtbot.waitUntil(lambda: row.ended.isVisible() and row.buttons["continue"].isVisible(), timeout=5_000)
    assert row.ended.text() == "Cut off" and reply.text.strip() == "Once upon a time"
    c.reply_tokens = 384
    c.chat.enqueue("there was a cat.")
    qtbot.mouseClick(row.buttons["continue"], Qt.MouseButton.LeftButton)
    settled(qtbot, window)
    reply = window.transcript.bubbles[-1]
    assert reply.text == "Once upon a time there was a cat." and not reply.action_row.ended.isVisible()
    assert c.soul.get("message", reply.message_id)["content"] == "Once upon a time there was a cat."


def test_esc_stops_a_streaming_reply_within_half_a_second_and_it_is_marked_stopped(qtbot, window):
    c = window.companion
    c.chat.delay = 0.1  # a slow model: ten words a second
    c.chat.enqueue(" ".join(f"Sentence {i} is here." for i in range(100)))
    window.input.setFocus()
    qtbot.keyClicks(window.input, "talk for a long time")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.transcript.streaming is not None and "Sentence 2" in window.transcript._pending)
    pressed = time.monotonic()
    qtbot.keyClick(window.input, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.worker is None, timeout=5_000)
    took = time.monotonic() - pressed
    print(f"\nEsc to the reply's end: {took:.3f} s")
    assert took < 0.5
    reply = window.transcript.bubbles[-1]
    assert reply.action_row.ended.text() == "Stopped" and reply.action_row.ended.isVisible()
    assert "Sentence 99" not in reply.text
    assert c.soul.query("SELECT ending FROM reply_endings") == [{"ending": "stopped"}]


@pytest.mark.parametrize("role", ["user", "companion"])
def test_the_right_click_menu_holds_the_actions_the_message_offers(qtbot, window, role):
    window.companion.chat.enqueue("Hello there.")
    send(qtbot, window, "hello")
    bubble = next(b for b in window.transcript.bubbles if b.role == role)
    names = [a.text() for a in bubble.action_row.menu().actions()]
    assert "Copy message" in names and "Delete message" in names
    assert ("Edit and send again" in names) == (role == "user")
    assert ("Regenerate reply" in names) == (role == "companion")


def test_copy_puts_that_message_s_text_on_the_clipboard(qtbot, window):
    from PySide6.QtGui import QGuiApplication

    window.companion.chat.enqueue("Hello there, Ada.")
    send(qtbot, window, "hello")
    reply = window.transcript.bubbles[-1]
    QGuiApplication.clipboard().setText("something else")
    qtbot.mouseClick(reveal(qtbot, reply, "copy"), Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "Hello there, Ada."


def test_the_pointer_over_a_bubble_shows_its_actions_and_off_it_hides_them(qtbot, window):
    """Hover, as a person reaches for Copy with the mouse: the reply's row shows its buttons while the pointer is
    over the bubble (its text, not the row), and hides them once it has moved off to the message box."""
    from PySide6.QtTest import QTest

    window.companion.chat.enqueue("Hello there, Ada.")
    reply = send(qtbot, window, "hello")
    copy, regenerate = reply.action_row.buttons["copy"], reply.action_row.buttons["regenerate"]
    QTest.mouseMove(window.input)
    qtbot.waitUntil(lambda: not copy.isVisible())
    QTest.mouseMove(reply.label)
    qtbot.waitUntil(lambda: copy.isVisible() and regenerate.isVisible(), timeout=5_000)
    QTest.mouseMove(window.input)
    qtbot.waitUntil(lambda: not copy.isVisible() and not regenerate.isVisible(), timeout=5_000)
