"""The catalogue in the settings: Download with progress, Cancel, resume, a bad file refused, a file from disk,
and the model chosen is the one the next start opens. From a local server: no test reaches the internet."""

import pytest
from PySide6.QtCore import Qt

from anima.models.catalogue import CatalogueModel
from anima.models.download import part_of
from anima.settings import Settings
from tests.models.fake_gguf import fake_gguf
from tests.models.range_server import FileServer
from ui import errors
from ui.dialogs.settings import SettingsDialog

DATA = fake_gguf(2_000_000)


@pytest.fixture
def server():
    s = FileServer({"/m.gguf": DATA, "/page.gguf": b"<html>Not found</html>" * 50})
    yield s
    s.close()


def dialog_for(qtbot, server, path="/m.gguf"):
    entry = CatalogueModel(
        "Small Test", path.strip("/"), f"{server.url}{path}", server.url, "MIT", len(DATA), 1, "A test model."
    )
    dialog = SettingsDialog(Settings(endpoint_url="http://127.0.0.1:1/v1", endpoint_model="m"), catalogue=[entry])
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def wait_done(qtbot, dialog):
    qtbot.waitUntil(lambda: dialog.downloading is None, timeout=20_000)


def test_download_with_progress_then_save_and_the_next_start_uses_it(qtbot, server, anima_home):
    from anima.cli import build_parser
    from anima.cli_open import chosen_chat_model

    dialog = dialog_for(qtbot, server)
    seen = []
    qtbot.mouseClick(dialog.download_button, Qt.LeftButton)
    assert dialog.downloading is not None and not dialog.download_button.isEnabled()
    dialog.downloading.progressed.connect(lambda done, total: seen.append(done))
    wait_done(qtbot, dialog)
    dest = anima_home / "models" / "m.gguf"
    assert "downloaded and checked" in dialog.download_status.text()
    assert dialog.download_progress.value() == 1000 and dest.read_bytes() == DATA
    assert dialog.model_path.text() == str(dest) and dialog.endpoint_url.text() == ""
    assert "(downloaded)" in dialog.catalogue.item(0).text()
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=10_000)
    assert Settings.load().model_path == str(dest)
    assert chosen_chat_model(build_parser().parse_args(["chat"])).path == dest


def test_cancel_keeps_what_came_and_download_goes_on_from_there(qtbot, server, anima_home):
    server.pace = 0.01
    dialog = dialog_for(qtbot, server)
    dialog.start_download()
    qtbot.waitUntil(lambda: dialog.download_progress.value() > 0, timeout=10_000)
    qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    wait_done(qtbot, dialog)
    assert "cancelled" in dialog.download_status.text() and dialog.download_button.isEnabled()
    part = part_of(anima_home / "models" / "m.gguf")
    kept = part.stat().st_size
    assert 0 < kept < len(DATA)
    server.pace = 0
    dialog.start_download()
    wait_done(qtbot, dialog)
    assert (anima_home / "models" / "m.gguf").read_bytes() == DATA and server.ranges[-1] == f"bytes={kept}-"


def test_a_file_that_is_not_a_model_is_refused_and_nothing_changes(qtbot, server, anima_home):
    dialog = dialog_for(qtbot, server, "/page.gguf")
    dialog.start_download()
    wait_done(qtbot, dialog)
    assert "not a GGUF model file; it was removed" in dialog.download_status.text()
    assert dialog.model_path.text() == "" and not (anima_home / "models" / "page.gguf").exists()
    assert not dialog.download_progress.isVisible()


def test_a_gguf_file_i_already_have_is_checked_before_it_is_used(qtbot, server, tmp_path):
    dialog = dialog_for(qtbot, server)
    page = tmp_path / "saved-page.gguf"
    page.write_text("<html>")
    dialog.use_file(str(page))
    qtbot.waitUntil(lambda: "not a GGUF" in dialog.download_status.text(), timeout=5_000)
    assert dialog.model_path.text() == ""
    assert errors.colour(dialog) in dialog.download_status.styleSheet()  # a refusal, not news: QA saw it in black
    mine = tmp_path / "mine.gguf"
    mine.write_bytes(fake_gguf())
    dialog.use_file(str(mine))
    qtbot.waitUntil(lambda: dialog.model_path.text() == str(mine), timeout=5_000)
    assert dialog.endpoint_url.text() == ""
    assert dialog.download_status.styleSheet() == ""


def test_closing_the_dialog_stops_the_download_and_keeps_what_came(qtbot, server, anima_home, screenshot):
    server.pace = 0.01
    dialog = dialog_for(qtbot, server)
    dialog.start_download()
    qtbot.waitUntil(lambda: dialog.download_progress.value() > 0, timeout=10_000)
    screenshot(dialog, "settings-downloading")
    running = dialog.downloading
    dialog.reject()
    qtbot.waitUntil(running.isFinished, timeout=10_000)
    assert part_of(anima_home / "models" / "m.gguf").exists() and not (anima_home / "models" / "m.gguf").exists()
