"""A full disk during a send, in the window, on a real small filesystem (an 8 MiB tmpfs; mounting one needs root,
see tests/store/test_full_disk.py): a banner, not a dialog; the typed message goes back into the box; it is sent
by itself once space returns, or at once with Retry."""

import pytest
from PySide6.QtCore import Qt

from anima.settings import Settings
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.test_full_disk import fill


@pytest.fixture
def disk_window(qtbot, small_disk, monkeypatch):
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from ui import errors
    from ui.chat.disk_banner import DiskBanner
    from ui.window import MainWindow

    monkeypatch.setattr(DiskBanner, "POLL_MS", 100)
    dialogs = []
    monkeypatch.setattr(errors, "show", lambda parent, error, title="Anima": dialogs.append(error))
    c = Companion.create(
        Home(small_disk / "home"), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada"
    )
    c.indexer_thread.join()
    c.learns, c.reflector.every = False, 0
    w = MainWindow(c, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.worker is None, timeout=10_000)
    yield w, c, small_disk, dialogs
    (small_disk / "filler").unlink(missing_ok=True)
    w.close()
    c.close()


def typed(qtbot, w, text: str) -> None:
    w.input.setFocus()
    qtbot.keyClicks(w.input, text)
    qtbot.keyClick(w.input, Qt.Key_Return)


def said(c) -> list[str]:
    return [r["content"] for r in c.soul.query("SELECT content FROM messages ORDER BY id")]


def compared(monkeypatch) -> list[int]:
    """The free space the banner compares with the space at the failure, each time it looks (every POLL_MS)."""
    from ui.chat.disk_banner import DiskBanner

    seen, real = [], DiskBanner._compare

    def compare(banner, free: int) -> None:
        seen.append(free)
        real(banner, free)

    monkeypatch.setattr(DiskBanner, "_compare", compare)
    return seen


def test_a_full_disk_during_a_send_keeps_the_message_and_sends_it_when_space_returns(qtbot, disk_window, monkeypatch):
    w, c, disk, dialogs = disk_window
    looks = compared(monkeypatch)
    c.chat.enqueue("Glad you told me.")
    filler = fill(disk)
    typed(qtbot, w, "I moved to Lisbon")
    qtbot.waitUntil(lambda: w.disk_banner.isVisible() and w.worker is None, timeout=10_000)
    assert "disk" in w.disk_banner.label.text() and "is full" in w.disk_banner.label.text()
    assert "kept in the box" in w.disk_banner.label.text()
    assert w.input.toPlainText() == "I moved to Lisbon"  # back in the box, not lost
    assert "I moved to Lisbon" not in [b.text for b in w.transcript.bubbles]  # not shown as sent
    assert said(c) == [] and dialogs == []  # nothing half-saved; no modal error
    qtbot.waitUntil(lambda: len(looks) >= 2, timeout=10_000)
    assert w.disk_banner.isVisible() and said(c) == []  # still full: it waits
    filler.unlink()
    qtbot.waitUntil(lambda: said(c) == ["I moved to Lisbon", "Glad you told me."] and w.worker is None, timeout=10_000)
    assert not w.disk_banner.isVisible() and w.input.toPlainText() == ""
    assert [b.text for b in w.transcript.bubbles][-2:] == ["I moved to Lisbon", "Glad you told me."]
    assert dialogs == []


def test_closing_while_a_message_waits_for_room_asks_first(qtbot, disk_window, monkeypatch):
    """The banner promised to send the message in the box once there is room: closing would lose it unsaid (found
    by a helper's QA). The person is asked; Cancel keeps the window and the message, Close closes."""
    from PySide6.QtGui import QCloseEvent
    from PySide6.QtWidgets import QMessageBox

    w, _c, disk, _ = disk_window
    fill(disk)
    typed(qtbot, w, "I moved to Lisbon")
    qtbot.waitUntil(lambda: w.disk_banner.isVisible() and w.worker is None, timeout=10_000)
    asked, answer = [], [QMessageBox.Cancel]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or answer[0])
    w.quit_asked()  # the menu's Quit, Ctrl+Q
    assert len(asked) == 1 and "not been saved" in asked[0] and w.isVisible() and not w.closing
    assert w.input.toPlainText() == "I moved to Lisbon"
    event = QCloseEvent()
    event.setAccepted(True)
    monkeypatch.setattr(QCloseEvent, "spontaneous", lambda self: True)  # the title bar's close button
    w.closeEvent(event)
    assert len(asked) == 2 and not event.isAccepted() and not w.closing
    answer[0] = QMessageBox.Close
    w.quit_asked()
    assert len(asked) == 3 and w.closing and not w.isVisible()


def test_retry_sends_the_kept_message_at_once(qtbot, disk_window):
    w, c, disk, dialogs = disk_window
    c.chat.enqueue("Noted.")
    filler = fill(disk)
    typed(qtbot, w, "Remember my sister's name")
    qtbot.waitUntil(lambda: w.disk_banner.isVisible() and w.worker is None, timeout=10_000)
    assert w.disk_banner.button.isVisible()
    w.disk_banner.poll.stop()  # only the button, here
    filler.unlink()
    qtbot.mouseClick(w.disk_banner.button, Qt.LeftButton)
    qtbot.waitUntil(lambda: said(c) == ["Remember my sister's name", "Noted."] and w.worker is None, timeout=10_000)
    assert not w.disk_banner.isVisible() and dialogs == []


def test_learning_that_meets_a_full_disk_is_told_and_done_again_later(qtbot, disk_window):
    """Learning between turns on a full disk: the thread lives on, the window's status line says so, nothing is
    half-written, and the next time (with room) it learns what it could not."""
    import json

    w, c, disk, dialogs = disk_window
    c.messages.record("user", "I moved to Lisbon last spring", speaker="Ada")
    c.learns = True
    learned = json.dumps({"facts": [{"fact": "moved to Lisbon last spring", "replaces": 0}]})
    c.chat.enqueue(learned)
    filler = fill(disk)
    c.reflector.after("I moved to Lisbon last spring", "Oh, how lovely.")
    qtbot.waitUntil(lambda: "stopped: The disk is full" in w.trouble.text(), timeout=10_000)
    assert w.trouble.text().startswith("Learning about the person stopped")
    assert c.soul.query("SELECT count(*) AS n FROM memories")[0]["n"] == 0 and dialogs == []
    filler.unlink()
    c.chat.enqueue(learned)
    c.reflector.after("I moved to Lisbon last spring", "Oh, how lovely.")
    c.settle()
    assert [m["content"] for m in c.soul.query("SELECT content FROM memories")] == [
        "Moved to Lisbon last spring"
    ]  # written about them (reflect/statements.py)


def test_a_full_disk_after_the_message_was_saved_says_so_and_keeps_it_shown(qtbot, window, monkeypatch):
    """Simulated: the disk fills between the person's message and the reply. Their message stays in the transcript
    (it was saved); the reply shown is marked as not saved; the banner says so, there is nothing to send again, and
    it goes once there is room again."""
    from anima.errors import DiskFull
    from ui import errors
    from ui.chat import disk_banner

    dialogs = []
    monkeypatch.setattr(errors, "show", lambda parent, error, title="Anima": dialogs.append(error))
    free = [1000]
    monkeypatch.setattr(disk_banner, "_free", lambda folder: free[0])
    looks = compared(monkeypatch)
    window.disk_banner.poll.setInterval(100)
    c = window.companion

    def full(*args):
        raise DiskFull("The disk is full: nothing of this change was saved. Free some space and try again.")

    monkeypatch.setattr(c.conversation, "record_turn", full)
    c.chat.enqueue("A reply that cannot be saved.")
    typed(qtbot, window, "Saved before the disk filled")
    qtbot.waitUntil(lambda: window.disk_banner.isVisible() and window.worker is None, timeout=10_000)
    assert "Your message was saved; the reply was not." in window.disk_banner.label.text()
    assert not window.disk_banner.button.isVisible() and window.input.toPlainText() == ""
    mine, reply = window.transcript.bubbles[-2:]
    assert mine.text == "Saved before the disk filled" and mine.message_id is not None  # kept, and known
    assert reply.unsaved is not None and reply.unsaved.isVisible()  # the reply on screen says it was not kept
    assert reply.unsaved.text().startswith("Not saved") and reply.message_id is None
    assert said(c) == ["Saved before the disk filled"] and dialogs == []
    qtbot.waitUntil(lambda: len(looks) >= 2, timeout=10_000)
    assert window.disk_banner.isVisible()  # still full
    free[0] += disk_banner.ROOM
    qtbot.waitUntil(lambda: not window.disk_banner.isVisible(), timeout=10_000)  # room again: nothing left to say
    assert said(c) == ["Saved before the disk filled"] and window.input.toPlainText() == "" and dialogs == []
