"""The window reaches out on a real encrypted soul (the fake model writes): a note on its last day makes the
companion's message appear in the transcript and a tray notification show it; nothing while the person types; the
window hides in the tray when closed while reaching out is on, and Open brings it back."""

from datetime import datetime

import pytest
from PySide6.QtWidgets import QSystemTrayIcon

from anima.settings import Settings
from ui import reaching_out

RECITAL = "Check in about the recital on Thursday"
WROTE = "Ada, I remembered your recital on Thursday. How are you feeling about it?"


@pytest.fixture
def tray(monkeypatch):
    """A desktop with a tray; what it was asked to show is in the list."""
    shown = []
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "show", lambda self: None)
    monkeypatch.setattr(QSystemTrayIcon, "showMessage", lambda self, title, text, *rest: shown.append((title, text)))
    return shown


@pytest.fixture
def due(window):
    """A note on its last day (the companion's day is this machine's), and no quiet hours."""
    window.settings = Settings(quiet_from="00:00", quiet_to="00:00")
    today = datetime.now().astimezone().date().isoformat()
    window.companion.self_model.write("working_memory", f"- {RECITAL} (until {today})", "ai")
    window.companion.chat.enqueue(WROTE)
    return window


def test_a_due_note_makes_a_message_appear_and_a_notification_show_it(qtbot, due, tray):
    window = due
    window.reaching_out.look()
    qtbot.waitUntil(lambda: not window.reaching_out.looking, timeout=10_000)
    bubble = window.transcript.bubbles[-1]
    assert bubble.role == "companion" and bubble.text == WROTE and bubble.message_id is not None
    assert window.companion.messages.newest(1)[0]["id"] == bubble.message_id
    assert tray == [("Anima", WROTE)]
    # Once is enough: the next look finds nothing due.
    window.reaching_out.look()
    qtbot.waitUntil(lambda: not window.reaching_out.looking, timeout=10_000)
    assert len(window.transcript.bubbles) == 1 and len(tray) == 1


def test_nothing_while_the_person_types(qtbot, due, tray, monkeypatch):
    window = due
    qtbot.keyClicks(window.input, "I was just")
    window.reaching_out.look()
    assert not window.reaching_out.looking and window.companion.chat.history == []
    window.input.clear()  # the box empty again, a key pressed a moment ago: still typing
    window.reaching_out.look()
    assert not window.reaching_out.looking
    monkeypatch.setattr(reaching_out, "TYPING_S", 0)  # long after the last key
    window.reaching_out.look()
    qtbot.waitUntil(lambda: not window.reaching_out.looking, timeout=10_000)
    assert window.transcript.bubbles[-1].text == WROTE and tray == [("Anima", WROTE)]


def test_nothing_with_no_companion_open(qtbot, due, tray):
    window = due
    window.companion = None  # the soul locked: an import between two, or the passphrase not given yet
    window.reaching_out.look()
    assert not window.reaching_out.looking and window.transcript.bubbles == []


def test_closed_it_lives_on_in_the_tray_and_open_brings_it_back(qtbot, window, tray):
    assert window.reaching_out.to_tray()
    assert not window.isVisible() and window.reaching_out.tray is not None
    actions = [a.text() for a in window.reaching_out.tray.contextMenu().actions()]
    assert actions == ["Open", "Quit"]
    window.reaching_out.tray.contextMenu().actions()[0].trigger()
    assert window.isVisible()
    window.reaching_out.to_tray()
    window.reaching_out.tray.contextMenu().actions()[1].trigger()  # Quit: the window closes for good
    assert window.closing and not window.isVisible() and window.reaching_out.tray is None


def test_with_reaching_out_off_or_no_tray_closing_quits_as_before(qtbot, window, tray, monkeypatch):
    window.settings = Settings(reach_out_per_day=0)
    assert not window.reaching_out.to_tray() and window.reaching_out.tray is None
    window.settings = Settings()
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: False))
    assert not window.reaching_out.to_tray() and window.isVisible()
