"""Structured output through each kind of model server, simulated on 127.0.0.1.

Each simulated server takes structured output only in its own dialect and
answers the others as the real one does (llama-cpp-python's with HTTP 500,
LM Studio and vLLM with 400, a server that is not Ollama with 404 on /api/chat).
tests/models/test_llama_server.py talks to llama-cpp-python's real server.
"""

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from anima.models.chat import ModelError, StopReason
from anima.models.dialects import Dialect
from anima.models.openai_http import OpenAIChatModel
from anima.models.structured import ask_structured

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 20}},
    "required": ["name"],
    "additionalProperties": False,
}
ANSWER = '{"name": "Miso"}'


def takes(dialect: str, body: dict, path: str) -> bool:
    """Whether a server that speaks `dialect` accepts this request."""
    if path.endswith("/api/chat"):
        return dialect == "ollama"
    if "guided_json" in body:
        return dialect == "guided_json"
    fmt = body.get("response_format")
    if fmt is None:
        return True  # a plain request
    if fmt["type"] == "json_schema":
        return dialect in ("json_schema", "ollama")  # Ollama's /v1 takes it too
    return dialect == "json_object" and "schema" in fmt


class Simulated:
    """A server speaking one dialect; `seen` holds (path, body) of every request."""

    def __init__(self, dialect: str, refusal: int = 400, key: str | None = None):
        self.seen = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.seen.append((self.path, body))
                if key and self.headers.get("Authorization") != f"Bearer {key}":
                    return self._fail(401, b'{"error": "invalid api key"}')
                if self.path.endswith("/api/chat") and dialect != "ollama":
                    return self._fail(404, b"404 page not found")
                if not takes(dialect, body, self.path):
                    return self._fail(refusal, b'{"error": "unsupported response_format"}')
                self.send_response(200)
                self.end_headers()
                if self.path.endswith("/api/chat"):
                    for piece in (ANSWER[:5], ANSWER[5:]):
                        self.wfile.write(
                            json.dumps({"message": {"role": "assistant", "content": piece}, "done": False}).encode()
                            + b"\n"
                        )
                    self.wfile.write(b'{"done": true, "done_reason": "stop"}\n')
                    return
                for piece in (ANSWER[:5], ANSWER[5:]):
                    self.wfile.write(
                        b"data: "
                        + json.dumps({"choices": [{"delta": {"content": piece}, "finish_reason": None}]}).encode()
                        + b"\n\n"
                    )
                self.wfile.write(b'data: {"choices": [{"delta": {}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n')

            def _fail(self, code, text):
                self.send_response(code)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def simulated():
    made = []

    def make(dialect, **kw):
        made.append(Simulated(dialect, **kw))
        return made[-1]

    yield make
    for s in made:
        s.close()


@pytest.mark.parametrize(
    "server, refusal, expected",
    [
        ("json_schema", 400, Dialect.JSON_SCHEMA),  # llama.cpp's server, LM Studio, vLLM, Ollama's /v1
        ("json_object", 500, Dialect.JSON_OBJECT),  # llama-cpp-python's server answers json_schema with HTTP 500
        ("guided_json", 400, Dialect.GUIDED_JSON),  # an older vLLM
        ("none", 400, Dialect.PROMPT),  # a server with no structured output at all
    ],
)
def test_auto_finds_the_dialect_the_server_speaks_and_keeps_it(simulated, caplog, server, refusal, expected):
    s = simulated(server, refusal=refusal)
    model = OpenAIChatModel(s.url, "m", timeout=5)
    with caplog.at_level(logging.INFO, logger="anima.models.openai_http"):
        assert ask_structured(model, [{"role": "user", "content": "My cat is Miso."}], SCHEMA) == {"name": "Miso"}
    assert model.dialect is expected
    refused = ORDER_BEFORE[expected]
    assert [m for m in caplog.messages if "refused structured output" in m] == [
        f"the model server at {s.url} refused structured output as {d} (HTTP {404 if d == 'ollama' else refusal}); "
        f"trying {n}"
        for d, n in refused
    ]
    assert "My cat" not in caplog.text  # the log never holds what was said
    # The second call goes straight to the dialect that worked.
    before = len(s.seen)
    ask_structured(model, [{"role": "user", "content": "Again."}], SCHEMA)
    assert len(s.seen) == before + 1


ORDER_BEFORE = {
    Dialect.JSON_SCHEMA: [],
    Dialect.JSON_OBJECT: [("json_schema", "json_object")],
    Dialect.GUIDED_JSON: [("json_schema", "json_object"), ("json_object", "guided_json")],
    Dialect.PROMPT: [
        ("json_schema", "json_object"),
        ("json_object", "guided_json"),
        ("guided_json", "ollama"),
        ("ollama", "prompt"),
    ],
}


def test_a_server_without_structured_output_is_shown_the_schema_in_the_prompt(simulated):
    s = simulated("none")
    model = OpenAIChatModel(s.url, "m", timeout=5)
    assert model.capabilities.schema_constrained
    ask_structured(model, [{"role": "user", "content": "hi"}], SCHEMA)
    _path, body = s.seen[-1]
    assert "response_format" not in body and "guided_json" not in body
    assert not model.capabilities.schema_constrained
    # The retry after it was found out, and every call after, carry the schema itself.
    ask_structured(model, [{"role": "user", "content": "hi"}], SCHEMA)
    assert "Its JSON schema: " + json.dumps(SCHEMA, separators=(",", ":")) in s.seen[-1][1]["messages"][-1]["content"]


def test_ollama_native_api_gets_the_schema_as_format(simulated):
    s = simulated("ollama")
    model = OpenAIChatModel(s.url, "llama3.2", timeout=5, dialect="ollama")
    obj = ask_structured(model, [{"role": "user", "content": "My cat is Miso."}], SCHEMA, max_tokens=50)
    assert obj == {"name": "Miso"}
    path, body = s.seen[-1]
    assert path == "/api/chat"
    assert body["format"] == SCHEMA and body["model"] == "llama3.2" and body["options"]["num_predict"] == 50


def test_llama_cpp_python_dialect_sends_json_object_with_its_schema(simulated):
    s = simulated("json_object", refusal=500)
    model = OpenAIChatModel(s.url, "m", timeout=5, dialect="json_object")
    ask_structured(model, [{"role": "user", "content": "hi"}], SCHEMA)
    assert len(s.seen) == 1  # a dialect that is set is not probed
    assert s.seen[0][1]["response_format"] == {"type": "json_object", "schema": SCHEMA}


def test_a_dialect_set_in_the_settings_that_the_server_refuses_is_a_clear_error(simulated):
    s = simulated("json_object", refusal=500)
    model = OpenAIChatModel(s.url, "m", timeout=5, dialect="json_schema")
    with pytest.raises(ModelError, match="refused the request \\(HTTP 500\\)"):
        ask_structured(model, [{"role": "user", "content": "hi"}], SCHEMA)


def test_a_refused_key_is_not_taken_for_a_dialect(simulated):
    s = simulated("json_schema", key="sk-right")
    model = OpenAIChatModel(s.url, "m", timeout=5, api_key="sk-wrong")
    with pytest.raises(ModelError, match=r"refused the API key \(HTTP 401\).*ANIMA_ENDPOINT_KEY"):
        ask_structured(model, [{"role": "user", "content": "hi"}], SCHEMA)
    assert len(s.seen) == 1 and model.dialect is None
    right = OpenAIChatModel(s.url, "m", timeout=5, api_key=lambda: "sk-right")  # found when the request is made
    assert right.complete([{"role": "user", "content": "hi"}]) == ANSWER


def test_a_plain_turn_carries_no_dialect(simulated):
    s = simulated("json_object", refusal=500)
    model = OpenAIChatModel(s.url, "m", timeout=5)
    stream = model.stream([{"role": "user", "content": "hi"}])
    assert stream.read() == ANSWER and stream.stop_reason is StopReason.END
    assert len(s.seen) == 1 and "response_format" not in s.seen[0][1] and model.dialect is None


def test_ollama_native_stream_ends_as_it_says():
    from anima.models.openai_http import _ollama_line

    assert _ollama_line(b'{"message": {"content": "Mi"}, "done": false}', "x") == ("Mi", None)
    assert _ollama_line(b'{"done": true, "done_reason": "length"}', "x") == (None, "length")
    with pytest.raises(ModelError, match="failed mid-reply: model not found"):
        _ollama_line(b'{"error": "model not found"}', "x")
    with pytest.raises(ModelError, match="not Ollama's stream"):
        _ollama_line(b"<html>", "x")
