"""The chat-model interface: one method to implement, and capability flags."""

import threading
from abc import ABC, abstractmethod
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypedDict

from ..errors import KnownError


class Message(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


class StopReason(Enum):
    """Each way a reply can end, by name."""

    END = "end"  # the model finished its reply
    LENGTH = "length"  # it hit max_tokens
    STOP_SEQUENCE = "stop"  # it produced one of the stop strings
    CANCELLED = "cancelled"  # the cancel flag was set (the user pressed stop, or a turn pre-empted reflection)


class ModelError(KnownError):
    """The model cannot be loaded or reached: a missing or bad file, an endpoint that is down."""


class ModelClosed(ModelError):
    """A model used after it was closed (a program's mistake, said plainly rather than a crash)."""

    def __init__(self, name: str):
        super().__init__(f"The chat model {name} was closed and cannot answer; open the companion again.")


# The tokens a local model sees at once: the workspace and room for the reply. Every new token is read
# against every token before it, so on two cores a warm turn at 3,000 tokens waits ~100 ms longer than one at
# 2,000 (bench/turn.py). Since a trim no longer makes the model read the conversation again (shift.py), a
# smaller context costs only the oldest verbatim turns, which recall brings back when they matter. A bigger
# machine or model can raise it in the settings.
DEFAULT_CONTEXT_TOKENS = 3072


@dataclass(frozen=True)
class Capabilities:
    streaming: bool = True
    # The backend can constrain decoding to a JSON schema (a grammar), not only be asked nicely.
    schema_constrained: bool = False
    gpu_offload: bool = False
    context_tokens: int = DEFAULT_CONTEXT_TOKENS
    # The backend keeps the last prompt's computed prefix in this process, so text evaluated
    # ahead of time (between turns) makes the next turn's first token come sooner.
    keeps_prefix: bool = False
    # It can drop a block of messages from the middle of its computed prefix without reading what follows again
    # (models/shift.py), so the conversation may let old notes go (conversation/live.py age_notes).
    drops_blocks: bool = False


class Stream:
    """The reply's text as it comes; `stop_reason` is set once it is exhausted."""

    def __init__(self, pieces: Generator[str, None, StopReason]):
        self._pieces = pieces
        self.stop_reason: StopReason | None = None
        self.text = ""

    def __iter__(self) -> Iterator[str]:
        self.stop_reason = yield from self._collect()

    def _collect(self) -> Generator[str, None, StopReason]:
        reason: StopReason | None = None
        try:
            while True:
                piece = next(self._pieces)
                self.text += piece
                yield piece
        except StopIteration as done:
            reason = done.value
        return reason or StopReason.END

    def read(self) -> str:
        for _ in self:
            pass
        return self.text

    def close(self) -> None:
        self._pieces.close()


class ChatModel(ABC):
    name: str = "model"
    capabilities: Capabilities = Capabilities()

    @abstractmethod
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
        """Yield the reply's text for `messages`; return why it ended.

        Must check `cancel` between pieces and end with CANCELLED when it is set.
        `schema`, when given, is a JSON schema the reply must match; a backend
        that can constrain decoding to it does so.
        """

    def stream(
        self,
        messages: list[Message],
        *,
        max_tokens: int = 512,
        temperature: float = 0.7,
        stop: tuple[str, ...] = (),
        cancel: threading.Event | None = None,
        schema: dict[str, Any] | None = None,
    ) -> Stream:
        return Stream(
            self.stream_text(
                messages,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=tuple(stop),
                cancel=cancel or threading.Event(),
                schema=schema,
            )
        )

    def complete(self, messages: list[Message], **kwargs: Any) -> str:
        return self.stream(messages, **kwargs).read()

    def count_tokens(self, text: str) -> int:
        """Tokens `text` takes in this model's context. Backends with a tokenizer count exactly."""
        return len(text) // 4 + 1

    @contextmanager
    def aside(self) -> Iterator[None]:
        """A call that is not the conversation (a bid, reflection): the conversation's computed
        prefix must survive it. Backends that keep such state save and restore it here."""
        yield

    def forget_computed(self) -> None:
        """Something in the conversation was forgotten: drop whatever this backend computed or remembered from
        earlier prompts, so none of it is reused. Backends that keep nothing need do nothing."""

    def close(self) -> None:
        """Free native resources. Idempotent."""
