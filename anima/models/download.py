"""Downloading a model file the person asked for: progress, resume, cancel, and verification before use.

Nothing calls this unless the person pressed Download (the settings dialog); the app never fetches a model on its
own (DESIGN.md). The bytes go to `NAME.part` beside the destination; a connection that drops is resumed with an
HTTP Range request from where the part ends, a few times, and a cancelled or failed download leaves the part so
that the next Download goes on from there. Only a file that passes verification (the size the server announced
and the catalogue's, when it knows one; the GGUF header; the sha256, when it knows one) takes the model's name:
one that fails is removed. No Qt here: the window runs it in a thread and turns the callback into signals.
"""

import errno
import hashlib
import http.client
import logging
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

from ..errors import KnownError, full_disk
from .chat import ModelError
from .gguf import read_header

log = logging.getLogger(__name__)

CHUNK = 1 << 16
ATTEMPTS = 4  # a dropped connection is resumed this many times in one download, then left for later
REPORT_EVERY_S = 0.1  # progress at most this often (a 2 GB file is 30,000 chunks), and once at the end


class DownloadFailed(KnownError):
    pass


class DownloadCancelled(KnownError):
    def __init__(self, part: Path):
        super().__init__("The download was cancelled; what came so far is kept, and Download goes on from there.")
        self.part = part


def part_of(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


class _Dropped(Exception):
    """The connection ended before the bytes it announced: resume."""


def download(
    url: str,
    dest: str | os.PathLike[str],
    *,
    size: int | None = None,
    sha256: str | None = None,
    progress: Callable[[int, int | None], None] = lambda done, total: None,
    cancel: threading.Event | None = None,
    timeout: float = 30.0,
) -> Path:
    """Fetch `url` into `dest` and verify it; return `dest`. `progress(done, total)` is called from this thread
    (total is None when the server does not say). Raises DownloadCancelled, or DownloadFailed with one sentence."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = part_of(dest)
    cancel = cancel or threading.Event()
    total = size
    for attempt in range(ATTEMPTS):
        try:
            total = _fetch(url, part, total, progress, cancel, timeout)
            break
        except _Dropped as e:
            log.info("download interrupted at %s bytes (attempt %d), resuming", e, attempt + 1)
    else:
        have = part.stat().st_size if part.exists() else 0
        raise DownloadFailed(
            f"The connection to {_host(url)} kept dropping; {_mb(have)} of {_mb(total)} came "
            f"and are kept: press Download again to go on."
        )
    _verify(part, total, size, sha256, url)
    os.replace(part, dest)
    return dest


def _fetch(
    url: str,
    part: Path,
    total: int | None,
    progress: Callable[[int, int | None], None],
    cancel: threading.Event,
    timeout: float,
) -> int | None:
    """One request, from where the part ends; returns the file's total size when known."""
    have = part.stat().st_size if part.exists() else 0
    if total is not None and have > total:
        part.unlink()  # longer than the file: not a part of it
        have = 0
    request = urllib.request.Request(
        url,
        headers={"User-Agent": "anima", "Accept-Encoding": "identity", **({"Range": f"bytes={have}-"} if have else {})},
    )
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as e:
        e.close()
        if e.code == 416 and total is not None and have == total:
            return total  # the part was complete already
        if e.code == 416:
            part.unlink(missing_ok=True)  # a part the server does not recognise: start again
            raise _Dropped(0) from None
        raise DownloadFailed(f"{_host(url)} refused the download (HTTP {e.code}).") from None
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        raise DownloadFailed(f"Cannot reach {_host(url)}: {getattr(e, 'reason', e)}.") from None
    with response:
        if response.status == 206:
            start, announced = _content_range(response.headers.get("Content-Range", ""))
            if start != have:
                raise DownloadFailed(f"{_host(url)} sent the file from byte {start}, not {have}.")
            mode = "ab"
        else:  # 200: the whole file (a server that ignores Range starts again from the first byte)
            length = response.headers.get("Content-Length")
            announced, have, mode = (int(length) if length and length.isdigit() else None), 0, "wb"
        if announced is not None:
            if total is not None and announced != total:
                raise DownloadFailed(
                    f"{_host(url)} offers a file of {announced:,} bytes, not the {total:,} expected; nothing was kept."
                )
            total = announced
        _copy(response, part, mode, have, total, progress, cancel)
    return total


def _copy(
    response: http.client.HTTPResponse,
    part: Path,
    mode: str,
    done: int,
    total: int | None,
    progress: Callable[[int, int | None], None],
    cancel: threading.Event,
) -> None:
    last = 0.0
    progress(done, total)
    try:
        with open(part, mode) as out:
            while True:
                if cancel.is_set():
                    out.flush()
                    raise DownloadCancelled(part)
                try:
                    chunk = response.read(CHUNK)
                except (ConnectionError, TimeoutError, http.client.HTTPException) as e:
                    out.flush()
                    raise _Dropped(done) from e
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                if time.monotonic() - last >= REPORT_EVERY_S:
                    last = time.monotonic()
                    progress(done, total)
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DownloadFailed(
                full_disk(f"what came ({_mb(done)}) is kept", again="press Download again to go on")
            ) from None
        raise
    progress(done, total)
    if total is not None and done < total:
        raise _Dropped(done)  # the server closed the connection before the bytes it announced


def _verify(part: Path, total: int | None, size: int | None, sha256: str | None, url: str) -> None:
    got = part.stat().st_size
    try:
        if total is not None and got != total:
            raise DownloadFailed(
                f"The file from {_host(url)} is {got:,} bytes, not the {total:,} it announced; it was removed."
            )
        if size is not None and got != size:
            raise DownloadFailed(
                f"The file from {_host(url)} is {got:,} bytes, not the {size:,} the catalogue states; it was removed."
            )
        try:
            read_header(part)
        except ModelError:
            raise DownloadFailed(f"What came from {_host(url)} is not a GGUF model file; it was removed.") from None
        if sha256 is not None and _sha256(part) != sha256.lower():
            raise DownloadFailed(f"The file from {_host(url)} does not match the catalogue's sha256; it was removed.")
    except DownloadFailed:
        part.unlink(missing_ok=True)
        raise


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def _content_range(value: str) -> tuple[int, int | None]:
    m = re.fullmatch(r"bytes (\d+)-\d+/(\d+|\*)", value.strip())
    if not m:
        raise DownloadFailed(
            f"The server answered a resumed download with a Content-Range it does not explain ({value[:60]!r})."
        )
    return int(m.group(1)), None if m.group(2) == "*" else int(m.group(2))


def _host(url: str) -> str:
    return urllib.parse.urlparse(url).netloc or url


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 1e6:,.1f} MB"
