"""The window on the real default model, from the first run to the first streamed reply."""

import pytest
from PySide6.QtCore import Qt

from anima.companion import Companion
from anima.models.embedder import MiniLMEmbedder
from anima.models.llama import LlamaChatModel
from anima.settings import Settings
from anima.store import Home
from ui.dialogs.unlock import FirstRunDialog
from ui.window import MainWindow

pytestmark = pytest.mark.slow  # the real model and embedder


def test_first_run_to_a_first_streamed_reply_on_the_real_model(qtbot, anima_home, screenshot):
    chat = LlamaChatModel().start_loading()
    embedder = MiniLMEmbedder().start_loading()
    home = Home(anima_home)
    dialog = FirstRunDialog(home)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.remember.isEnabled()  # no keychain in the tests: the option explains itself
    qtbot.keyClicks(dialog.user_name, "Ada")
    qtbot.keyClicks(dialog.passphrase, "short")
    qtbot.keyClicks(dialog.again, "short")
    dialog.submit()
    assert "at least 8" in dialog.error.text() and not home.exists()
    dialog.passphrase.setText("a long enough passphrase")
    dialog.again.setText("a long enough passphrase")
    screenshot(dialog, "first-run")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=20_000)

    window = MainWindow(Companion(home, dialog.result_value, chat, embedder), Settings())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.companion.temperature = 0.0
    window.input.setFocus()
    qtbot.keyClicks(window.input, "Hello! I have a cat named Miso.")
    pieces = []
    window.transcript.start_reply
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.worker is not None, timeout=5_000)
    window.worker.piece.connect(pieces.append)
    qtbot.waitUntil(lambda: window.worker is None, timeout=120_000)
    reply = window.transcript.bubbles[-1]
    assert reply.role == "companion" and reply.message_id is not None and reply.text.strip() not in ("", "…")
    assert len(pieces) > 1  # it streamed, piece by piece
    assert window.transcript.bubbles[-2].text == "Hello! I have a cat named Miso."
    screenshot(window, "chat")
    window.close()
    window.companion.close()
    chat.close()
