"""The window on the keyboard alone: from the unlock dialog to a sent message and its "Why?", every key sent to
whatever has the focus, as a keyboard sends it (QTest key events only, no mouse, no widget picked by the test)."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from anima.settings import Settings
from anima.store import Home
from tests.conftest import PASSPHRASE


def focused():
    widget = QApplication.focusWidget()
    assert widget is not None, "the focus is nowhere: a key pressed now would go nowhere"
    return widget


def type_(text: str) -> None:
    QTest.keyClicks(focused(), text)


def press(key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(focused(), key, modifier)


def test_a_keyboard_only_walk_from_unlock_to_a_sent_message_and_its_why(qtbot, anima_home, monkeypatch):
    import anima.models.embedder
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from ui.app import start
    from ui.chat.why import WhyDialog
    from ui.dialogs.unlock import UnlockDialog

    chat = FakeChatModel().enqueue(*["Hello, Ada. I am here."] + ["{}"] * 20)
    monkeypatch.setattr(Settings, "chat_model", lambda self, ask_key=None: chat)
    monkeypatch.setattr(anima.models.embedder, "MiniLMEmbedder", FakeEmbedder)
    monkeypatch.delenv("ANIMA_PASSPHRASE", raising=False)
    Home(anima_home).create(PASSPHRASE, name="Juniper").close()
    whys = []
    monkeypatch.setattr(WhyDialog, "exec", lambda dialog: whys.append(dialog) or 0)

    # The unlock dialog runs its own event loop: the keys are typed from a timer inside it, once it is open.
    asked = []

    def unlock_by_keyboard():
        dialog = QApplication.activeModalWidget()
        # Keys go to the active window: the dialog is shown a moment before it is made so (the window behind it
        # restyles meanwhile); a person starts typing once it is, and so does this.
        if not isinstance(dialog, UnlockDialog) or QApplication.activeWindow() is not dialog:
            QTimer.singleShot(20, unlock_by_keyboard)
            return
        asked.append(focused())
        type_(PASSPHRASE)
        press(Qt.Key.Key_Return)  # Unlock, the dialog's default button

    # Keyboard only: the pointer rests away from the window (over a reply, its buttons show and join the Tab order,
    # as they do for a person whose mouse is there; a test before this one may have left it anywhere).
    QCursor.setPos(QGuiApplication.primaryScreen().geometry().bottomRight())
    QTimer.singleShot(0, unlock_by_keyboard)
    window = start()
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: window.companion is not None and not window.reading_history, timeout=20_000)
        assert isinstance(asked[0].window(), UnlockDialog) and asked[0].echoMode() == asked[0].EchoMode.Password
        qtbot.waitUntil(lambda: QApplication.focusWidget() is window.input, timeout=5_000)
        type_("Hello there")
        press(Qt.Key.Key_Return)
        qtbot.waitUntil(
            lambda: (
                window.worker is None
                and len(window.transcript.bubbles) == 2
                and window.transcript.bubbles[-1].why.isVisible()
            ),
            timeout=20_000,
        )
        assert [b.text for b in window.transcript.bubbles] == ["Hello there", "Hello, Ada. I am here."]
        assert focused() is window.input
        # Tab leaves the message box, to the button beside it; Shift+Tab from the box reaches the newest reply's
        # "Why?", and Space presses it.
        press(Qt.Key.Key_Tab)
        assert focused() is window.attach and window.input.toPlainText() == ""
        press(Qt.Key.Key_Backtab)
        assert focused() is window.input
        press(Qt.Key.Key_Backtab)
        assert focused() is window.transcript.bubbles[-1].why
        press(Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: bool(whys), timeout=10_000)
    finally:
        window.close()
        if window.companion is not None:
            window.companion.close()
