"""The OpenAI-compatible backend against real local servers on 127.0.0.1.

The main one serves the real default model in OpenAI's streaming format;
the others are down, slow, or answer garbage.
"""

import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from anima.models.chat import ModelError, StopReason
from anima.models.openai_http import OpenAIChatModel
from anima.models.structured import ask_structured
from anima.parts.part import PART_CREATION_SCHEMA


def serve(handler_cls):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_cls)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop(server):
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def model_server(real_model):
    """An OpenAI-compatible server on the real model, as llama.cpp's server or Ollama would be."""
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
            fmt = body.get("response_format") or {}
            schema = fmt.get("json_schema", {}).get("schema")
            stream = real_model.stream(
                body["messages"], max_tokens=body["max_tokens"], temperature=body["temperature"], schema=schema
            )
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for piece in stream:
                self._event({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
            finish = "length" if stream.stop_reason is StopReason.LENGTH else "stop"
            self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
            self.wfile.write(b"data: [DONE]\n\n")

        def _event(self, obj):
            self.wfile.write(b"data: " + json.dumps(obj).encode() + b"\n\n")
            self.wfile.flush()

    server = serve(Handler)
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", seen
    stop(server)


@pytest.mark.slow  # a server on the real model
def test_a_reply_streams_from_a_real_local_server(model_server):
    url, seen = model_server
    model = OpenAIChatModel(url, "smollm2", api_key="sk-local", timeout=30)
    stream = model.stream([{"role": "user", "content": "Say hello in one sentence."}], max_tokens=30)
    pieces = list(stream)
    assert len(pieces) > 1 and "".join(pieces).strip()
    assert stream.stop_reason in (StopReason.END, StopReason.LENGTH)
    assert seen[-1]["path"] == "/v1/chat/completions"
    assert seen[-1]["auth"] == "Bearer sk-local"


@pytest.mark.slow  # a server on the real model
def test_a_structured_call_through_the_server_is_schema_constrained(model_server):
    url, seen = model_server
    model = OpenAIChatModel(url, "smollm2", timeout=60)
    obj = ask_structured(
        model, [{"role": "user", "content": "Moment: the user adopted a puppy."}], PART_CREATION_SCHEMA, what="part"
    )
    assert set(obj) == set(PART_CREATION_SCHEMA["required"])
    assert seen[-1]["body"]["response_format"]["json_schema"]["schema"] == PART_CREATION_SCHEMA


def test_an_endpoint_that_is_down_is_a_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    model = OpenAIChatModel(f"http://127.0.0.1:{port}/v1", "m", timeout=5)
    with pytest.raises(ModelError, match=r"Cannot reach .*refused"):  # refused at once, not waited out
        model.complete([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize(
    "url, says",
    [
        ("http://exa mple.com/v1", "names no server (or holds a space)"),
        ("http://[::1", "cannot be read (Invalid IPv6 URL)"),
        ("http://host:port/v1", "cannot be read (Port could not be cast"),
    ],
)
def test_an_address_that_cannot_be_used_is_refused_in_settings_and_a_clear_error_when_used(url, says, anima_home):
    """QA: Settings saved "http://exa mple.com/v1" and "http://[::1"; then every message met InvalidURL or
    ValueError, and the window showed its bug dialog."""
    from anima.errors import KnownError
    from anima.settings import Settings

    with pytest.raises(KnownError, match=re.escape(says)):
        Settings(endpoint_url=url, endpoint_model="m").save()
    assert not Settings.path().exists()
    with pytest.raises(ModelError, match=re.escape(says)):  # as a settings file written by hand would have it
        OpenAIChatModel(url, "m", timeout=5).complete([{"role": "user", "content": "hi"}])


@pytest.mark.slow  # a server
def test_a_slow_endpoint_times_out_with_a_clear_error():
    given_up = threading.Event()

    class Slow(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            given_up.wait(60)  # says nothing until the client has given up

    server = serve(Slow)
    model = OpenAIChatModel(f"http://127.0.0.1:{server.server_address[1]}/v1", "m", timeout=0.5)
    try:
        with pytest.raises(ModelError, match=r"did not answer within 0\.5 s"):
            model.complete([{"role": "user", "content": "hi"}])
    finally:
        given_up.set()
        stop(server)


@pytest.mark.slow  # a server
@pytest.mark.parametrize(
    "status, body",
    [
        (200, b"<html><body>Welcome to nginx</body></html>"),
        (200, b"data: {not json}\n\n"),
        (200, b'data: {"choices": [{"delta": {"content": "half a rep'),
        (500, b"internal error"),
    ],
)
def test_an_endpoint_that_answers_garbage_is_a_clear_error(status, body):
    class Garbage(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.send_response(status)
            self.end_headers()
            self.wfile.write(body)

    server = serve(Garbage)
    model = OpenAIChatModel(f"http://127.0.0.1:{server.server_address[1]}/v1", "m", timeout=5)
    with pytest.raises(ModelError):
        model.complete([{"role": "user", "content": "hi"}])
    stop(server)
