import threading
from pathlib import Path

import pytest

from anima.settings import Settings

SHOTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def settings_file(tmp_path, monkeypatch):
    monkeypatch.setenv("ANIMA_SETTINGS", str(tmp_path / "settings.json"))


@pytest.fixture
def screenshot():
    """Save a widget as a PNG under test-artifacts/screenshots/, for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def save(widget, name: str) -> Path:
        path = SHOTS / f"{name}.png"
        assert widget.grab().save(str(path)), f"could not save {path}"
        return path

    return save


@pytest.fixture
def fake_companion(companion):
    """The companion of tests/conftest.py: a real encrypted soul, fake models."""
    return companion


@pytest.fixture
def window(qtbot, fake_companion):
    from ui import theme
    from ui.window import MainWindow

    theme.use("system")  # as the app does (app.py): its look, and its sizes
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not w.reading_history, timeout=10_000)  # as a person sees it: the history shown
    return w


def send(qtbot, window, text: str):
    """Type a message and press Enter, as a person would; wait for the reply to finish."""
    from PySide6.QtCore import Qt

    window.input.setFocus()
    qtbot.keyClicks(window.input, text)
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(
        lambda: bool(
            window.worker is None and window.transcript.bubbles and window.transcript.bubbles[-1].message_id is not None
        ),
        timeout=120_000,
    )
    return window.transcript.bubbles[-1]


class HeldReply:
    """The model writes the first words of its reply, then stops, noticing no cancel, until `release` is set: a
    reply still under way for as long as a test needs, and a model slow to notice a cancel. The test decides."""

    def __init__(self, chat, monkeypatch):
        self.holding, self.release = threading.Event(), threading.Event()
        real = chat.stream_text

        def stream_text(*args, **kwargs):
            pieces = real(*args, **kwargs)
            yield next(pieces)
            self.holding.set()
            self.release.wait(30)  # a bound, should a failing test never release it
            return (yield from pieces)

        monkeypatch.setattr(chat, "stream_text", stream_text)


@pytest.fixture
def held_reply(window, monkeypatch):
    held = HeldReply(window.companion.chat, monkeypatch)
    yield held
    held.release.set()  # a failed test's thread is not left waiting


def laid_out(transcript) -> bool:
    """Whether every bubble of `transcript` is laid out, as tall as its text needs at the width it was given (Qt
    lays a layout out on a later turn of the event loop): a condition to wait on."""
    from PySide6.QtWidgets import QLabel

    return all(
        b.label.width() > 0 and b.label.height() >= QLabel.heightForWidth(b.label, b.label.width()) - 1
        for b in transcript.bubbles
    )


def looked(qtbot, window) -> None:
    """One whole look at what other programs on the soul did, as the window's timer makes one every FOLLOW_MS."""
    elsewhere = window.elsewhere
    qtbot.waitUntil(lambda: not elsewhere._looking, timeout=10_000)  # one under way ends first
    elsewhere.look()
    qtbot.waitUntil(lambda: not elsewhere._looking, timeout=10_000)


def settled(qtbot) -> None:
    """Everything the UI thread was asked to do so far is done: a call queued behind it has run (a fence in its
    event queue, not a while)."""
    from PySide6.QtCore import QTimer

    reached = []
    QTimer.singleShot(0, lambda: reached.append(True))
    qtbot.waitUntil(lambda: bool(reached), timeout=10_000)
