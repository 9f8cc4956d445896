"""A model server on the loopback address that answers as Ollama or LM Studio do: its list of models, and
OpenAI-compatible chat completions streamed as server-sent events. No test reaches beyond this machine."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from anima.models.servers import Place


class LocalModelServer:
    """`kind`: "ollama" (GET /api/tags) or "lmstudio" (GET /v1/models); each POST /v1/chat/completions streams
    `reply` word by word and is recorded in `asked` (its JSON body)."""

    def __init__(self, kind: str, models: list[str], reply: str = "Hello from the server."):
        self.kind, self.models, self.reply = kind, models, reply
        self.asked: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _json(self, obj) -> None:
                body = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if outer.kind == "ollama" and self.path == "/api/tags":
                    return self._json({"models": [{"name": m, "model": m, "size": 1} for m in outer.models]})
                if self.path == "/v1/models":
                    return self._json({"object": "list", "data": [{"id": m, "object": "model"} for m in outer.models]})
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                outer.asked.append(body)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                words = outer.reply.split(" ")
                for i, word in enumerate(words):
                    piece = word if i == 0 else " " + word
                    chunk = {"choices": [{"delta": {"content": piece}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b'data: {"choices": [{"delta": {}, "finish_reason": "stop"}]}\n\n')
                self.wfile.write(b"data: [DONE]\n\n")
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.root = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def place(self) -> Place:
        """Where anima.models.servers looks for this server."""
        if self.kind == "ollama":
            return Place("Ollama", self.root, "/api/tags")
        return Place("LM Studio", self.root, "/v1/models")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port() -> str:
    """The root of a port on the loopback address where nothing listens (bound, then closed)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
