"""The whole history read a page at a time, and a person's search for messages by their words (the Open Mind's
conversation view reads both)."""

import pytest

from anima.knowledge.messages import NewMessage


@pytest.fixture
def long_history(companion):
    """1,200 messages; the 37th mentions a walrus, and so do two later ones."""
    said = [f"message number {i}" for i in range(1200)]
    said[37] = "my old password hint was a purple walrus"
    said[600] = "we painted a walrus at the zoo, purple everywhere"
    said[1100] = "a walrus again"
    ids = companion.messages.record_many(
        [NewMessage("user" if i % 2 else "companion", text, "Ada" if i % 2 else "") for i, text in enumerate(said)]
    )
    return companion, ids


def test_the_history_is_read_page_by_page_from_the_newest_to_the_oldest(long_history):
    c, ids = long_history
    pages, before = [], None
    while page := c.messages.newest(500, before=before):
        pages.append(page)
        before = page[-1]["id"]
    assert [len(p) for p in pages] == [500, 500, 200]
    assert [m["id"] for p in pages for m in p] == ids[::-1]
    assert pages[-1][-1]["content"] == "message number 0"
    # Down to a message: what a view shows again after it went back that far.
    again = c.messages.newest(None, down_to=ids[150])
    assert [m["id"] for m in again] == ids[:149:-1]


def test_a_search_finds_every_message_holding_all_its_words_newest_first_a_page_at_a_time(long_history):
    c, ids = long_history
    assert [m["id"] for m in c.messages.find("walrus")] == [ids[1100], ids[600], ids[37]]
    assert [m["id"] for m in c.messages.find("painting")] == [ids[600]]  # as the index stems it
    assert [m["id"] for m in c.messages.find("purple WALRUS")] == [ids[600], ids[37]]  # every word, any case
    first = c.messages.find("walrus", 2)
    assert [m["id"] for m in first] == [ids[1100], ids[600]]
    assert [m["id"] for m in c.messages.find("walrus", 2, before=first[-1]["id"])] == [ids[37]]
    assert [m["id"] for m in c.messages.find("walrus", None, down_to=ids[600])] == [ids[1100], ids[600]]
    assert c.messages.find("password hint")[0]["content"] == "my old password hint was a purple walrus"
    assert c.messages.find("zebra") == [] and c.messages.find("the") == []  # no word to look for


def test_a_search_finds_a_message_by_its_own_words_not_its_neighbours_or_its_speaker(long_history):
    c, ids = long_history
    # The index also keys each message by the turns around it (for recall): a person's search does not.
    assert c.soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'context : walrus'")
    assert [m["id"] for m in c.messages.find("walrus")] == [ids[1100], ids[600], ids[37]]
    assert c.messages.find("Ada") == []


def test_a_forgotten_message_is_no_longer_found(long_history):
    c, ids = long_history
    c.forget("message", ids[37])
    assert [m["id"] for m in c.messages.find("walrus")] == [ids[1100], ids[600]]
    assert ids[37] not in {m["id"] for m in c.messages.newest(None)}


def test_a_search_in_a_script_written_without_spaces_finds_the_words_as_written(companion):
    c = companion
    duck, _, both = c.messages.record_many(
        [
            NewMessage("user", "我昨天在北京吃了烤鸭", "Ada"),
            NewMessage("user", "I had duck yesterday", "Ada"),
            NewMessage("user", "烤鸭 in Paris was fine", "Ada"),
        ]
    )
    assert [m["id"] for m in c.messages.find("烤鸭")] == [both, duck]
    assert [m["id"] for m in c.messages.find("北京 烤鸭")] == [duck]
    assert [m["id"] for m in c.messages.find("烤鸭 paris")] == [both]
    assert c.messages.find("上海") == []


def test_said_before_is_the_persons_own_words_of_that_session_up_to_a_message(companion):
    from anima.knowledge.messages import said_before

    companion.chat.enqueue("Okay.", "Okay.", "Okay.")
    companion.turn("first of mine").read()
    companion.turn("second of mine").read()
    companion.start_session()
    companion.turn("in another conversation").read()
    second = companion.soul.query("SELECT id FROM messages WHERE content = 'second of mine'")[0]["id"]
    assert said_before(companion.soul, second) == ["first of mine", "second of mine"]


def test_a_long_text_is_stored_without_its_invisible_characters_wherever_they_fall(companion):
    """A pasted text far longer than a message is cleaned a piece at a time (trust/text.py: the window's thread
    takes the GIL between pieces): invisible and control characters go wherever they fall, pieces' edges
    included, and nothing else changes."""
    from anima.trust import text as trust_text

    piece = trust_text._PIECE
    words = list("word " * (3 * piece // 5))
    for at in (0, piece - 1, piece, piece + 1, 2 * piece - 1, len(words) - 1):
        words[at] = "\u200b" if at % 2 else "\x1b"
    (stored_id,) = companion.messages.record_many([NewMessage("user", "".join(words), "Ada")])
    stored = companion.soul.query("SELECT content FROM messages WHERE id = ?", (stored_id,))[0]["content"]
    assert stored == "".join(w for w in words if w not in ("\u200b", "\x1b")).strip()
    assert "\u200b" not in stored and "\x1b" not in stored and len(stored) > 2 * piece
