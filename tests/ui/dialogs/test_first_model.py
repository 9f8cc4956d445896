"""Choosing the companion's mind, as a person does on the first run and later from the menu: the tiny bundled
model said plainly, the catalogue judged against this machine's memory, a model server found on the loopback
address, a GGUF file on disk. What is chosen answers the next message, without a restart. No test reaches beyond
this machine."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from anima.models.catalogue import CatalogueModel
from anima.models.download import part_of
from anima.models.fake import FakeChatModel
from anima.models.servers import Place
from anima.settings import Settings
from tests.conftest import PASSPHRASE
from tests.models.fake_gguf import fake_gguf
from tests.models.model_server import LocalModelServer, closed_port
from tests.models.range_server import FileServer
from tests.ui.conftest import send
from ui import theme
from ui.dialogs.first_model import TINY, FirstModelDialog

DATA = fake_gguf(2_000_000)


@pytest.fixture
def ollama():
    s = LocalModelServer("ollama", ["llama3.2:3b", "qwen3:4b"], reply="Hello, I run on your Ollama.")
    yield s
    s.close()


@pytest.fixture
def files():
    s = FileServer({"/small.gguf": DATA})
    yield s
    s.close()


def entries(files):
    small = CatalogueModel(
        "Small Test",
        "small.gguf",
        f"{files.url}/small.gguf",
        files.url,
        "MIT",
        len(DATA),
        0.5,
        "A small one.",
        size=len(DATA),
    )
    huge = CatalogueModel(
        "Huge Test", "huge.gguf", f"{files.url}/huge.gguf", files.url, "MIT", 10**9, 10**6, "Far too big."
    )
    return [huge, small]


def opened(qtbot, dialog):
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: not dialog.looking and "Measuring" not in dialog.memory.text(), timeout=10_000)
    return dialog


def test_it_says_the_bundled_model_is_tiny_and_fits_the_catalogue_to_this_machine(qtbot, files):
    dialog = opened(qtbot, FirstModelDialog(Settings(), catalogue=entries(files), places=[]))
    text = " ".join(label.text() for label in dialog.findChildren(type(dialog.now)))
    assert TINY in text and "tiny" in TINY and "offline" in TINY
    assert dialog.now.text() == "In use now: the tiny bundled model (SmolLM2 135M)."
    assert dialog.keep.text() == "Keep the tiny one for now"
    assert dialog.memory.text().startswith("This machine has ")
    rows = [dialog.models.item(i).text() for i in range(dialog.models.count())]
    assert rows[0].startswith("Small Test (fits this machine)") and "MIT" in rows[0] and "2 MB to download" in rows[0]
    assert rows[1].startswith("Huge Test (too big for this machine)")  # listed after those that fit
    assert files.ranges == []  # nothing is downloaded unless asked


def test_download_with_progress_cancel_resume_then_it_is_in_use(qtbot, files, anima_home):
    files.pace = 0.01
    dialog = opened(qtbot, FirstModelDialog(Settings(), catalogue=entries(files), places=[]))
    assert dialog.models.currentRow() == 0  # the one that fits
    qtbot.mouseClick(dialog.download_button, Qt.LeftButton)
    dest = anima_home / "models" / "small.gguf"
    qtbot.waitUntil(lambda: part_of(dest).exists() and part_of(dest).stat().st_size > 0, timeout=10_000)
    assert dialog.progress.isVisible() and dialog.cancel_button.isEnabled()
    qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.downloading is None, timeout=10_000)
    assert "cancelled" in dialog.download_status.text() and not dest.exists()
    kept = part_of(dest).stat().st_size
    assert 0 < kept < len(DATA)
    files.pace = 0.0
    qtbot.mouseClick(dialog.download_button, Qt.LeftButton)  # goes on from where it stopped
    qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=20_000)
    assert files.ranges[-1] == f"bytes={kept}-" and dest.read_bytes() == DATA
    assert Settings.load().model_path == str(dest)

    again = opened(qtbot, FirstModelDialog(Settings.load(), catalogue=entries(files), places=[]))
    qtbot.waitUntil(lambda: "downloaded" in again.models.item(0).text(), timeout=10_000)
    assert again.models.item(0).text().startswith("Small Test (fits this machine, downloaded, in use)")
    assert again.now.text() == "In use now: small.gguf."


def test_a_file_that_is_not_gguf_is_refused_in_the_error_colour(qtbot, tmp_path):
    page = tmp_path / "model.gguf"
    page.write_bytes(b"<html>Not found</html>" * 50)
    dialog = opened(qtbot, FirstModelDialog(Settings(), places=[]))
    dialog.tabs.setCurrentIndex(2)
    dialog.use_file(str(page))
    qtbot.waitUntil(lambda: dialog.error.isVisible(), timeout=10_000)
    assert "GGUF" in dialog.error.text() and dialog.result_value is None
    for choice in ("light", "dark"):  # the theme's error colour, whichever is in use
        theme.use(choice)
        dialog.error.ensurePolished()
        colour = dialog.error.palette().color(dialog.error.foregroundRole())
        assert colour == QColor(theme.THEMES[choice].error)


def test_no_server_running_is_said_and_nothing_is_listed(qtbot):
    dialog = opened(qtbot, FirstModelDialog(Settings(), places=[Place("Ollama", closed_port(), "/api/tags")]))
    assert "No Ollama is running" in dialog.servers_status.text()
    assert dialog.server_models.count() == 0 and not dialog.use_server_button.isEnabled()


@pytest.mark.parametrize(("width", "height"), [(900, 600), (1400, 900)])
def test_screenshots_of_the_dialog(qtbot, ollama, screenshot, width, height):
    dialog = opened(qtbot, FirstModelDialog(Settings(), places=[ollama.place()]))
    dialog.resize(width, height)
    qtbot.waitUntil(lambda: dialog.width() == width, timeout=5_000)
    assert dialog.models.count() >= 8 and dialog.server_models.count() == 2
    screenshot(dialog, f"first-run-{width}-light")


def test_choosing_a_model_on_a_local_server_switches_the_window_without_a_restart(qtbot, window, ollama, monkeypatch):
    import anima.models.servers
    from ui.dialogs.first_model import choose_mind

    monkeypatch.setattr(anima.models.servers, "PLACES", (ollama.place(),))  # where it looks: this test's server

    window.companion.chat.enqueue("From the tiny one.")
    assert send(qtbot, window, "hello").text == "From the tiny one."
    qtbot.waitUntil(lambda: window.model_label.text() == "Mind: fake", timeout=5_000)
    dialog = choose_mind(window)
    qtbot.waitUntil(lambda: dialog.server_models.count() == 2, timeout=10_000)
    assert dialog.server_models.item(0).text() == "llama3.2:3b — Ollama"
    assert "Found Ollama at" in dialog.servers_status.text()
    dialog.server_models.setCurrentRow(1)
    qtbot.mouseClick(dialog.use_server_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.companion.model_name == "qwen3:4b", timeout=10_000)
    assert Settings.load().endpoint_url == ollama.root + "/v1" and window.settings.endpoint_model == "qwen3:4b"
    reply = send(qtbot, window, "who answers now?")
    assert reply.text == "Hello, I run on your Ollama."
    assert ollama.asked[-1]["model"] == "qwen3:4b"
    assert any(m["content"] == "who answers now?" for m in ollama.asked[-1]["messages"])
    qtbot.waitUntil(lambda: window.model_label.text() == "Mind: qwen3:4b", timeout=5_000)

    again = choose_mind(window)  # the model in use is marked where it is listed
    qtbot.waitUntil(lambda: again.server_models.count() == 2, timeout=10_000)
    assert again.server_models.item(1).text() == "qwen3:4b — Ollama (in use)"
    assert again.now.text().startswith(f"In use now: qwen3:4b on the server at {ollama.root}/v1")
    assert again.keep.text() == "Keep the one in use"
    again.reject()


def test_the_first_run_shows_the_choice_after_the_soul_is_made(qtbot, anima_home, monkeypatch, ollama):
    import anima.models.embedder
    import anima.models.servers
    import ui.dialogs.unlock
    from anima.models.fake import FakeEmbedder
    from anima.store import Home
    from ui.app import attach
    from ui.dialogs.first_model import FirstModelDialog as Shown
    from ui.window import MainWindow

    real_chat_model = Settings.chat_model
    monkeypatch.setattr(
        Settings,
        "chat_model",
        lambda self, ask_key=None: real_chat_model(self) if self.endpoint_url else FakeChatModel(),
    )
    monkeypatch.setattr(anima.models.embedder, "MiniLMEmbedder", FakeEmbedder)
    monkeypatch.setattr(anima.models.servers, "PLACES", (ollama.place(),))

    class Made(ui.dialogs.unlock.FirstRunDialog):  # the person fills in the first-run form
        def exec(self):
            self.result_value = Home(anima_home).create(PASSPHRASE, name="Juniper")
            return True

    monkeypatch.setattr(ui.dialogs.unlock, "FirstRunDialog", Made)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    home = Home(anima_home)
    assert attach(window, (Settings(), home, None), lambda e: pytest.fail(str(e)))
    qtbot.waitUntil(lambda: window.findChild(Shown) is not None, timeout=10_000)
    dialog = window.findChild(Shown)
    assert dialog.isVisible() and window.companion is not None
    qtbot.waitUntil(lambda: dialog.server_models.count() == 2, timeout=10_000)
    dialog.server_models.setCurrentRow(0)
    qtbot.mouseClick(dialog.use_server_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.companion.model_name == "llama3.2:3b", timeout=10_000)
    qtbot.waitUntil(lambda: not window.reading_history, timeout=10_000)
    assert send(qtbot, window, "hello").text == "Hello, I run on your Ollama."
    window.close()
    window.companion.close()


def test_settings_saved_with_a_server_switches_the_window_at_once(qtbot, window, ollama):
    from dataclasses import replace

    from ui.dialogs.first_model import switch_if_changed

    old = window.settings
    switch_if_changed(window, old, replace(old, data_folder="/elsewhere"))  # not what a model is made from
    assert window.companion.model_name == "fake"
    new = replace(old, endpoint_url=ollama.root + "/v1", endpoint_model="llama3.2:3b")
    switch_if_changed(window, old, new)
    qtbot.waitUntil(lambda: window.companion.model_name == "llama3.2:3b", timeout=10_000)
    assert window.settings is new
    assert send(qtbot, window, "still there?").text == "Hello, I run on your Ollama."


def test_the_settings_catalogue_marks_the_model_in_use(qtbot, files, anima_home):
    from anima.models.catalogue import local_path
    from ui.dialogs.settings import SettingsDialog

    huge, small = entries(files)
    dialog = SettingsDialog(Settings(model_path=str(local_path(small))), catalogue=[huge, small])
    qtbot.addWidget(dialog)
    assert dialog.catalogue.item(1).text().split("\n")[0].endswith("(in use)")  # beside the model's name
    assert "(in use)" not in dialog.catalogue.item(0).text()


def test_a_choice_made_while_a_reply_streams_takes_over_when_that_reply_ends(qtbot, window, held_reply, ollama):
    from PySide6.QtCore import Qt as Keys

    from ui.dialogs.first_model import FirstModelDialog as Dialog

    window.companion.chat.enqueue("The tiny one finishes what it began.")
    window.input.setFocus()
    qtbot.keyClicks(window.input, "tell me something")
    qtbot.keyClick(window.input, Keys.Key_Return)
    assert held_reply.holding.wait(10)  # the reply is under way on the tiny model
    dialog = Dialog(window.settings, window.companion, window, places=[ollama.place()])
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.server_models.count() == 2, timeout=10_000)
    dialog.use_server_model()
    qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=10_000)  # saved; waits for the turn's end
    assert window.companion.model_name == "fake" and window.worker is not None
    held_reply.release.set()
    qtbot.waitUntil(lambda: window.worker is None, timeout=10_000)
    assert window.transcript.bubbles[-1].text == "The tiny one finishes what it began."
    assert window.companion.model_name == "llama3.2:3b" and ollama.asked == []
    assert send(qtbot, window, "and now?").text == "Hello, I run on your Ollama."
