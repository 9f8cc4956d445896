"""The download panel both model dialogs share: a catalogue model downloaded with progress, cancelled midway with
the buttons as they were before and the line saying so, then gone on from where it stopped, each dialog's words
kept. From a local server: no test reaches the internet."""

import pytest
from PySide6.QtCore import Qt

from anima.models.catalogue import CatalogueModel
from anima.models.download import part_of
from tests.models.fake_gguf import fake_gguf
from tests.models.range_server import FileServer
from ui.dialogs.model_download import DownloadPanel

DATA = fake_gguf(2_000_000)


@pytest.fixture
def files():
    s = FileServer({"/m.gguf": DATA, "/page.gguf": b"<html>Not found</html>" * 50})
    yield s
    s.close()


def model(files, path="/m.gguf"):
    return CatalogueModel(
        "Small Test", path.strip("/"), f"{files.url}{path}", files.url, "MIT", len(DATA), 1, "A test model."
    )


def panel_for(qtbot, download_text):
    panel = DownloadPanel(download_text)
    qtbot.addWidget(panel)
    panel.show()
    return panel


def test_cancel_midway_leaves_the_buttons_as_before_says_so_and_download_goes_on(qtbot, files, tmp_path):
    files.pace = 0.01
    panel = panel_for(qtbot, "Download and use")
    assert panel.download_button.text() == "Download and use" and panel.cancel_button.text() == "Cancel download"
    assert panel.download_button.isEnabled() and not panel.cancel_button.isEnabled() and panel.progress.isHidden()
    dest = tmp_path / "m.gguf"
    panel.start(model(files), dest)
    assert panel.status.text() == "Downloading Small Test…"
    assert not panel.download_button.isEnabled() and panel.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=10_000)
    assert "Downloading Small Test: " in panel.status.text() and " MB" in panel.status.text()
    qtbot.mouseClick(panel.cancel_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.downloading is None, timeout=10_000)
    assert panel.download_button.isEnabled() and not panel.cancel_button.isEnabled()  # as before it started
    assert "cancelled" in panel.status.text() and panel.progress.isHidden() and not dest.exists()
    kept = part_of(dest).stat().st_size
    assert 0 < kept < len(DATA)

    files.pace = 0.0
    with qtbot.waitSignal(panel.downloaded, timeout=20_000) as got:
        panel.start(model(files), dest)
    assert got.args == [dest] and dest.read_bytes() == DATA and files.ranges[-1] == f"bytes={kept}-"
    assert panel.status.text() == "Small Test is downloaded and checked." and panel.progress.value() == 1000
    assert panel.download_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_a_dialog_says_it_in_its_own_words_and_a_refusal_as_an_error(qtbot, files, tmp_path):
    said: list[tuple[str, bool]] = []
    panel = DownloadPanel("Download", "{name} is here. Save to use it.", lambda text, error: said.append((text, error)))
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.downloaded, timeout=20_000):
        panel.start(model(files), tmp_path / "m.gguf")
    assert said == [("Downloading Small Test…", False), ("Small Test is here. Save to use it.", False)]
    said.clear()
    panel.start(model(files, "/page.gguf"), tmp_path / "page.gguf")
    qtbot.waitUntil(lambda: panel.downloading is None, timeout=10_000)
    assert said[-1][1] is True and "not a GGUF model file" in said[-1][0]
    assert panel.progress.isHidden() and panel.download_button.isEnabled()
