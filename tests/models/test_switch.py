"""Switching the chat model while the companion runs: at once between turns, at the end of a turn under way,
never in the middle of one; the model replaced is closed."""

import threading

from anima.models.fake import FakeChatModel
from anima.models.switch import SwitchableChat


def test_between_turns_the_next_reply_comes_from_the_new_model(companion):
    old = companion.chat.current
    old.enqueue("From the first model.")
    assert companion.turn("hello").read() == "From the first model."
    new = FakeChatModel()
    new.name = "second"
    new.enqueue("From the second model.")
    assert companion.use_model(new) is True
    assert companion.model_name == "second" and old.closed
    assert companion.turn("and now?").read() == "From the second model."
    assert len(old.history) == 1 and len(new.history) == 1


def test_a_switch_asked_mid_turn_waits_for_the_end_of_that_turn(companion):
    old = companion.chat.current
    old.enqueue("The old model finishes this reply.")
    turn = companion.turn("hello")  # prepared: the workspace was sized with the old model
    new = FakeChatModel()
    new.name = "second"
    new.enqueue("New.")
    heard = []
    companion.on_model_switch(heard.append)
    assert companion.use_model(new) is False
    assert companion.model_name == "fake" and companion.chat.pending is new and not old.closed
    assert turn.read() == "The old model finishes this reply."
    assert companion.model_name == "second" and old.closed and heard == ["second"]
    assert companion.turn("next").read() == "New."


def test_a_turn_that_fails_before_its_reply_lets_the_switch_happen(companion):
    import pytest

    from anima.knowledge.messages import EmptyMessage

    with pytest.raises(EmptyMessage):
        companion.turn("   ")
    new = FakeChatModel()
    assert companion.use_model(new) is True and companion.chat.current is new


def test_a_call_under_way_keeps_its_model_until_it_ends():
    old, new = FakeChatModel(), FakeChatModel()
    old.enqueue("one two three")
    chat = SwitchableChat(old)
    stream = chat.stream([{"role": "user", "content": "hi"}])
    pieces = iter(stream)
    first = next(pieces)
    assert chat.switch(new) is False
    assert first + "".join(pieces) == "one two three"
    assert chat.current is new and old.closed


def test_two_choices_mid_turn_the_last_one_wins_and_the_other_is_closed_unused():
    old, first, second = FakeChatModel(), FakeChatModel(), FakeChatModel()
    chat = SwitchableChat(old)
    hold = chat.hold()
    chat.switch(first)
    chat.switch(second)
    assert first.closed and not second.closed
    hold.release()
    hold.release()  # a second release changes nothing
    assert chat.current is second and old.closed


def test_what_a_backend_has_beyond_the_interface_is_the_model_in_uses():
    old = FakeChatModel()
    chat = SwitchableChat(old)
    assert chat.history is old.history and chat.capabilities is old.capabilities
    new = FakeChatModel()
    chat.switch(new)
    assert chat.history is new.history


def test_a_switch_from_another_thread_while_calls_run_never_splits_a_call():
    old, new = FakeChatModel(delay=0.001), FakeChatModel()
    for _ in range(5):
        old.enqueue("a b c d e f")
    new.enqueue("new")
    chat = SwitchableChat(old)
    hold = chat.hold()
    texts = []
    t = threading.Thread(target=lambda: [texts.append(chat.complete([])) for _ in range(5)])
    t.start()
    chat.switch(new)
    t.join()
    assert texts == ["a b c d e f"] * 5 and chat.current is old
    hold.release()
    assert chat.current is new and chat.complete([]) == "new"


def test_what_is_set_on_it_beyond_the_interface_is_set_on_the_model_in_use():
    old = FakeChatModel()
    chat = SwitchableChat(old)
    chat.delay = 0.5
    assert old.delay == 0.5 and "delay" not in vars(chat)
    chat.name = "renamed"
    assert old.name == "renamed" == chat.name
