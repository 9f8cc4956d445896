"""The chat model in use, which the person may change while Anima runs: the change waits for a turn boundary.

Every room that talks to the model (the conversation, the parts' bids, reflection, evolution) was handed one
model when the companion was made. They are all handed this one instead, which passes each call to the model in
use. A switch asked for while nothing uses the model takes effect at once; one asked for mid-turn (or while a
call is under way) waits until the turn and its calls end, so that one turn never mixes two models: its workspace
was sized with one model's tokenizer and context. The model it replaces is closed once nothing uses it.
"""

import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any

from .chat import Capabilities, ChatModel, Message, StopReason


class Hold:
    """The model is held until `release()` (idempotent): a turn takes one, and so does each call."""

    def __init__(self, owner: "SwitchableChat"):
        self._owner: SwitchableChat | None = owner

    def release(self) -> None:
        owner, self._owner = self._owner, None
        if owner is not None:
            owner._released()


class SwitchableChat(ChatModel):
    def __init__(self, model: ChatModel):
        self._current = model
        self._pending: ChatModel | None = None
        self._held = 0
        self._lock = threading.Lock()
        self._listeners: list[Any] = []

    @property
    def current(self) -> ChatModel:
        """The model that answers now."""
        return self._current

    @property
    def pending(self) -> ChatModel | None:
        """A model chosen mid-turn, which takes over when the turn ends."""
        return self._pending

    # Attributes on ChatModel; here the model in use's, read at each use.
    @property
    def name(self) -> str:  # type: ignore[override]
        return self._current.name

    @property
    def capabilities(self) -> Capabilities:  # type: ignore[override]
        return self._current.capabilities

    def __getattr__(self, attribute: str) -> Any:
        # What a backend has beyond the interface (ready, start_loading, a fake's history): the model in use's.
        if attribute.startswith("__") or attribute in ("_current", "_pending", "_held", "_lock", "_listeners"):
            raise AttributeError(attribute)
        return getattr(self._current, attribute)

    def __setattr__(self, attribute: str, value: Any) -> None:
        # Its own state, and the methods its class defines (a test may replace stream_text), are its own; anything
        # else set on it (a name, a fake's flags) is set on the model in use, as it is read from there.
        own = getattr(type(self), attribute, None)
        if attribute.startswith("_") or (own is not None and not isinstance(own, property)):
            object.__setattr__(self, attribute, value)
        else:
            setattr(self._current, attribute, value)

    def on_switch(self, listener: Any) -> None:
        """`listener(model)` hears, from whichever thread made it, that `model` now answers."""
        self._listeners.append(listener)

    def switch(self, model: ChatModel) -> bool:
        """Use `model` from the next turn on: at once when nothing holds the model (True), else when the turn under
        way ends (False). A model chosen before that one took over is closed unused."""
        with self._lock:
            dropped, self._pending = self._pending, model
            now = self._held == 0
        if dropped is not None and dropped is not model:
            dropped.close()
        if now:
            self._take_pending()
        return now

    def hold(self) -> Hold:
        """Keep the model in use until the hold is released (a whole turn)."""
        with self._lock:
            self._held += 1
        return Hold(self)

    def _released(self) -> None:
        with self._lock:
            self._held -= 1
            free = self._held == 0 and self._pending is not None
        if free:
            self._take_pending()

    def _take_pending(self) -> None:
        with self._lock:
            if self._held or self._pending is None:
                return  # something took the model again meanwhile: its release switches
            old, self._current, self._pending = self._current, self._pending, None
        if old is not self._current:
            old.close()
        for listener in list(self._listeners):
            listener(self._current)

    # ---- the interface, passed to the model in use, held while each call lasts ---------------------------------

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
        hold = self.hold()
        try:
            model = self._current
            return (
                yield from model.stream_text(
                    messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
                )
            )
        finally:
            hold.release()

    def count_tokens(self, text: str) -> int:
        return self._current.count_tokens(text)

    @contextmanager
    def aside(self) -> Iterator[None]:
        hold = self.hold()  # the state saved is the model's that restores it
        try:
            with self._current.aside():
                yield
        finally:
            hold.release()

    def forget_computed(self) -> None:
        self._current.forget_computed()
        pending = self._pending
        if pending is not None:
            pending.forget_computed()

    def close(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            pending.close()
        self._current.close()
