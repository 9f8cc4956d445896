"""A local HTTP file server for download tests: serves bytes, honours `Range: bytes=N-`, and can drop the
connection midway or ignore Range, as real servers and networks do. No test reaches the internet."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FileServer:
    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.ranges: list[str | None] = []  # the Range header of each request, in order
        self.drop_after: list[int] = []  # for the next requests, one each: send this many bytes, then hang up
        self.ignore_range = False
        self.pace = 0.0  # seconds between pieces of 64 KiB: a slow network, for a download to be caught midway
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                data = outer.files.get(self.path)
                wanted = self.headers.get("Range")
                outer.ranges.append(wanted)
                if data is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                start = 0
                if wanted and not outer.ignore_range:
                    start = int(wanted.removeprefix("bytes=").split("-")[0])
                    if start >= len(data):
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(data)}")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(data) - start))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()
                body = data[start:]
                if outer.drop_after:
                    body = body[: outer.drop_after.pop(0)]
                    self.close_connection = True
                piece = 1 << 16 if outer.pace else len(body) or 1
                for at in range(0, len(body), piece):
                    try:
                        self.wfile.write(body[at : at + piece])
                        self.wfile.flush()
                    except ConnectionError:
                        return  # the client hung up (a cancelled download)
                    time.sleep(outer.pace)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()
