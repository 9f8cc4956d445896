"""Downloading a model the person chose from the catalogue, from a local HTTP server (never the internet)."""

import hashlib
import threading
from pathlib import Path

import pytest

from anima.models.catalogue import CATALOGUE, CatalogueModel, local_path, models_folder
from anima.models.download import DownloadCancelled, DownloadFailed, download, part_of
from tests.models.fake_gguf import fake_gguf
from tests.models.range_server import FileServer

DATA = fake_gguf(1_000_000)


@pytest.fixture
def server():
    s = FileServer(
        {
            "/m.gguf": DATA,
            "/page.gguf": b"<html>Repository not found</html>" * 100,
            "/bent.gguf": b"GGUF" + b"\xff" * 60_000,
        }
    )
    yield s
    s.close()


def test_progress_is_reported_up_to_the_whole_file(server, tmp_path):
    seen = []
    dest = download(
        f"{server.url}/m.gguf", tmp_path / "m.gguf", progress=lambda done, total: seen.append((done, total))
    )
    assert dest.read_bytes() == DATA and not part_of(dest).exists()
    assert seen[0] == (0, len(DATA)) and seen[-1] == (len(DATA), len(DATA))
    assert any(0 < done < len(DATA) for done, _ in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_connection_dropped_midway_is_resumed_from_where_it_stopped(server, tmp_path):
    server.drop_after = [300_000]  # the first answer hangs up after 300,000 bytes
    dest = download(f"{server.url}/m.gguf", tmp_path / "m.gguf")
    assert dest.read_bytes() == DATA
    assert server.ranges == [None, "bytes=300000-"]  # the rest only, not the file again


def test_a_cancelled_download_goes_on_from_its_part_the_next_time(server, tmp_path):
    cancel = threading.Event()
    dest = tmp_path / "m.gguf"
    with pytest.raises(DownloadCancelled):
        download(f"{server.url}/m.gguf", dest, cancel=cancel, progress=lambda done, total: done and cancel.set())
    kept = part_of(dest).stat().st_size
    assert 0 < kept < len(DATA) and not dest.exists()
    download(f"{server.url}/m.gguf", dest)
    assert dest.read_bytes() == DATA and server.ranges[-1] == f"bytes={kept}-"


def test_a_server_that_ignores_range_sends_it_all_again_and_the_file_is_whole(server, tmp_path):
    dest = tmp_path / "m.gguf"
    part_of(dest).write_bytes(DATA[:123_456])
    server.ignore_range = True
    download(f"{server.url}/m.gguf", dest)
    assert dest.read_bytes() == DATA


@pytest.mark.parametrize(
    "path, says",
    [
        ("/page.gguf", "is not a GGUF model file; it was removed"),  # an error page saved under the model's name
        ("/bent.gguf", "is not a GGUF model file; it was removed"),  # GGUF, then nonsense
    ],
)
def test_a_file_that_is_not_a_model_is_refused_and_removed(server, tmp_path, path, says):
    dest = tmp_path / "m.gguf"
    with pytest.raises(DownloadFailed, match=says):
        download(f"{server.url}{path}", dest)
    assert not dest.exists() and not part_of(dest).exists()


def test_a_file_that_differs_from_the_catalogues_sha256_or_size_is_refused_and_removed(server, tmp_path):
    dest = tmp_path / "m.gguf"
    with pytest.raises(DownloadFailed, match="does not match the catalogue's sha256; it was removed"):
        download(f"{server.url}/m.gguf", dest, sha256=hashlib.sha256(b"another file").hexdigest())
    assert not dest.exists() and not part_of(dest).exists()
    with pytest.raises(DownloadFailed, match="offers a file of 1,000,000 bytes, not the 999,999 expected"):
        download(f"{server.url}/m.gguf", dest, size=999_999)
    assert not dest.exists() and not part_of(dest).exists()
    download(f"{server.url}/m.gguf", dest, size=len(DATA), sha256=hashlib.sha256(DATA).hexdigest())
    assert dest.read_bytes() == DATA


def test_a_missing_file_is_one_clear_sentence(server, tmp_path):
    with pytest.raises(DownloadFailed, match="refused the download \\(HTTP 404\\)"):
        download(f"{server.url}/nothing.gguf", tmp_path / "m.gguf")


def test_the_catalogue_states_nothing_it_cannot_verify(anima_home):
    assert len(CATALOGUE) >= 3
    for m in CATALOGUE:
        assert m.url.startswith("https://huggingface.co/") and m.url.endswith("/" + m.file)
        assert m.licence and m.memory_gb > 0 and m.approx_bytes > 0
    # Exact figures only with a cited source (tests/models/test_catalogue.py): nothing exact from memory.
    assert local_path(CATALOGUE[0]) == anima_home / "models" / CATALOGUE[0].file
    assert models_folder("/elsewhere") == Path("/elsewhere/models")  # the settings' data folder wins


def test_a_catalogue_model_downloads_into_the_data_directory(server, anima_home):
    entry = CatalogueModel("Test", "m.gguf", f"{server.url}/m.gguf", server.url, "MIT", len(DATA), 1, "A test.")
    dest = download(entry.url, local_path(entry), size=entry.size, sha256=entry.sha256)
    assert dest == anima_home / "models" / "m.gguf" and dest.read_bytes() == DATA


@pytest.mark.slow  # the real bundled model (98 MB) is served, downloaded, then answers
def test_the_downloaded_model_is_the_one_the_next_chat_uses(anima_home, monkeypatch):
    from anima.cli import build_parser
    from anima.cli_open import open_companion
    from anima.models.defaults import default_gguf
    from anima.models.llama import LlamaChatModel
    from anima.settings import Settings
    from tests.conftest import PASSPHRASE

    real = default_gguf().read_bytes()
    server = FileServer({"/SmolLM2.gguf": real})
    try:
        server.drop_after = [len(real) // 3]
        entry = CatalogueModel(
            "SmolLM2",
            "SmolLM2.gguf",
            f"{server.url}/SmolLM2.gguf",
            server.url,
            "Apache-2.0",
            len(real),
            1,
            "Tiny.",
            size=len(real),
            sha256=hashlib.sha256(real).hexdigest(),
        )
        dest = download(entry.url, local_path(entry), size=entry.size, sha256=entry.sha256)
    finally:
        server.close()
    Settings(model_path=str(dest)).save()  # what the settings dialog does when Save is pressed
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    companion = open_companion(build_parser().parse_args(["chat"]), create_if_missing=True)  # `anima chat`
    try:
        assert isinstance(companion.chat.current, LlamaChatModel) and companion.chat.path == dest
        companion.chat.start_loading()
        assert companion.chat.complete([{"role": "user", "content": "Say hello."}], max_tokens=8).strip()
    finally:
        companion.close()
