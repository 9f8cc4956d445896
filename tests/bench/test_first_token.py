"""The model's first token in a turn is timed apart from the first words the turn shows (a whole first sentence,
held until it ends), and only the turn's own call to the model is timed."""

import math
import threading

from bench.first_token import FirstToken


def test_the_first_token_comes_before_the_first_sentence_is_shown(companion):
    timer = FirstToken(companion.chat)
    companion.chat.delay = 0.01  # each piece takes a moment, as a model's do
    companion.chat.enqueue("Your cat Miso is a very fine cat indeed. She purrs.")
    first_token, shown, _ = timer.turn(companion, "tell me about my cat")
    assert 0 < first_token <= shown and 0 <= timer.prepared_ms <= first_token
    said = companion.soul.query("SELECT content FROM messages WHERE role = 'companion'")
    assert [r["content"] for r in said] == ["Your cat Miso is a very fine cat indeed. She purrs."]  # read to its end


def test_a_call_from_another_thread_is_not_the_turns(companion):
    timer = FirstToken(companion.chat)
    timer.thread = threading.get_ident() + 1  # the turn's thread is another one
    companion.chat.enqueue("a reflection's answer")
    assert (
        "".join(
            companion.chat.stream_text(
                [{"role": "user", "content": "reflect"}],
                max_tokens=8,
                temperature=0.0,
                stop=[],
                cancel=threading.Event(),
                schema=None,
            )
        )
        == "a reflection's answer"
    )
    assert timer.at is None and timer.asked is None


def test_a_turn_whose_model_says_nothing_has_no_first_token(companion):
    timer = FirstToken(companion.chat)
    companion.chat.enqueue([])
    first_token, _, _ = timer.turn(companion, "hello?")
    assert math.isnan(first_token) and timer.asked is not None
