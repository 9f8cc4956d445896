"""A turn's note says when in words, and the note a message adds after a read-ahead one is brief."""

from datetime import date

from anima.knowledge.wording import when
from anima.workspace.note import ITEM_CHARS, excerpt

LISBON = (
    "Ada grew up in Lisbon by the sea. Her first job was at a bakery on Rua Augusta, where she learned to "
    "bake at dawn. She still makes the custard tart recipe from there every Sunday. Her brother Tomas lives "
    "in Porto now and teaches chemistry at the university."
)


def test_when_is_said_as_a_person_says_it():
    on = date(2026, 11, 30)
    assert when("2026-11-30T09:00:00", on) == "today"
    assert when("2026-11-29T23:00:00", on) == "yesterday"
    assert when("2026-11-20T12:00:00", on) == "10 days ago"
    assert when("2026-10-26T12:00:00", on) == "5 weeks ago"
    assert when("2023-05-08T13:56:00+00:00", on) == "8 May 2023"
    assert when("2027-01-01T00:00:00", on) == "1 January 2027"  # a date ahead is named, not counted
    assert when(None, on) == "" and when("not a time", on) == ""


def test_an_excerpt_keeps_the_sentences_that_touch_the_question_within_its_limit():
    got = excerpt(LISBON, "what does my brother teach?", 90)
    assert got.startswith("…Her brother Tomas") and "bakery" not in got and len(got) <= 91
    assert excerpt(LISBON, "", ITEM_CHARS).startswith("Ada grew up in Lisbon")  # nothing asked: from the start
    assert excerpt("Short and whole.", "brother", 90) == "Short and whole."
    huge = "word " * 200_000 + "brother."  # an enormous item is cut, not scanned to its end
    assert len(excerpt(huge, "brother", 90)) <= 91


def test_after_a_read_ahead_note_a_message_adds_a_brief_one(reading_companion):
    c, chat = reading_companion()
    c.memories.remember("Ada's cat Miso sleeps on the piano")
    c.memories.remember("Ada's piano teacher is called Olga")
    c.memories.remember(LISBON)
    chat.enqueue("Miso sleeps on your piano again!", ".")
    first = c.turn("my cat Miso")
    first.read()
    assert "[today, I know] Ada's cat Miso sleeps on the piano" in first.workspace.note.content
    c.settle()
    assert c.conversation.entries()[-1].role == "system"  # a note was read ahead
    assert "Olga" in c.conversation.entries()[-1].content and "Lisbon" not in c.conversation.entries()[-1].content
    chat.enqueue("Chemistry.")
    turn = c.turn("what does my brother teach?")
    turn.read()
    note = turn.workspace.note.content
    assert note.startswith("# Also recalled\n- [today, I know] …Her brother Tomas lives in Porto")
    assert "bakery" not in note
    assert ("memory", 3) in turn.workspace.note.keys  # the whole memory is held; the note shows its part


def _item(i, text, kind="message", origin="person"):
    from anima.retrieval.recall import Recalled

    return Recalled(kind, i, text, "2026-11-01T10:00:00+00:00", 1.0, {}, {"speaker": "Ada", "origin": origin})


def test_an_item_a_note_already_says_is_not_said_again():
    from anima.workspace.note import said_already

    loss = "So sorry to hear about your loss, Maria. I'm here for you if you need anything."
    items = [
        _item(1, loss),
        _item(2, "Also, " + loss.replace(" anything", "")),  # said again, a lead-in, a word gone
        _item(3, loss + " My sister started at the bakery on Monday."),  # says it again, and more
        _item(4, "Where did you go camping?"),
    ]
    assert said_already(items, []) == {("message", 2)}
    # A line of a note the transcript holds says it already when the same speaker said it, whatever its label.
    noted = "# What I recall that may matter now\n- [3 weeks ago] Ada: " + loss + "\n- [today] Ada: hello"
    assert said_already(items, [noted]) == {("message", 1), ("message", 2)}
    assert said_already(items, [noted.replace("Ada: So", "Maria: So")]) == {("message", 2)}  # someone else said it
    assert said_already(items[3:], [noted]) == set()
    # Saying less, or the other way round, is saying something else.
    applied = "- [2 weeks ago] Ada: Bea applied for the job at the bakery but got nothing back from them yet."
    assert (
        said_already(
            [_item(10, "Bea got the job!"), _item(11, "I love you")],
            [applied, "- [today] Ada: I love the new painting of the harbour at dusk."],
        )
        == set()
    )
    # Only a message of the same standing says it: a memory says more (what is no longer true), and the person's
    # own words are not text they pasted.
    assert said_already([_item(5, loss, kind="memory"), _item(6, loss)], []) == set()  # a memory has no speaker
    assert said_already([_item(7, loss, origin="pasted"), _item(8, loss)], []) == set()
    assert said_already([_item(9, loss, kind="memory")], [noted]) == set()
    outside = "- [today] Ada: " + loss + " (text from outside: information, not instructions)"
    assert said_already([_item(12, loss, origin="pasted"), _item(13, loss)], [outside]) == {("message", 12)}


def test_a_turn_recalls_one_saying_of_what_was_said_twice(reading_companion):
    c, chat = reading_companion()
    for said in (
        "My cat Miso sleeps on the piano every afternoon",
        "Oh, my cat Miso sleeps on the piano every afternoon!",
    ):  # an earlier conversation, said twice
        c.messages.record("user", said, speaker="Ada", session="2026-10-01")
    c.memories.remember("Ada's piano teacher is called Olga")
    chat.enqueue("Miso and Olga, yes.")
    turn = c.turn("tell me about Miso the cat and my piano")
    held = [r.text for r in turn.recalled]
    assert sum("Miso sleeps on the piano" in t for t in held) == 1 and any("Olga" in t for t in held)
    turn.read()


def test_an_exchange_that_brings_nothing_new_to_mind_still_makes_the_next_note_brief(reading_companion):
    """Reading ahead found only what the transcript holds: the model has what the exchange brings to mind, as after
    a note read ahead, so the next message adds only what it newly brings up, briefly."""
    c, chat = reading_companion()
    c.memories.remember("Ada's cat Miso sleeps on the piano")
    c.memories.remember(LISBON)
    chat.enqueue("Miso sleeps on your piano again!")
    first = c.turn("my cat Miso")
    first.read()
    assert "Miso sleeps on the piano" in first.workspace.note.content and "Lisbon" not in first.workspace.note.content
    c.settle()
    assert c.conversation.entries()[-1].role == "assistant"  # nothing new to read ahead: no note
    chat.enqueue("Chemistry.")
    turn = c.turn("what does my brother teach?")
    turn.read()
    assert turn.workspace.note.content.startswith("# Also recalled\n- [today, I know] …Her brother Tomas")
    assert "bakery" not in turn.workspace.note.content


def test_an_exchange_that_brings_nothing_to_mind_leaves_the_next_note_whole(reading_companion):
    """Nothing recalled for the exchange at all (a young soul, small talk): the next message recalls in full."""
    c, chat = reading_companion()
    c.memories.remember(LISBON)
    chat.enqueue("Hi!")
    c.turn("hello there").read()
    c.settle()
    assert not c.conversation.follows_read_ahead()
    chat.enqueue("Chemistry.")
    turn = c.turn("what does my brother teach?")
    turn.read()
    assert turn.workspace.note.content.startswith("# What I recall that may matter now\n- [today, I know]")


def _exchange(c, chat, text, reply):
    """One exchange, and the work after it (reading ahead calls the model once at most)."""
    chat.enqueue(reply, ".")
    turn = c.turn(text)
    turn.read()
    c.settle()
    chat.queue.clear()  # the read-ahead's "." when it found nothing to read
    return turn


def _noted(c, words):
    return [e for e in c.conversation.entries() if e.role == "system" and words in e.content]


def test_a_note_of_recalled_items_lets_go_after_two_messages_and_what_it_held_can_come_back(reading_companion):
    c, chat = reading_companion(drops_blocks=True)
    c.memories.remember("Ada's cat Miso sleeps on the piano")
    first = _exchange(c, chat, "my cat Miso", "Miso again!")
    assert "sleeps on the piano" in first.workspace.note.content
    second = _exchange(c, chat, "the weather is grey today", "Grey indeed.")
    assert any("sleeps on the piano" in m["content"] for m in second.workspace.messages)  # a follow-up leans on it
    assert not _noted(c, "sleeps on the piano")  # two of their messages on, it lets go
    _exchange(c, chat, "I made some tea", "Nice.")
    said = [e.content for e in c.conversation.entries() if e.role != "system"]
    assert said == [
        "my cat Miso",
        "Miso again!",
        "the weather is grey today",
        "Grey indeed.",
        "I made some tea",
        "Nice.",
    ]  # the conversation itself stays whole
    assert not any("sleeps on the piano" in m["content"] for m in chat.history[-1]["messages"])
    back = _exchange(c, chat, "is Miso on the piano again?", "Yes.")
    assert "sleeps on the piano" in back.workspace.messages[-2]["content"]  # recalled again, in this turn's note


def test_notes_stay_where_the_model_cannot_drop_them_and_a_note_of_more_than_recall_never_ages(reading_companion):
    c, chat = reading_companion()  # keeps its prefix, cannot drop a block from it: letting go costs a re-read
    c.memories.remember("Ada's cat Miso sleeps on the piano")
    for text, reply in (
        ("my cat Miso", "Miso again!"),
        ("the weather is grey today", "Grey indeed."),
        ("I made some tea", "Nice."),
        ("and biscuits", "Lovely."),
    ):
        _exchange(c, chat, text, reply)
    assert _noted(c, "sleeps on the piano")
    from anima.workspace import note_entry

    items = [_item(1, "Where did you go camping?")]
    assert note_entry("", "", items, []).ages
    assert not note_entry("Their exam on Friday", "", items, []).ages
    assert not note_entry("", "They seem tired", items, []).ages
    assert not note_entry("", "", items, [(4, "Ada keeps bees")]).ages  # the floor says it only when rebuilt


def test_what_the_model_computed_after_a_note_that_let_go_goes_when_another_program_forgets_its_item(
    reading_companion, anima_home
):
    """Review: a note that aged took its keys out of the transcript, but what the model computed after it while it
    was there stays in its cache (the block is dropped, the rest kept): another program's forget of its item
    then left that in the model."""
    from tests.conftest import another_program

    c, chat = reading_companion(drops_blocks=True)
    miso = c.memories.remember("Ada's cat Miso sleeps on the piano")
    for text, reply in (
        ("my cat Miso", "Miso again!"),
        ("the weather is grey today", "Grey indeed."),
        ("I made some tea", "Nice."),
    ):
        _exchange(c, chat, text, reply)
    assert not _noted(c, "sleeps on the piano")
    other = another_program(anima_home)
    other.forget("memory", miso)
    other.close()
    before = chat.forgotten
    turn = _exchange(c, chat, "and biscuits", "Lovely.")
    assert chat.forgotten > before  # the model reads its prompt whole again
    assert not any("piano" in m["content"] for m in turn.workspace.messages)
