"""Looking for model servers the person runs: a fake Ollama and a fake LM Studio on the loopback address, a port
where nothing listens, and a server that answers with something else."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from anima.models.openai_http import OpenAIChatModel
from anima.models.servers import PLACES, Place, find
from tests.models.model_server import LocalModelServer, closed_port


@pytest.fixture
def ollama():
    s = LocalModelServer("ollama", ["llama3.2:3b", "qwen3:4b"], reply="I am Ollama's model.")
    yield s
    s.close()


@pytest.fixture
def lmstudio():
    s = LocalModelServer("lmstudio", ["google/gemma-3-4b"], reply="LM Studio here.")
    yield s
    s.close()


def test_the_usual_places_are_ollamas_and_lm_studios_local_ports():
    assert [(p.kind, p.root + p.listing) for p in PLACES] == [
        ("Ollama", "http://127.0.0.1:11434/api/tags"),
        ("LM Studio", "http://127.0.0.1:1234/v1/models"),
    ]


def test_both_servers_are_found_with_their_models_and_their_openai_root(ollama, lmstudio):
    found = find([ollama.place(), lmstudio.place()])
    assert [(s.kind, s.url, s.models) for s in found] == [
        ("Ollama", ollama.root + "/v1", ("llama3.2:3b", "qwen3:4b")),
        ("LM Studio", lmstudio.root + "/v1", ("google/gemma-3-4b",)),
    ]
    assert found[0].describe() == f"Ollama at {ollama.root}/v1 (2 models)"


def test_a_server_found_answers_a_chat_through_the_openai_compatible_path(ollama):
    [server] = find([ollama.place()])
    model = OpenAIChatModel(server.url, server.models[0])
    assert model.complete([{"role": "user", "content": "hi"}]) == "I am Ollama's model."
    assert ollama.asked[-1]["model"] == "llama3.2:3b"


def test_a_port_where_nothing_listens_is_left_out_quickly(lmstudio):
    nothing = Place("Ollama", closed_port(), "/api/tags")
    began = time.monotonic()
    found = find([nothing, lmstudio.place()])
    assert [s.kind for s in found] == ["LM Studio"]
    assert time.monotonic() - began < 3


def test_a_server_that_answers_with_something_else_is_not_taken_for_one():
    class Html(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            body = b"<html>a web page</html>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    web = ThreadingHTTPServer(("127.0.0.1", 0), Html)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        assert find([Place("LM Studio", f"http://127.0.0.1:{web.server_address[1]}", "/v1/models")]) == []
    finally:
        web.shutdown()
        web.server_close()


def test_a_server_with_no_models_yet_is_listed_saying_so():
    empty = LocalModelServer("ollama", [])
    try:
        [server] = find([empty.place()])
        assert server.models == () and server.describe().endswith("(no models yet)")
    finally:
        empty.close()
