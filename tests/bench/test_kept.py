"""A benchmark closes a companion and goes on with its chat model: the soul closes, the model stays open."""

import threading

from bench.kept import close_keeping_model


def test_the_companion_closes_and_its_model_still_answers(companion):
    chat = companion.chat
    close_keeping_model(companion)
    assert companion.soul.con is None and not chat.closed
    chat.enqueue("still here")
    assert (
        "".join(
            chat.stream_text(
                [{"role": "user", "content": "hello"}],
                max_tokens=8,
                temperature=0.0,
                stop=[],
                cancel=threading.Event(),
                schema=None,
            )
        )
        == "still here"
    )
