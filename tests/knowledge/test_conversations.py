"""One soul, many conversations (issue 39): listed newest first with their titles, renamed, searched, opened again,
and forgotten absolutely, on a real encrypted soul with the fake models."""

import json

import pytest

from anima.companion import Companion
from anima.errors import InvalidEdit, NotFound
from anima.knowledge.conversations import TITLE_MOST, first_line, snippet, valid_title
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.store import Home, migrations
from tests.conftest import PASSPHRASE
from tests.store.pages import holds
from tests.store.test_soul import at_schema


def talk(c, *exchanges: tuple[str, str]) -> None:
    for said, reply in exchanges:
        c.chat.enqueue(reply)
        c.turn(said).read()
        c.settle()


def test_conversations_are_listed_newest_first_with_their_first_line_as_title(companion):
    talk(companion, ("Planning a trip to Lisbon in May\nwith my sister", "Lovely, what draws you there?"))
    first = companion.session
    companion.new_conversation()
    talk(companion, ("My tomato plants have yellow leaves", "Maybe too much water?"), ("I water daily", "Try less."))
    second = companion.session

    listed = companion.conversations.listed()

    assert [c.session for c in listed] == [second, first]
    assert [c.title for c in listed] == ["My tomato plants have yellow leaves", "Planning a trip to Lisbon in May"]
    assert [c.messages for c in listed] == [4, 2]
    assert not any(c.titled for c in listed)
    assert listed[0].updated_at >= listed[1].updated_at


def test_a_long_first_line_is_cut_at_a_word():
    title = first_line("I have been thinking about whether to leave my job at the bakery and start a pottery studio")
    assert len(title) <= TITLE_MOST and title.endswith("…")
    assert title == "I have been thinking about whether to leave my job at the…"
    assert first_line("\n\n  hello   there \n second") == "hello there"


def test_a_title_from_the_model_must_be_one_short_line_without_quotes():
    assert valid_title("Lisbon trip planning") == "Lisbon trip planning"
    assert valid_title('"Lisbon trip planning"') == "Lisbon trip planning"  # quotes round it are taken off
    assert valid_title("Title: Lisbon trip.") == "Lisbon trip"
    assert valid_title("Lisbon trip\nand more about it") is None
    assert valid_title("The 'best' trip") is None
    assert valid_title("  ") is None
    assert valid_title("word " * 30) is None


def test_many_conversations_are_paged_by_last_activity(companion):
    sessions = []
    for i in range(5):
        companion.new_conversation()
        companion.messages.record("user", f"conversation number {i}", session=companion.session)
        sessions.append(companion.session)
    page = companion.conversations.listed(2)
    assert [c.session for c in page] == sessions[::-1][:2]
    rest = companion.conversations.listed(10, before=(page[-1].updated_at, page[-1].session))
    assert [c.session for c in rest] == sessions[::-1][2:]
    assert companion.conversations.count() == 5


def test_a_rename_persists_after_the_soul_is_opened_again(anima_home):
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.learns = False
    talk(c, ("Help me plan my garden", "Gladly."))
    session = c.session
    with pytest.raises(InvalidEdit):
        c.conversations.rename(session, "  \n ")
    assert c.conversations.rename(session, "  Garden\nplans ") == "Garden plans"
    c.close()

    again = Companion.unlock(Home(anima_home), PASSPHRASE, FakeChatModel(), FakeEmbedder())
    try:
        [listed] = again.conversations.listed()
        assert (listed.session, listed.title, listed.titled) == (session, "Garden plans", True)
    finally:
        again.close()


def test_the_model_titles_the_first_exchange_and_a_bad_answer_leaves_the_first_line(companion):
    companion.titles_by_model = True
    talk(companion, ("We adopted a kitten called Pixel", "Congratulations!"))
    companion.chat.enqueue('"New kitten Pixel"\n')
    assert companion.title_conversation(companion.session) == "New kitten Pixel"
    assert companion.conversations.get(companion.session).title == "New kitten Pixel"
    call = companion.chat.history[-1]
    assert "kitten called Pixel" in call["messages"][-1]["content"] and call["max_tokens"] <= 16
    assert companion.title_conversation(companion.session) is None  # titled once: no second call
    assert len(companion.chat.history) == 2

    companion.new_conversation()
    talk(companion, ("Can you recommend a book", "Try Middlemarch."))
    companion.chat.enqueue("Book recommendations\nHere is why I chose this title")
    assert companion.title_conversation(companion.session) is None
    assert companion.conversations.get(companion.session).title == "Can you recommend a book"


def test_forgetting_the_first_exchange_takes_the_model_title_made_of_it(companion):
    companion.titles_by_model = True
    talk(companion, ("My neighbour Quillon is loud", "That sounds tiring."), ("It is", "I hear you."))
    companion.chat.enqueue("Loud neighbour Quillon")
    assert companion.title_conversation(companion.session) == "Loud neighbour Quillon"
    first = companion.conversations.message_ids(companion.session)[0]
    companion.forget("message", first)
    assert "Quillon" not in companion.conversations.get(companion.session).title


def test_off_by_default_the_model_is_not_asked(companion):
    talk(companion, ("Hello there", "Hi!"))
    assert companion.title_conversation(companion.session) is None
    assert len(companion.chat.history) == 1  # the reply alone


def test_opening_an_earlier_conversation_brings_back_its_turns_and_recall_reaches_all(companion):
    talk(companion, ("My cat Tofu is sick", "I am sorry. Has the vet seen Tofu?"))
    first = companion.session
    companion.new_conversation()
    talk(companion, ("I started learning the cello", "Wonderful!"))
    assert not any("Tofu" in e.content for e in companion.conversation.entries())

    companion.open_conversation(first)

    assert companion.session == first
    assert [e.content for e in companion.conversation.entries()] == [
        "My cat Tofu is sick",
        "I am sorry. Has the vet seen Tofu?",
    ]
    assert any("cello" in r.text for r in companion.recall("cello lessons", 10))
    talk(companion, ("Tofu is better today", "Good news!"))
    assert companion.conversations.get(first).messages == 4
    with pytest.raises(NotFound):
        companion.open_conversation("no such session")


def test_search_finds_messages_in_every_conversation_with_a_snippet(companion):
    talk(companion, ("I went kayaking on the river yesterday", "How was the water?"))
    first = companion.session
    companion.new_conversation()
    long = "Something else entirely. " * 6 + "Then we kayaked again along the coast for hours."
    talk(companion, (long, "Sounds tiring."))
    second = companion.session

    found = companion.conversations.search("kayaking")

    assert [(f.session, f.role) for f in found] == [(second, "user"), (first, "user")]  # newest first
    assert "kayaked again" in found[0].snippet and found[0].snippet.startswith("…")
    assert len(found[0].snippet) <= 90
    assert found[1].snippet == "I went kayaking on the river yesterday"
    ids = companion.conversations.message_ids(first)
    assert found[1].message_id == ids[0] and found[1].at
    assert companion.conversations.search("zeppelin") == []
    assert companion.conversations.search("   ") == []


def test_a_snippet_is_one_line_around_the_word():
    assert snippet("one\ntwo three", ["three"]) == "one two three"


def test_forgetting_a_conversation_leaves_nothing_of_it_in_the_soul(companion, anima_home, tmp_path):
    talk(companion, ("Our holiday in Zanzibar was magic", "Tell me about Zanzibar!"), ("The beaches", "Wonderful."))
    doomed = companion.session
    doomed_ids = companion.conversations.message_ids(doomed)
    companion.new_conversation()
    talk(companion, ("Remind me to buy bread", "Noted."))
    kept = companion.session
    companion.open_conversation(doomed)
    key = Home(anima_home).unlock_key(PASSPHRASE)
    companion.soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
    assert holds(companion.soul.path, key, "Zanzibar")

    gone = companion.forget_conversation(doomed)

    assert sorted(i for k, i in gone.items if k == "message") == doomed_ids
    assert [c.session for c in companion.conversations.listed()] == [kept]
    assert companion.session != doomed and companion.conversation.entries() == []  # the live one started anew
    soul = companion.soul
    assert soul.query_in("SELECT id FROM messages WHERE id IN ({ids})", doomed_ids) == []
    assert soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'zanzibar'") == []
    assert (
        soul.query_in("SELECT item_id FROM embeddings WHERE item_kind = 'message' AND item_id IN ({ids})", doomed_ids)
        == []
    )
    assert soul.query_in("SELECT message_id FROM recalls WHERE message_id IN ({ids})", doomed_ids) == []
    assert all(companion.indexer.index.vector(("message", i)) is None for i in doomed_ids)
    assert not [r for r in companion.recall("Zanzibar holiday beaches", 20) if "Zanzibar" in r.text]
    assert companion.conversations.search("Zanzibar") == []
    path = tmp_path / "all.json"
    companion.export_json(path)
    assert "Zanzibar" not in path.read_text(encoding="utf-8")
    assert [m["content"] for m in json.loads(path.read_text(encoding="utf-8"))["messages"]] == [
        "Remind me to buy bread",
        "Noted.",
    ]
    soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
    assert not holds(soul.path, key, "Zanzibar")


def test_existing_sessions_become_conversations_on_upgrade(anima_home):
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m015_conversations))
    with old, old.transaction() as con:
        for session, text, at in (
            ("s1", "First talk about gardening", "2026-01-01T10:00:00+00:00"),
            ("s1", "A reply", "2026-01-01T10:01:00+00:00"),
            ("s2", "Second talk about music", "2026-02-01T10:00:00+00:00"),
        ):
            con.execute(
                "INSERT INTO messages(session, role, content, created_at) VALUES (?, ?, ?, ?)",
                (session, "companion" if text == "A reply" else "user", text, at),
            )
    c = Companion(home, home.unlock(PASSPHRASE), FakeChatModel(), FakeEmbedder(), background=False)
    try:
        listed = c.conversations.listed()
        assert [(x.session, x.title, x.messages) for x in listed] == [
            ("s2", "Second talk about music", 1),
            ("s1", "First talk about gardening", 2),
        ]
        assert listed[1].created_at.startswith("2026-01-01T10:00") and listed[1].updated_at.startswith(
            "2026-01-01T10:01"
        )
    finally:
        c.close()


def test_a_pasted_line_of_a_million_characters_titles_its_conversation_as_its_first_words_and_quickly():
    """The title reads only as far as it shows: a conversation begun with a pasted million-character line is
    titled as a short one is (whitespace made single spaces, cut at a word), at each listing, in milliseconds."""
    import re
    import time

    def whole(text: str) -> str:  # the title read from all of the line, as it was
        line = re.sub(r"\s+", " ", next(ln.strip() for ln in text.splitlines() if ln.strip()))
        if len(line) <= TITLE_MOST:
            return line
        cut = line[: TITLE_MOST - 1]
        return (cut[: cut.rindex(" ")] if " " in cut else cut).rstrip(" ,;:.-") + "…"

    pasted = "  Dear  Ada,\tthe\u00a0minutes of   the meeting " + "word " * 200_000
    for text in (pasted, "\n\n" + pasted, "short  and\tspaced", "x" * 500, "a " * 30, "one two " + " " * 900 + "three"):
        assert first_line(text) == whole(text)
    t = time.thread_time()  # (the thread's own work: what another program takes of the CPU is not counted)
    assert first_line(pasted).startswith("Dear Ada, the minutes of the meeting word")
    assert time.thread_time() - t < 0.02  # the whole line read: ~40 ms
