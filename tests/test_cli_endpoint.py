"""`python -m anima chat` uses the window's settings, or a model server for one run, and finds its API key.

The server here is simulated (tests/models/test_dialects.py); tests/models/test_llama_server.py runs a chat
through llama-cpp-python's real server.
"""

import json
import os
import re

import keyring
import keyring.backends.null
import pytest

from anima.cli import build_parser
from anima.cli_open import chosen_chat_model
from anima.errors import KnownError
from anima.models import endpoint_key
from anima.models.chat import ModelError
from anima.models.dialects import Dialect
from anima.models.llama import LlamaChatModel
from anima.models.openai_http import OpenAIChatModel
from anima.settings import Settings
from tests.models.fake_gguf import fake_gguf
from tests.models.test_dialects import Simulated
from tests.store.test_keychain import MemoryKeyring


@pytest.fixture
def server():
    s = Simulated("json_schema", key="sk-secret")
    yield s
    endpoint_key.drop(s.url)
    s.close()


def chat_args(*argv):
    return build_parser().parse_args(["chat", *argv])


def saved(**fields) -> Settings:
    s = Settings(**fields)
    s.save()
    return s


def test_chat_uses_the_server_the_window_saved(server):
    saved(endpoint_url=server.url, endpoint_model="qwen2.5", endpoint_dialect="json_object", context_tokens=4096)
    model = chosen_chat_model(chat_args())
    assert isinstance(model, OpenAIChatModel)
    assert (model.base_url, model.name, model.dialect, model.capabilities.context_tokens) == (
        server.url,
        "qwen2.5",
        Dialect.JSON_OBJECT,
        4096,
    )


def test_endpoint_and_model_on_the_command_line_are_for_this_run_only(server, tmp_path):
    saved(endpoint_url="http://elsewhere:8080/v1", endpoint_model="big")
    model = chosen_chat_model(chat_args("--endpoint", server.url, "--endpoint-model", "small"))
    assert (model.base_url, model.name) == (server.url, "small")
    assert Settings.load().endpoint_url == "http://elsewhere:8080/v1"  # nothing saved
    # A model file for one run replaces the saved server.
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(fake_gguf())
    model = chosen_chat_model(chat_args("--model", str(gguf)))
    assert isinstance(model, LlamaChatModel) and model.path == gguf


@pytest.mark.parametrize(
    "argv, says",
    [
        (("--endpoint", "ftp://x", "--endpoint-model", "m"), "http:// or https://"),
        (("--endpoint", "http://127.0.0.1:1/v1"), "Name the model"),
        (("--endpoint-model", "m"), "give the server with --endpoint"),
        (("--model", "x.gguf", "--endpoint", "http://h/v1", "--endpoint-model", "m"), "not both"),
        (("--model", "tests/conftest.py"), "not a GGUF model file"),
    ],
)
def test_a_wrong_endpoint_on_the_command_line_is_one_clear_line(argv, says):
    with pytest.raises(KnownError, match=says):
        chosen_chat_model(chat_args(*argv))


@pytest.mark.timeout(20)
def test_a_model_path_that_is_a_pipe_is_one_clear_line_without_waiting(tmp_path):
    """QA: a FIFO as the model (in the settings or with --model) hung `anima chat`: read_header opened it, and
    opening a pipe waits for a writer. It is looked at first, never opened."""
    from anima.models.gguf import read_header

    pipe = tmp_path / "model.gguf"
    os.mkfifo(pipe)
    says = f"{pipe} is not a regular file (a pipe or a device, say); choose a .gguf model file."
    with pytest.raises(ModelError) as refused:
        read_header(pipe)
    assert str(refused.value) == says
    with pytest.raises(ModelError, match=re.escape(says)):
        chosen_chat_model(chat_args("--model", str(pipe)))
    Settings.path().write_text(json.dumps({"model_path": str(pipe)}))  # saved by an older Anima, or by hand
    with pytest.raises(ModelError, match=re.escape(says)):
        chosen_chat_model(chat_args())
    (tmp_path / "folder.gguf").mkdir()
    with pytest.raises(ModelError, match=r"is a folder; choose a \.gguf model file"):
        read_header(tmp_path / "folder.gguf")


def test_the_key_from_the_environment_is_sent_and_never_saved(server, monkeypatch):
    monkeypatch.setenv("ANIMA_ENDPOINT_KEY", "sk-secret")
    model = chosen_chat_model(chat_args("--endpoint", server.url, "--endpoint-model", "m"))
    assert model.complete([{"role": "user", "content": "hi"}])  # the server refuses any other key


def test_the_key_kept_in_the_keychain_is_sent(server, monkeypatch):
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    assert endpoint_key.keep(server.url + "/", "sk-secret")  # the same server, however its address ends
    monkeypatch.setattr(endpoint_key, "_this_run", {})  # a new run: only the keychain remembers
    saved(endpoint_url=server.url, endpoint_model="m", endpoint_uses_key=True)
    model = chosen_chat_model(chat_args())
    assert model.complete([{"role": "user", "content": "hi"}])
    assert backend.secrets == {("anima-endpoint", server.url): "sk-secret"}
    assert "sk-secret" not in Settings.path().read_text()


def test_with_no_keychain_the_key_is_asked_for_each_time(server, monkeypatch):
    keyring.set_keyring(keyring.backends.null.Keyring())  # accepts a secret and forgets it
    assert not endpoint_key.keep(server.url, "sk-secret")  # said: kept for this run only
    endpoint_key.drop(server.url)  # the next run
    saved(endpoint_url=server.url, endpoint_model="m", endpoint_uses_key=True)
    # Not a terminal: told how to give it, at once.
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(KnownError, match=r"needs its API key.*ANIMA_ENDPOINT_KEY"):
        chosen_chat_model(chat_args())
    # A terminal: asked, and the key works for this run.
    asked = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or "sk-secret")
    model = chosen_chat_model(chat_args())
    assert asked == [f"API key for {server.url}: "]
    assert model.complete([{"role": "user", "content": "hi"}])


def test_in_the_window_a_missing_key_is_said_at_the_first_request(server):
    keyring.set_keyring(keyring.backends.null.Keyring())
    model = Settings(endpoint_url=server.url, endpoint_model="m", endpoint_uses_key=True).chat_model()
    assert server.seen == []  # made without asking anything
    with pytest.raises(ModelError, match=r"needs its API key.*enter it in Settings"):
        model.complete([{"role": "user", "content": "hi"}])
    endpoint_key.keep(server.url, "sk-secret")  # entered in Settings: kept until the app closes
    assert model.complete([{"role": "user", "content": "hi"}])
