"""Stop ends a reply of the real default model at once, whether it is still reading a long prompt (within the
step of llama.cpp it is in) or already writing (at the next token), and a prompt whose reading was stopped is
read soundly next time (issue 39: Stop took ~6 s, the whole prompt read first). The seconds it took are printed,
to be read beside STOP_S, not asserted (DESIGN.md: timings are never asserted; a busy machine's differ)."""

import threading
import time

import pytest

from anima.models.chat import StopReason
from anima.models.llama import STOP_S

LONG = " ".join(f"On day {i} Ada walked her dog Bruno to the river and back." for i in range(120))


def measure(model, messages, cancel_at: float, **kwargs) -> tuple[float, int, str, StopReason | None]:
    """Stream `messages` and set the cancel `cancel_at` s after the start: the seconds from the cancel to the end,
    the pieces that came after it, the text, why it ended."""
    cancel = threading.Event()
    marks: dict[str, float] = {}

    def stop() -> None:
        marks["cancel"] = time.monotonic()
        cancel.set()

    timer = threading.Timer(cancel_at, stop)
    stream = model.stream(messages, cancel=cancel, **kwargs)
    timer.start()
    after = 0
    for _ in stream:
        after += cancel.is_set()
    ended = time.monotonic()
    timer.join()
    assert "cancel" in marks, "it ended before the cancel: nothing was measured"
    return ended - marks["cancel"], after, stream.text, stream.stop_reason


@pytest.mark.slow  # the real model, a long prompt
def test_stop_while_a_long_prompt_is_read_ends_it_before_the_prompt_is_read(real_model):
    ask = [{"role": "system", "content": "Summarise in one line."}, {"role": "user", "content": LONG}]
    real_model.llama  # loaded: it knows its prompt's tokens
    assert len(real_model._exact_prompt(ask)) > 1500
    real_model.forget_computed()
    took, _, text, reason = measure(real_model, ask, 0.1, max_tokens=64)
    tokens = len(real_model._exact_prompt(ask))
    print(f"\nstopped while reading a prompt of {tokens} tokens: {took:.3f} s (STOP_S {STOP_S})")
    assert reason is StopReason.CANCELLED and text == ""
    assert real_model.llama.n_tokens < len(real_model._exact_prompt(ask)) - 1  # it did not read all of it
    # Read again, the prompt gives what a model that was never stopped gives.
    again = real_model.stream(ask, max_tokens=8, temperature=0.0).read()
    real_model.forget_computed()
    assert real_model.stream(ask, max_tokens=8, temperature=0.0).read() == again


@pytest.mark.slow  # the real model
def test_stop_while_it_writes_ends_it_at_the_next_token(real_model):
    ask = [{"role": "user", "content": "Tell me a very long story about a cat and a dog."}]
    real_model.forget_computed()
    cancel, pieces = threading.Event(), []
    stream = real_model.stream(ask, max_tokens=2000, cancel=cancel)
    for piece in stream:
        pieces.append(piece)
        if len(pieces) == 3:  # writing: Stop now
            cancelled_at = time.monotonic()
            cancel.set()
    took = time.monotonic() - cancelled_at
    print(f"\nstopped while writing: {took:.3f} s (STOP_S {STOP_S})")
    assert stream.stop_reason is StopReason.CANCELLED
    assert len(pieces) == 3  # not one piece after the cancel
