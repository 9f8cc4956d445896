"""A fake model's mixin that holds the first structured answer after it has begun, until the call is cancelled:
a turn then always finds background work mid-answer (a gate, not a race against a sleep)."""

import threading


class HoldsFirstStructuredAnswer:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked = threading.Event()

    def stream_text(self, messages, *, max_tokens, temperature, stop, cancel, schema):
        pieces = super().stream_text(
            messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
        )
        if schema is not None and not self.asked.is_set():
            yield next(pieces)
            self.asked.set()
            assert cancel.wait(timeout=60), "the turn never pre-empted the work between turns"
        return (yield from pieces)
