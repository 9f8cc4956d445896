"""Forgetting is absolute (seed 003, 5.5): a forgotten person is gone from every record, the edit history, both
indexes, the live conversation, the model's computed prompt and the file's decrypted pages, on a real encrypted
soul; what does not name them stays."""

import json
import re

import pytest

from anima.companion import Companion
from anima.errors import InvalidEdit
from anima.models.chat import Capabilities
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.reflect.test_human import facts
from tests.store.pages import holds

CONVERSATION = [
    ("My partner Sam and I went hiking on Saturday.", "That sounds lovely, where did you go?"),
    ("Up to the lake. My sister Bea came too.", "A family day out, then."),
    ("Bea brought her dog, it was chaos.", "Dogs make every hike an adventure."),
    ("Sam's knee hurts a bit today.", "I hope it heals soon."),
    ("I love the lake in autumn.", "Autumn colours on water are hard to beat."),
]


class Scripted(FakeChatModel):
    """Replies from the queue; learning gets `learn`'s next answer (else nothing learned), reading ahead a dot."""

    def __init__(self):
        super().__init__(Capabilities(keeps_prefix=True))
        self.learn: list[str] = []

    def stream_text(self, messages, *, max_tokens, temperature, stop, cancel, schema):
        if schema is not None:
            self.queue.appendleft(self.learn.pop(0) if self.learn else facts())
        elif max_tokens == 1:
            self.queue.appendleft(".")
        return super().stream_text(
            messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
        )


@pytest.fixture
def talked(anima_home):
    """A conversation naming Sam and Bea, a fact learned about Sam, and an edit of the human block."""
    chat = Scripted()
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    chat.learn.append(facts(("Has a partner named Sam", 0)))
    for said, reply in CONVERSATION:
        chat.enqueue(reply)
        c.turn(said).read()
        c.settle()
    assert "Has a partner named Sam" in c.self_model.read().human
    c.self_model.write("human", c.self_model.read().human + "\n- Sister Bea has a dog\n- Likes hiking", "user")
    c.world.create("person", "Sam", "Ada's partner; hurt a knee hiking.", ["partner"])
    c.feelings.notice("worried", "said Sam's knee hurts")
    yield c, chat
    c.close()


def everything(c, tmp_path) -> str:
    path = tmp_path / "all.json"
    c.export_json(path)
    return path.read_text(encoding="utf-8")


def test_forgetting_a_person_leaves_no_trace_and_keeps_what_does_not_name_them(talked, tmp_path, anima_home):
    c, chat = talked
    key = Home(anima_home).unlock_key(PASSPHRASE)
    assert "Sam" in c.self_model.read().human and "Sam" in everything(c, tmp_path)
    assert any("Sam" in e.content for e in c.conversation.entries())
    c.soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
    assert holds(c.soul.path, key, "Sam")  # the page check sees what is there

    gone = c.forget_person("Sam")

    # Their two messages and the companion's replies to them ("I hope it heals soon." names no one, and goes).
    assert gone.by_kind()["message"] == 4 and gone.by_kind()["memory"] == 1 and gone.by_kind()["world_card"] == 1
    assert gone.by_kind()["signal"] == 1 and gone.by_kind()["block lines"] == 1
    exported = everything(c, tmp_path)
    assert not re.search(r"\bsam\b", exported, re.I)
    data = json.loads(exported)
    # Every other message is still there, the neighbours of one that named Sam included.
    kept = [m["content"] for m in data["messages"]]
    assert kept == [t for said, reply in CONVERSATION if "Sam" not in said for t in (said, reply)]
    assert "Sister Bea has a dog" in c.self_model.read().human
    # Recall, by word and by meaning.
    assert not [r for r in c.recall("Sam partner knee", 20) if "Sam" in r.text]
    assert all(c.indexer.index.vector(k) is None for k in gone.items)
    # The live conversation and what the model computed from it.
    assert not [e for e in c.conversation.entries() if "Sam" in e.content]
    assert chat.forgotten >= 1
    chat.enqueue("Bea is great.")
    turn = c.turn("Tell me about my family.")
    turn.read()
    assert not re.search(r"\bsam\b", json.dumps(turn.workspace.messages), re.I)
    c.settle()
    # The file itself: no decrypted page, free pages and old index segments included, holds the name.
    assert not holds(c.soul.path, key, "Sam")
    assert (
        not c.soul.path.with_name("soul.db-wal").exists()
        or c.soul.path.with_name("soul.db-wal").stat().st_size == 0
        or not holds(c.soul.path.with_name("soul.db-wal"), key, "Sam")
    )
    c.soul.check()


def test_a_name_takes_what_names_them_and_the_replies_to_it_never_other_neighbours(talked):
    """Issue 43: the companion's replies to what the person said of someone stayed when they were forgotten."""
    c, _ = talked
    gone = c.forget_person("Bea")
    kept = [m["content"] for m in c.messages.newest(100)]
    assert "That sounds lovely, where did you go?" in kept and "I love the lake in autumn." in kept
    assert "A family day out, then." not in kept and "Dogs make every hike an adventure." not in kept
    assert gone.by_kind()["message"] == 4
    assert c.forget_person("Samantha").total == 0  # a longer name is another person
    forgets, before = c.soul.forgets(), c.edits()
    for blank in ("", "   ", "\t\n"):  # QA: "   " was taken, said "Forgot nothing", and counted a forget
        with pytest.raises(InvalidEdit, match="the name given is blank"):
            c.forget_person(blank)
    assert (c.soul.forgets(), c.edits()) == (forgets, before)


def test_forgetting_one_item_drops_it_from_the_live_conversation(talked):
    c, chat = talked
    [said] = [e for e in c.conversation.entries() if e.content.startswith("Sam's knee")]
    ((kind, item_id),) = said.keys
    assert c.forget(kind, item_id).items[0] == (kind, item_id)
    assert not [e for e in c.conversation.entries() if (kind, item_id) in e.keys]
    assert chat.forgotten >= 1


def test_a_name_in_a_script_without_spaces_is_found_inside_a_sentence(companion):
    companion.memories.remember("我的朋友小明喜欢猫")
    companion.memories.remember("我喜欢咖啡")
    assert companion.forget_person("小明").by_kind() == {"memory": 1}
    assert [m["content"] for m in companion.memories.current()] == ["我喜欢咖啡"]


def test_a_name_is_forgotten_in_every_spelling_of_it(companion):
    """Red team: `forget --person` left "Mal\u200dlory" (a zero-width joiner inside) and "\u041callory" (a
    Cyrillic Em first), and recall still returned both."""
    for said in (
        "Mallory wants my door code",
        "Mal\u200dlory called again",
        "\u041callory is at the door",
        "\uff2d\uff41\uff4c\uff4c\uff4f\uff52\uff59 sent a letter",  # full-width letters
        "MALLORY left",
        "My sister likes small dogs",  # "small" holds "mall": no other word is one of theirs
    ):
        companion.memories.remember(said)
    gone = companion.forget_person("mallory")
    assert gone.by_kind() == {"memory": 5}
    assert [m["content"] for m in companion.memories.current()] == ["My sister likes small dogs"]
    assert not [r for r in companion.recall("Mallory door code letter", 20) if "dogs" not in r.text]


def test_a_name_of_another_script_is_one_name_in_either_case(companion):
    companion.memories.remember("\u041c\u0430\u0440\u0438\u044f \u043f\u0440\u0438\u0448\u043b\u0430")  # Мария пришла
    companion.memories.remember("\u0430\u043d\u043d\u0430 \u043f\u0440\u0438\u0448\u043b\u0430")  # анна пришла
    assert companion.forget_person("\u041c\u0410\u0420\u0418\u042f").by_kind() == {"memory": 1}  # МАРИЯ


def test_forgetting_a_learned_fact_takes_its_line_in_the_human_block_and_its_history(talked):
    c, _chat = talked
    [fact] = [m for m in c.memories.current() if m["content"] == "Has a partner named Sam"]
    c.forget("memory", fact["id"])
    assert "Has a partner named Sam" not in c.self_model.read().human
    assert "Sister Bea has a dog" in c.self_model.read().human  # the person's own lines stay
    assert not [e for e in c.edits() if "Has a partner named Sam" in f"{e['before']}{e['after']}"]
    assert not [e for e in c.conversation.entries() if ("memory", fact["id"]) in e.keys]


def test_a_reply_written_while_a_person_is_forgotten_is_not_kept(talked):
    """The person forgets Bea while the reply to a message about her streams (from the Open Mind, or another
    program): the reply came from a prompt that held her, so it is not stored, and nothing of her comes back."""
    c, chat = talked
    chat.enqueue("Bea and her dog sound like great fun, say hi to Bea.")
    turn = c.turn("Bea is visiting again next week.")
    first = next(iter(turn))
    c.forget_person("Bea")
    rest = "".join(turn)
    assert "Bea" in first + rest  # it was shown as it streamed
    assert turn.reply_id is None
    assert not [m for m in c.messages.newest(100) if "Bea" in m["content"]]
    assert not [e for e in c.conversation.entries() if "Bea" in e.content]
    chat.enqueue("Noted.")
    c.turn("Anyway, how are you?").read()
    assert "Bea" not in json.dumps(chat.history[-1]["messages"])


def test_what_another_program_forgets_leaves_this_ones_live_conversation(talked, anima_home):
    """Two programs on one soul (the window and `anima chat`): a person forgotten in one is gone from the other's
    transcript before its next reply, and from the prompt its model reads."""
    c, chat = talked
    other = Companion(
        Home(anima_home), Home(anima_home).unlock(PASSPHRASE), FakeChatModel(), FakeEmbedder(), session="elsewhere"
    )
    try:
        assert other.forget_person("Sam").total
    finally:
        other.close()
    chat.enqueue("Tell me more.")
    c.turn("What else is new?").read()
    sent = json.dumps(chat.history[-1]["messages"])
    assert "Sam" not in sent and "Bea" in sent
    assert not [e for e in c.conversation.entries() if "Sam" in e.content]


def test_a_forget_that_commits_while_the_reply_is_being_stored_still_keeps_it_out(talked, anima_home, monkeypatch):
    """The last moment: the reply has streamed and is being made ready to store (embedded) when another program
    forgets Bea. The forget count is read in the transaction that would store the reply, so the reply, which came
    from a prompt that held her, is not kept, and neither is what its workspace held."""
    c, chat = talked
    chat.enqueue("Say hi to Bea and her dog from me.")
    turn = c.turn("Bea is visiting again next week.")
    embed = c.indexer.embed

    def embed_then_forget(kind, rows):
        if any("Say hi to Bea" in r["content"] for r in rows):
            other = Companion(
                Home(anima_home),
                Home(anima_home).unlock(PASSPHRASE),
                FakeChatModel(),
                FakeEmbedder(),
                session="elsewhere",
            )
            try:
                assert other.forget_person("Bea").total
            finally:
                other.close()
        return embed(kind, rows)

    monkeypatch.setattr(c.indexer, "embed", embed_then_forget)
    turn.read()
    assert turn.reply_id is None
    assert not [m for m in c.messages.newest(100) if "Bea" in m["content"]]
    assert not c.soul.query("SELECT 1 FROM recalls WHERE message_id NOT IN (SELECT id FROM messages)")


# ---- a forget while a reply streams drops the reply only if the reply was made from what went -----------------


def while_it_streams(c, chat, anima_home, said: str, reply: str, forget):
    """A turn on `said` whose reply, once it has begun to stream, meets `forget(other)` made by another program
    on the same soul file (the window and `anima chat`); returns the turn, read to its end."""
    chat.enqueue(reply)
    turn = c.turn(said)
    first = next(iter(turn))
    other = Companion(
        Home(anima_home), Home(anima_home).unlock(PASSPHRASE), FakeChatModel(), FakeEmbedder(), session="elsewhere"
    )
    try:
        assert forget(other).total
    finally:
        other.close()
    assert first + "".join(turn) == reply  # shown in full as it streamed, whatever is kept
    return turn


def no_trace_of(c, turn, reply: str) -> None:
    """The reply was not kept: not stored, not in the live transcript, and nothing recorded for it."""
    assert turn.reply_id is None
    assert not [m for m in c.messages.newest(100) if m["content"] == reply]
    assert not [e for e in c.conversation.entries() if e.content == reply]
    assert not c.soul.query("SELECT 1 FROM recalls WHERE message_id NOT IN (SELECT id FROM messages)")


def message_id(c, starts: str) -> int:
    [m] = [m for m in c.messages.newest(100) if m["content"].startswith(starts)]
    return m["id"]


def test_a_forget_of_something_the_reply_was_not_made_from_leaves_the_reply_kept(talked, anima_home):
    """Another program forgets an old message of its own session, which this turn's prompt never held: the reply
    is stored, and the next turn's prompt holds it after the message it answered."""
    c, chat = talked
    unrelated = c.messages.record("user", "The plumber comes on Friday.", speaker="Ada", session="elsewhere")
    reply = "A walk by the lake in autumn sounds perfect."
    turn = while_it_streams(
        c, chat, anima_home, "Shall we plan another walk?", reply, lambda other: other.forget("message", unrelated)
    )
    assert "plumber" not in json.dumps(turn.workspace.messages)
    assert turn.reply_id is not None and c.soul.get("message", turn.reply_id)["content"] == reply
    c.settle()
    chat.enqueue("Noted.")
    following = c.turn("Saturday works for me.")
    sent = [(m["role"], m["content"]) for m in following.workspace.messages]
    assert sent.index(("assistant", reply)) == sent.index(("user", "Shall we plan another walk?")) + 1
    following.read()


def test_a_reply_written_after_reflection_rewrote_working_memory_outlives_an_unrelated_forget(talked, anima_home):
    """Reflection rewrote working memory after the last turn: the prompt keeps the copy it began with at its head
    (its prefix stays computed), which is no longer what is stored. A forget elsewhere of something the reply was
    not made from leaves the reply stored all the same."""
    c, chat = talked
    c.self_model.write("working_memory", "- Ada is planning a lake walk", "ai")
    chat.enqueue("Lovely.")
    c.turn("The lake was calm today.").read()
    c.settle()
    c.self_model.write("working_memory", "- Ada may walk again on Saturday", "ai")
    c.conversation.note_reflected("- Ada may walk again on Saturday")
    unrelated = c.messages.record("user", "The plumber comes on Friday.", speaker="Ada", session="elsewhere")
    reply = "Saturday by the lake, then."
    turn = while_it_streams(
        c, chat, anima_home, "Shall we go again?", reply, lambda other: other.forget("message", unrelated)
    )
    assert "planning a lake walk" in turn.workspace.messages[0]["content"]  # the kept copy, at the head
    assert turn.reply_id is not None and c.soul.get("message", turn.reply_id)["content"] == reply


def test_a_forget_of_the_turns_own_message_still_drops_the_reply(talked, anima_home):
    c, chat = talked
    reply = "Lyon in spring, how lovely."
    turn = while_it_streams(
        c,
        chat,
        anima_home,
        "I am off to Lyon in April.",
        reply,
        lambda other: other.forget("message", message_id(other, "I am off to Lyon")),
    )
    no_trace_of(c, turn, reply)
    assert not [e for e in c.conversation.entries() if "Lyon" in e.content]


def test_a_forget_of_an_item_recalled_into_the_note_still_drops_the_reply(talked, anima_home):
    c, chat = talked
    memory = c.memories.remember("Ada's bicycle is a green Gazelle")
    reply = "A green Gazelle, a classic."
    turn = while_it_streams(
        c, chat, anima_home, "What colour is my bicycle?", reply, lambda other: other.forget("memory", memory)
    )
    assert ("memory", memory) in turn.workspace.note.keys  # the prompt held it in its note, and nowhere else
    no_trace_of(c, turn, reply)
    assert not [e for e in c.conversation.entries() if "Gazelle" in e.content]


def test_a_forget_of_a_message_of_the_transcript_it_read_still_drops_the_reply(talked, anima_home):
    c, chat = talked
    reply = "The lake again, then."
    turn = while_it_streams(
        c,
        chat,
        anima_home,
        "Where shall we walk?",
        reply,
        lambda other: other.forget("message", message_id(other, "I love the lake")),
    )
    assert ("user", "I love the lake in autumn.") in [(m["role"], m["content"]) for m in turn.workspace.messages]
    no_trace_of(c, turn, reply)
    assert not [e for e in c.conversation.entries() if e.content == "I love the lake in autumn."]


def test_a_forget_of_the_signal_its_note_says_they_seemed_from_still_drops_the_reply(talked, anima_home):
    """How they seemed reaches the prompt in its note, with no recalled item to name it: the note carries the
    signals it says it from, so forgetting one (another program) drops the reply, and the next prompt says nothing
    of it."""
    c, chat = talked
    [signal] = c.feelings.recent()
    reply = "I hope the knee is better."
    turn = while_it_streams(
        c, chat, anima_home, "How do I seem lately?", reply, lambda other: other.forget("signal", signal["id"])
    )
    assert "worried" in turn.workspace.note.content
    no_trace_of(c, turn, reply)
    chat.enqueue("Noted.")
    following = c.turn("Anyway.")
    assert "worried" not in json.dumps(following.workspace.messages)
    following.read()


def test_a_forget_of_a_line_of_the_floor_still_drops_the_reply(talked, anima_home):
    """A person named only in the human block, which has no item to look for: their line gone from the self
    drops the reply written from a floor that held it."""
    c, chat = talked
    c.self_model.write("human", c.self_model.read().human + "\n- Cousin Ottoline lives in Oslo", "user")
    reply = "Travel plans are always fun to make."
    turn = while_it_streams(
        c, chat, anima_home, "Where should I travel next?", reply, lambda other: other.forget_person("Ottoline")
    )
    assert "Ottoline" in turn.workspace.messages[0]["content"]
    no_trace_of(c, turn, reply)


def test_a_forget_here_of_what_a_trimmed_prompt_left_out_keeps_the_reply_and_the_prompt_it_extends(anima_home):
    """The transcript is trimmed for this turn, and the person forgets (in this program) a message the trim left
    out: the reply is kept, and the transcript is then exactly what the model read and said, so the next turn's
    prompt extends it (the trim is not counted again on a transcript the forget already shortened)."""
    chat = FakeChatModel(Capabilities(context_tokens=1400))
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder(), user_name="Ada")
    try:
        c.indexer_thread.join()
        c.learns, c.reflector.every = False, 0
        for i in range(30):  # a long conversation, until a turn's prompt no longer holds it all
            reply = " ".join(["music"] * 40) + f" reply {i}"
            chat.enqueue(reply)
            turn = c.turn(f"tell me about music number {i}")
            if turn.workspace.kept_from > 1:
                break
            turn.read()
            c.settle()
        assert turn.workspace.kept_from > 1
        first = next(iter(turn))
        ((kind, oldest),) = c.conversation.entries()[0].keys  # left out of this prompt
        c.forget(kind, oldest)
        assert first + "".join(turn) == reply and turn.reply_id is not None
        read = [(m["role"], m["content"]) for m in turn.workspace.messages[1:]]
        assert [(e.role, e.content) for e in c.conversation.entries()] == [*read, ("assistant", reply)]
    finally:
        c.close()


def test_what_was_on_its_mind_about_a_person_another_program_forgets_leaves_the_prompt(talked, anima_home):
    """A note says what was on the companion's mind in words no stored item vouches for: when another program
    forgets a person (who is never recorded as forgotten), such notes leave this program's transcript, and the
    next prompt does not name them."""
    c, chat = talked
    c.self_model.write("inner_state", "Wondering how cousin Ottoline's move to Oslo went", "ai")
    chat.enqueue("Good to hear.")
    c.turn("I slept well.").read()
    c.settle()
    assert [e for e in c.conversation.entries() if "Ottoline" in e.content]
    other = Companion(
        Home(anima_home), Home(anima_home).unlock(PASSPHRASE), FakeChatModel(), FakeEmbedder(), session="elsewhere"
    )
    try:
        other.forget_person("Ottoline")
    finally:
        other.close()
    chat.enqueue("Tell me more.")
    c.turn("What else is new?").read()
    sent = json.dumps(chat.history[-1]["messages"])
    assert "Ottoline" not in sent and "Bea" in sent and "I slept well." in sent
    assert not [e for e in c.conversation.entries() if "Ottoline" in e.content]


def test_forgetting_a_person_takes_what_came_from_them_what_was_learned_from_them_and_names_of_files(
    talked, tmp_path, anima_home
):
    """Found by a helper's QA: a file attached as "Zorblatt-diary.txt" (its own words never name him) and a
    lorebook "Zorblatt-lore.json" kept his name in the message's speaker and the card's provenance, and a fact
    learned from "Zorblatt is allergic to peanuts", stored as "They are allergic to peanuts", stayed in memory
    and in the human block as a fact about the person. Forgetting him takes the file's message, the fact and its
    line, and clears the lorebook's file name; the card itself, which does not name him, stays."""
    from anima.knowledge.messages import External
    from anima.store.provenance import Provenance, Source

    c, chat = talked
    key = Home(anima_home).unlock_key(PASSPHRASE)
    chat.enqueue("Lantern boats!")
    c.turn(
        "What do you make of this?",
        external=[
            External(Source.FILE, "The harvest festival in Brindlemoor had lantern boats.", "Zorblatt-diary.txt")
        ],
    ).read()
    c.settle()
    card = c.world.create(
        "place",
        "Brindlemoor",
        "A harbour town with a harvest festival.",
        ["harbour"],
        actor="ai",
        provenance=Provenance(Source.CARD, None, "Zorblatt-lore.json"),
    )
    chat.learn.append(facts(("Is allergic to peanuts", 0)))
    chat.enqueue("Good to know.")
    c.turn("My friend Zorblatt is allergic to peanuts").read()
    c.settle()
    assert "Is allergic to peanuts" in c.self_model.read().human
    gone = c.forget_person("Zorblatt")
    # The file's message, their friend's, and the replies to each ("Lantern boats!", "Good to know.").
    assert gone.by_kind()["message"] == 4 and gone.by_kind()["memory"] == 1 and gone.labels == 1
    assert "peanuts" not in c.self_model.read().human
    assert not [m for m in c.memories.current() if "peanuts" in m["content"]]
    assert card in [w["id"] for w in c.world.all()]  # its own words do not name him
    assert not re.search("zorblatt", everything(c, tmp_path), re.I)
    c.soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
    assert not holds(c.soul.path, key, "Zorblatt")
