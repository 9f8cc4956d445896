"""The endpoint against llama-cpp-python's own OpenAI-compatible server (`python -m llama_cpp.server`, its
`server` extra) on the bundled model: a streamed reply, a stop, a structured call, and the server going away in
the middle of a reply. Each server starts in about 1.5 s on two cores.
"""

import json
import logging
import signal
import socket
import subprocess
import sys
import threading
import urllib.request

import pytest

from anima.errors import KnownError
from anima.models.chat import ModelError, StopReason
from anima.models.defaults import default_gguf
from anima.models.dialects import Dialect
from anima.models.openai_http import OpenAIChatModel
from anima.models.structured import ask_structured
from tests.conftest import until

pytestmark = pytest.mark.slow  # a real server on the real model

SCHEMA = {
    "type": "object",
    "properties": {
        "pet": {"type": "string", "maxLength": 20},
        "kind": {"type": "string", "enum": ["cat", "dog", "other"]},
    },
    "required": ["pet", "kind"],
    "additionalProperties": False,
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """`python -m llama_cpp.server` on the bundled model, on a port of its own. One thread, for reading the prompt
    too (the server's default is every core): llama.cpp's threads wait for each other spinning, and on two cores
    shared with other work two threads ran ten to fifty times slower than one (a 7-token prompt took 9.8 s
    against 0.18 s; a token 310 ms against 34, measured)."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(default_gguf()),
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--n_ctx",
                "2048",
                "--n_threads",
                "1",
                "--n_threads_batch",
                "1",
                "--verbose",
                "False",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            until(lambda: self.process.poll() is not None or self.answers(), timeout=60, what="llama_cpp.server")
            if self.process.poll() is not None:
                raise RuntimeError("llama_cpp.server did not start")
        except BaseException:
            self.stop()
            raise

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/models", timeout=2) as r:
                json.load(r)
            return True
        except OSError:
            return False

    def kill(self):
        """Gone at once, as a crashed or closed server is."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
def llama_server():
    server = LlamaServer()
    yield server
    server.stop()


STORY = [{"role": "user", "content": "Tell me a long story about a cat called Miso who visits the sea."}]


def test_a_reply_streams_from_llama_cpp_python_server(llama_server):
    model = OpenAIChatModel(llama_server.url, "smollm2", timeout=30)
    stream = model.stream(STORY, max_tokens=20)
    pieces = list(stream)
    assert len(pieces) > 5 and "".join(pieces).strip()
    assert stream.stop_reason in (StopReason.END, StopReason.LENGTH)


def test_a_stop_mid_reply_ends_it_and_the_server_answers_the_next(llama_server):
    model = OpenAIChatModel(llama_server.url, "smollm2", timeout=30)
    cancel = threading.Event()
    stream = model.stream(STORY, max_tokens=300, cancel=cancel)
    got = []
    for piece in stream:
        got.append(piece)
        if len(got) == 3:
            cancel.set()
    assert stream.stop_reason is StopReason.CANCELLED and len(got) == 3
    again = model.stream([{"role": "user", "content": "Say hello."}], max_tokens=10)
    assert again.read().strip() and again.stop_reason in (StopReason.END, StopReason.LENGTH)


def test_a_structured_call_finds_the_servers_dialect(llama_server, caplog):
    model = OpenAIChatModel(llama_server.url, "smollm2", timeout=60)
    with caplog.at_level(logging.INFO, logger="anima.models.openai_http"):
        obj = ask_structured(model, [{"role": "user", "content": "My cat is called Miso."}], SCHEMA, what="pet")
    assert set(obj) == {"pet", "kind"} and obj["kind"] in ("cat", "dog", "other")
    # It answers json_schema with HTTP 500 and takes json_object with a schema: found once, kept.
    assert model.dialect is Dialect.JSON_OBJECT
    assert "refused structured output as json_schema (HTTP 500); trying json_object" in caplog.text
    assert "Miso" not in caplog.text


def test_the_server_going_away_mid_reply_is_a_clear_error_and_the_conversation_is_kept(anima_home):
    from anima.companion import Companion
    from anima.models.fake import FakeEmbedder
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    server = LlamaServer()
    try:
        chat = OpenAIChatModel(server.url, "smollm2", timeout=30)
        c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder(), user_name="Ada")
        c.indexer_thread.join()
        c.learns, c.reflector.every = False, 0
        c.reply_tokens = 300
        got = []
        with pytest.raises(ModelError) as failed:
            for piece in c.turn("Tell me a long story about my cat Miso at the sea."):
                got.append(piece)
                if len(got) == 1:  # a sentence (the reply is shown a sentence at a time: outward.py)
                    server.kill()
        assert isinstance(failed.value, KnownError)
        assert str(failed.value) in (
            f"The connection to the model server at {server.url} broke in the middle of the reply (IncompleteRead).",
            f"The model server at {server.url} went away before finishing its reply.",
        )
        # What was said is kept: the person's message, and the reply as far as it came.
        kept = [(m["role"], m["content"]) for m in c.messages.newest(10)][::-1]
        assert kept[0] == ("user", "Tell me a long story about my cat Miso at the sea.")
        assert kept[1][0] == "companion" and kept[1][1].startswith("".join(got).strip()[:10])
        # Down: said at once. Back on the same address: the conversation goes on, and the model reads it.
        with pytest.raises(ModelError, match="Cannot reach"):
            c.turn("Are you there?").read()
        server = LlamaServer(server.port)
        c.reply_tokens = 20
        turn = c.turn("And now?")
        assert turn.read().strip()
        read = " ".join(m["content"] for m in turn.workspace.messages)
        assert "my cat Miso at the sea" in read and "Are you there?" in read
        said = [m["content"] for m in c.messages.newest(10)[::-1] if m["role"] == "user"]
        assert said == ["Tell me a long story about my cat Miso at the sea.", "Are you there?", "And now?"]
        c.close()
    finally:
        server.stop()
