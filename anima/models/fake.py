"""Fakes for fast tests: a queue-driven chat model and a hashing embedder."""

import hashlib
import re
import threading
import time
from collections import deque
from collections.abc import Generator
from typing import Any

import numpy as np
import numpy.typing as npt

from .chat import Capabilities, ChatModel, Message, ModelClosed, StopReason
from .embedder import READ_MOST, Embedder

# What a FakeChatModel replies: a text (streamed word by word), its pieces, or an exception to raise.
Reply = str | list[str] | BaseException
DEFAULT_CAPABILITIES = Capabilities()  # frozen: one instance serves every fake


class FakeChatModel(ChatModel):
    """Replies with what was enqueued, in order, and records every call in `history`.

    Enqueue a string (streamed word by word), a list of pieces, or an exception
    to raise. Like a real model it stops at `max_tokens` (a token here is a
    word) and at stop strings, and honours the cancel flag.
    """

    name = "fake"

    def __init__(self, capabilities: Capabilities = DEFAULT_CAPABILITIES, delay: float = 0.0):
        self.capabilities = capabilities
        self.delay = delay  # seconds per piece, to look like a model that takes its time
        self.queue: deque[Reply] = deque()
        self.history: list[dict[str, Any]] = []
        self.forgotten = 0  # times forget_computed was called
        self.closed = False

    def count_tokens(self, text: str) -> int:
        self._open()
        return len(re.findall(r"\S+\s*|\s+", text))

    def _open(self) -> None:
        """Used after close, as the real model (which would crash the process): ModelClosed."""
        if self.closed:
            raise ModelClosed(self.name)

    def forget_computed(self) -> None:
        self.forgotten += 1

    def close(self) -> None:
        self.closed = True

    def enqueue(self, *replies: Reply) -> "FakeChatModel":
        self.queue.extend(replies)
        return self

    def stream_text(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        stop: tuple[str, ...],
        cancel: threading.Event,
        schema: dict[str, Any] | None,
    ) -> Generator[str, None, StopReason]:
        self._open()
        self.history.append(
            {
                "messages": [dict(m) for m in messages],
                "max_tokens": max_tokens,
                "stop": stop,
                "schema": schema,
                "temperature": temperature,
            }
        )
        if not self.queue:
            raise AssertionError("FakeChatModel was called with nothing enqueued")
        reply = self.queue.popleft()
        if isinstance(reply, BaseException):
            raise reply
        pieces = reply if isinstance(reply, list) else re.findall(r"\S+\s*|\s+", reply)
        text = ""
        for i, piece in enumerate(pieces):
            if cancel.is_set():
                return StopReason.CANCELLED
            if i >= max_tokens:
                return StopReason.LENGTH
            for s in stop:
                if s in text + piece:
                    yield (text + piece)[len(text) : (text + piece).index(s)]
                    return StopReason.STOP_SEQUENCE
            text += piece
            if self.delay:
                time.sleep(self.delay)
            yield piece
        return StopReason.END


class FakeEmbedder(Embedder):
    """Deterministic bag-of-words vectors: texts sharing words are near; no model needed. Of a long text it reads
    what the real embedder reads (READ_MOST characters): a pasted million characters is not hashed word by word
    on the turn's thread, work no real model does, while the window waits for the GIL (bench limits)."""

    name = "fake-hash"

    def __init__(self, dim: int = 384):
        self.dim = dim

    def embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text[:READ_MOST].lower()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                out[row, h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.where(norms == 0, 1, norms)
        return out
