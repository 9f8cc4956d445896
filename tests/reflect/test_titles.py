"""A conversation's title from the model: one tiny call aside, kept only as one short line, and never kept when a
turn stopped it or the conversation was renamed meanwhile."""

import threading

from anima.reflect.titles import TITLE_TOKENS, Titling


def exchange(companion) -> str:
    companion.chat.enqueue("Of course.")
    companion.turn("Could you help me write a birthday poem for my dad").read()
    return companion.session


def test_the_title_is_read_from_the_first_exchange_and_kept(companion):
    session = exchange(companion)
    companion.chat.enqueue("Birthday poem for Dad")
    titling = Titling(companion.chat, companion.conversations)
    assert titling.title(session, threading.Event()) == "Birthday poem for Dad"
    call = companion.chat.history[-1]
    assert call["max_tokens"] == TITLE_TOKENS
    assert "birthday poem" in call["messages"][-1]["content"] and "Of course." in call["messages"][-1]["content"]
    assert companion.conversations.get(session).titled


def test_a_stopped_call_keeps_no_title(companion):
    session = exchange(companion)
    companion.chat.enqueue("Birthday poem for Dad")
    stopped = threading.Event()
    stopped.set()
    assert Titling(companion.chat, companion.conversations).title(session, stopped) is None
    assert not companion.conversations.get(session).titled


def test_a_rename_meanwhile_wins(companion):
    session = exchange(companion)
    companion.conversations.rename(session, "Dad's poem")
    assert Titling(companion.chat, companion.conversations).title(session, threading.Event()) is None
    assert companion.conversations.get(session).title == "Dad's poem"
    assert len(companion.chat.history) == 1  # it had a title: the model was not asked


def test_no_title_before_the_first_reply(companion):
    companion.messages.record("user", "Just one message", session=companion.session)
    assert Titling(companion.chat, companion.conversations).title(companion.session, threading.Event()) is None
    assert companion.chat.history == []
