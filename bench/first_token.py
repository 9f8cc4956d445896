"""The model's first token in a turn, timed apart from the first words the turn shows.

A turn holds its reply's first sentence until it ends (conversation/outward.py),
so the first piece a turn yields comes a sentence after the model's first token:
a benchmark that compares a turn with raw llama.cpp's first token times the
model's first token here.
"""

import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.conversation import TurnStream


class FirstToken:
    """When the chat model gave its first token in a turn (what a soul's size could delay: recording, recall,
    the prompt read), apart from when the turn showed its first words (a whole first sentence, held until it
    ends, and asked again when it opened by announcing how they seem to feel: the reply's words, not the soul,
    decide that)."""

    def __init__(self, chat):
        self.at: float | None = None
        self.asked: float | None = None  # when the turn asked the model for its reply
        self.thread: int | None = None  # the turn's (a reflection running beside it asks from its own)
        # The prompt's new tokens llama.cpp read for the turn before its first token, and how long that took.
        self.read_tokens, self.read_ms = 0, 0.0
        self._chat, self._evals_watched = chat, False
        real = chat.stream_text

        def stream_text(messages, **kw):
            if threading.get_ident() != self.thread:
                return (yield from real(messages, **kw))
            if self.asked is None:
                self.asked = time.perf_counter()
            pieces = real(messages, **kw)
            try:
                piece = next(pieces)
            except StopIteration as e:
                return e.value
            if self.at is None:
                self.at = time.perf_counter()
            yield piece
            return (yield from pieces)

        chat.stream_text = stream_text

    def turn(self, c: "Companion", text: str) -> tuple[float, float, "TurnStream"]:
        """(ms to the model's first token, ms to the first words shown, the turn), the turn read to its end.
        `prepared_ms` is then how long recording and recall took before the model was asked."""
        self.at = self.asked = None
        self.read_tokens, self.read_ms = 0, 0.0
        self.thread = threading.get_ident()
        self._watch_evals()
        t = time.perf_counter()
        turn = c.turn(text)
        shown = float("nan")
        for _ in turn:
            shown = (time.perf_counter() - t) * 1000
            break
        for _ in turn:
            pass
        self.prepared_ms = float("nan") if self.asked is None else (self.asked - t) * 1000
        return (float("nan") if self.at is None else (self.at - t) * 1000), shown, turn

    def _watch_evals(self) -> None:
        """Time llama.cpp's reading of the turn's prompt (a real model that has loaded; a fake one reads none)."""
        loaded = getattr(self._chat, "_loaded", None)
        llm = loaded() if loaded is not None and not self._evals_watched else None
        if llm is None:
            return
        self._evals_watched, real = True, llm.eval

        def eval(tokens):
            if threading.get_ident() != self.thread or self.at is not None:
                return real(tokens)
            t = time.perf_counter()
            try:
                return real(tokens)
            finally:
                self.read_tokens += len(tokens)
                self.read_ms += (time.perf_counter() - t) * 1000

        llm.eval = eval
