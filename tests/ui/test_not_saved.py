"""A turn the soul could not save, simulated in the companion's turn: another program kept the soul busy
(SoulBusy), or the disk filled (DiskFull). The typed message goes back into the box and is sent again; messages
sent behind it stay apart and go out after it, in order. (tests/ui/test_disk_full.py: a real full disk.)"""

import threading

import pytest
from PySide6.QtCore import Qt

from anima.errors import DiskFull, SoulBusy
from tests.ui.conftest import settled
from tests.ui.test_disk_full import said, typed

BUSY = SoulBusy(
    "Another program on this soul kept it busy for over 5 s: nothing of this change was saved. Try again in a moment."
)
FULL = DiskFull("The disk is full: nothing of this change was saved. Free some space and try again.")


@pytest.fixture
def dialogs(monkeypatch):
    from ui import errors

    shown = []
    monkeypatch.setattr(errors, "show", lambda parent, error, title="Anima": shown.append(error))
    return shown


def shown(w) -> list[str]:
    return [b.text for b in w.transcript.bubbles]


def failing_first(monkeypatch, c, error, before=None):
    """The companion's turn raises `error` the first time (after `before` is set, when given), then turns."""
    real, calls = c.turn, []

    def turn(text, cancel=None, external=()):
        calls.append(text)
        if len(calls) == 1:
            if before is not None:
                before.wait(10)
            raise error
        return real(text, cancel, external=external)

    monkeypatch.setattr(c, "turn", turn)
    return calls


def test_a_busy_soul_keeps_the_message_and_sends_it_again_by_itself(qtbot, window, dialogs, monkeypatch):
    from ui.chat.disk_banner import DiskBanner

    monkeypatch.setattr(DiskBanner, "BUSY_RETRY_MS", 300)
    c = window.companion
    failing_first(monkeypatch, c, BUSY)
    c.chat.enqueue("Bea, got it.")
    typed(qtbot, window, "my sister is called Bea")
    qtbot.waitUntil(lambda: window.disk_banner.isVisible() and window.worker is None, timeout=10_000)
    text = window.disk_banner.label.text()
    assert "busy" in text and "sent again in a few seconds" in text
    assert "disk" not in text and "room" not in text  # not about a full disk
    assert window.disk_banner.button.isVisible()  # Retry, for the impatient
    assert window.input.toPlainText() == "my sister is called Bea"  # back in the box, not lost
    assert shown(window) == [] and said(c) == [] and dialogs == []  # no bubble as sent, none stuck on "…"
    qtbot.waitUntil(
        lambda: said(c) == ["my sister is called Bea", "Bea, got it."] and window.worker is None, timeout=10_000
    )
    assert not window.disk_banner.isVisible() and window.input.toPlainText() == ""
    assert shown(window) == ["my sister is called Bea", "Bea, got it."] and dialogs == []


def test_messages_sent_behind_a_failed_one_stay_apart_and_go_out_after_it(qtbot, window, dialogs, monkeypatch):
    """A's turn meets a full disk while B waits behind it: A goes back to the box, B stays queued; Retry sends A,
    then B, each answered, as two messages in the order they were written."""
    c = window.companion
    b_queued = threading.Event()
    failing_first(monkeypatch, c, FULL, before=b_queued)
    c.chat.enqueue("Answer to A.", "Answer to B.")
    typed(qtbot, window, "message A")
    typed(qtbot, window, "message B")
    assert window.worker is not None and len(window.queued) == 1  # B waits while A's turn runs
    b_queued.set()
    qtbot.waitUntil(lambda: window.disk_banner.isVisible() and window.worker is None, timeout=10_000)
    settled(qtbot)  # B is not sent into the same failure meanwhile
    assert window.input.toPlainText() == "message A"  # only A, not A and B merged
    assert said(c) == [] and len(window.queued) == 1
    assert "The message you sent after it will follow" in window.disk_banner.label.text()
    assert shown(window) == []  # B is shown again as it goes out, after A's answer
    window.disk_banner.poll.stop()  # only the button, here
    qtbot.mouseClick(window.disk_banner.button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.worker is None and not window.queued and len(said(c)) == 4, timeout=10_000)
    assert said(c) == ["message A", "Answer to A.", "message B", "Answer to B."]
    assert shown(window) == ["message A", "Answer to A.", "message B", "Answer to B."]
    assert window.input.toPlainText() == "" and not window.disk_banner.isVisible() and dialogs == []


def test_a_reply_written_while_something_was_forgotten_is_shown_as_not_kept(qtbot, window, dialogs):
    """The person forgets someone in the Open Mind while a reply about them streams: the core does not keep that
    reply (it came from a prompt that held them), and the window says so rather than showing it as kept."""
    c = window.companion
    c.chat.delay = 0.05  # a reply that takes its time
    c.chat.enqueue("Oh, how lovely. Tell me more about Bea and her garden and her dog and her old cat.")
    typed(qtbot, window, "my sister Bea is visiting")
    qtbot.waitUntil(
        lambda: window.transcript.streaming is not None and "lovely" in window.transcript.streaming.text, timeout=10_000
    )
    assert c.forget_person("Bea").by_kind()["message"] == 1  # the message; the reply is not written yet
    qtbot.waitUntil(lambda: window.worker is None, timeout=20_000)
    reply = [b for b in window.transcript.bubbles if b.role != "user"][-1]
    assert reply.objectName() == "bubble-unsaved"
    assert not [r for r in said(c) if "Bea" in r]
