"""A turn end to end with the fast fakes: recording, the why of a reply, feedback, and bad input."""

import re

import pytest

from anima.errors import InvalidEdit
from anima.knowledge.messages import EmptyMessage, External, MessageTooLong
from anima.store.provenance import Source
from anima.trust import secrets


def test_a_turn_streams_records_both_messages_and_why(companion):
    mid = companion.memories.remember("Ada's cat is called Miso")
    companion.chat.enqueue("Your cat Miso is lovely. She purrs.")
    turn = companion.turn("tell me about my cat")
    assert list(turn) == ["Your cat Miso is lovely. ", "She purrs."]  # a sentence at a time (outward.Unannounced)
    msgs = companion.soul.query("SELECT role, content FROM messages ORDER BY id")
    assert msgs == [
        {"role": "user", "content": "tell me about my cat"},
        {"role": "companion", "content": "Your cat Miso is lovely. She purrs."},
    ]
    why = companion.why(turn.reply_id)
    assert why[0]["item_kind"] == "memory" and why[0]["item_id"] == mid
    assert why[0]["components"]["bm25_rank"] is not None and why[0]["score"] > 0
    row = companion.soul.get("memory", mid)
    assert row["uses"] == 1 and row["importance"] > 0.5  # the reply used it


def test_a_reply_without_full_stops_still_streams(companion):
    words = [f"word{i}" for i in range(300)]
    companion.chat.enqueue(" ".join(words))
    turn = companion.turn("talk a lot")
    pieces = list(turn)
    assert len(pieces) > 5 and all(p.endswith(" ") for p in pieces[:-1])  # in pieces, never inside a word
    assert "".join(pieces).split() == words


def test_memories_loaded_again_and_again_but_never_used_cool_down(companion):
    mid = companion.memories.remember("Ada once visited a cat cafe")
    companion.chat.enqueue("Let's talk about the weather.")
    turn = companion.turn("cat cafe")
    assert ("memory", mid) in {(h.kind, h.id) for h in turn.workspace.held}
    turn.read()
    for _ in range(5):  # five more workspaces held it; no reply used it
        companion.memories.feedback([mid], "Let's talk about the weather.")
    row = companion.soul.get("memory", mid)
    assert row["loads"] == 6 and row["uses"] == 0 and row["importance"] < 0.5


@pytest.mark.parametrize("text", ["", "   \n\t ", "\x00\x01\x02"])
def test_an_empty_message_is_refused_and_nothing_is_stored(companion, text):
    with pytest.raises(EmptyMessage):
        companion.turn(text)
    assert companion.soul.query("SELECT * FROM messages") == []


def test_an_enormous_typed_message_is_refused_in_words_and_nothing_is_stored(companion):
    """Issue 43: a typed line of 1,000,000 characters took 104 s and 802 MB in its turn."""
    huge = ("word " * 210_000)[:1_000_000]
    with pytest.raises(MessageTooLong, match=r"999,999 characters; one typed message holds at most 16,000"):
        companion.turn(huge)
    assert companion.soul.query("SELECT * FROM messages") == []


def test_an_enormous_paste_is_kept_whole_and_cut_only_in_the_workspace(companion):
    huge = ("word " * 210_000)[:1_000_000]
    companion.chat.enqueue("That is a lot.")
    turn = companion.turn("what do you make of this?", external=[External(Source.PASTED, huge)])
    sent = turn.workspace.messages[-1]["content"]
    assert len(sent) < 20_000 and "the rest is stored" in sent
    turn.read()
    stored = companion.soul.query("SELECT content FROM messages WHERE speaker = 'pasted text'")[0]["content"]
    assert len(stored) == len(huge.strip())


def test_binary_junk_many_scripts_and_emoji_survive_a_turn(companion):
    junk = bytes(range(256)).decode("latin-1")
    text = f"{junk} Привет 你好 مرحبا नमस्ते שלום 🐈‍⬛🎻 café"
    companion.chat.enqueue("🙂 你好")
    companion.turn(text).read()
    stored = companion.soul.query("SELECT content FROM messages WHERE role = 'user'")[0]["content"]
    assert "\x00" not in stored and "你好" in stored and "🐈‍⬛" in stored and "café" in stored
    assert companion.recall("你好", 5)
    assert companion.recall("Привет", 5)


def test_stopping_a_reply_keeps_what_was_said(companion):
    import threading

    cancel = threading.Event()
    companion.chat.enqueue("One. Two. Three. Four. Five.")
    turn = companion.turn("count", cancel)
    got = []
    for piece in turn:
        got.append(piece)
        if len(got) == 2:
            cancel.set()
    assert turn.stop_reason.name == "CANCELLED"
    assert companion.soul.get("message", turn.reply_id)["content"] == "One. Two."


def test_open_mind_edits_that_break_a_rule_keep_the_old_value(companion):
    companion.self_model.write("persona", "Warm.", "user")
    with pytest.raises(InvalidEdit, match="at most"):
        companion.self_model.write("persona", "x" * 5000, "user")
    with pytest.raises(InvalidEdit, match="read-only"):
        companion.self_model.write("origin", "I am someone else", "user")
    assert companion.self_model.read().persona == "Warm."
    card = companion.world.create("person", "Bea", "Ada's sister, lives in Paris.", ["Bea", "sister"])
    with pytest.raises(InvalidEdit):
        companion.world.update(card, body="  ")
    assert companion.world.all()[0]["body"] == "Ada's sister, lives in Paris."


def test_the_clerk_brings_a_card_by_its_keyword(companion):
    card = companion.world.create(
        "project", "Thesis", "Ada's nursing thesis on night shifts, due in May.", ["dissertation"]
    )
    found = {r.key: r for r in companion.recall("my dissertation is stressing me", 5)}
    assert ("world_card", card) in found


def test_forget_everything_about_a_person(companion):
    companion.memories.remember("Bea is Ada's sister")
    companion.memories.remember("Ada's cat is called Miso")
    companion.world.create("person", "Bea", "Ada's sister in Paris.")
    assert companion.forget_person("Bea").by_kind() == {"memory": 1, "world_card": 1}
    left = [m["content"] for m in companion.soul.query("SELECT content FROM memories")]
    assert left == ["Ada's cat is called Miso"] and companion.world.all() == []


def test_a_mind_that_fails_mid_turn_keeps_the_conversation(companion):
    from anima.models.chat import ModelError

    companion.chat.enqueue(ModelError("Cannot reach the model server at http://127.0.0.1:9/v1."))
    turn = companion.turn("are you there?")
    with pytest.raises(ModelError, match="Cannot reach"):
        turn.read()
    assert [m["content"] for m in companion.soul.query("SELECT content FROM messages")] == ["are you there?"]
    companion.chat.enqueue("Yes, back now.")
    assert companion.turn("hello?").read() == "Yes, back now."


def test_a_mistake_after_the_message_is_stored_says_it_is_stored(companion, monkeypatch):
    """A full disk (or a busy soul) met while recalling, after the message was stored: the error says so, with
    its id, so the window does not hand it back to be sent and stored a second time."""
    from anima.errors import DiskFull

    def full(*_a, **_k):
        raise DiskFull("The disk is full: nothing of this change was saved.")

    monkeypatch.setattr(companion.conversation, "recall_for", full)
    with pytest.raises(DiskFull) as e:
        companion.turn("Remember the lake?")
    [stored] = companion.soul.query("SELECT id, content FROM messages")
    assert stored["content"] == "Remember the lake?"
    assert e.value.message_saved is True and e.value.user_ids == [stored["id"]]


def _said(c):
    return [(e.role, e.content) for e in c.conversation.entries() if e.role != "system"]


def test_a_reply_of_invisible_characters_only_is_no_reply_and_the_message_stays_in_the_conversation(companion):
    """The model wrote nothing a person can see: the turn stopped before a word (no error, nothing stored for it),
    and the person's message, which is stored, is in what the model reads next."""
    companion.chat.enqueue("\u200b\u2066")
    turn = companion.turn("hello there, I am Ada")
    turn.read()
    assert turn.reply_id is None
    assert ("user", "hello there, I am Ada") in _said(companion)
    companion.chat.enqueue("Hi Ada.")
    companion.turn("what did I just say?").read()
    assert "hello there, I am Ada" in [m["content"] for m in companion.chat.history[-1]["messages"]]


def test_a_reply_whose_embedding_fails_leaves_the_message_in_the_conversation(companion, monkeypatch):
    from anima.errors import KnownError

    companion.chat.enqueue("A reply.")
    embed = companion.indexer.embed

    def failing(kind, rows):
        if rows and rows[0].get("role") == "companion":
            raise KnownError("the embedding model failed")
        return embed(kind, rows)

    monkeypatch.setattr(companion.indexer, "embed", failing)
    with pytest.raises(KnownError, match="embedding model failed"):
        companion.turn("hello there, I am Ada").read()
    assert ("user", "hello there, I am Ada") in _said(companion)


def test_a_reply_never_says_a_secret_back_shown_or_stored(companion):
    """Red team: replies that said "I won't keep that" repeated the card number or the door code in the same
    breath, and were stored so."""
    companion.chat.enqueue("Noted, the door code 4 8 2 1 is safe with me. Card 4111-1111-1111-1111 too!")
    turn = companion.turn("the door code is 4821 and my card is 4111 1111 1111 1111")
    shown = "".join(turn)
    stored = companion.soul.query("SELECT content FROM messages WHERE role = 'companion'")[0]["content"]
    assert shown.startswith("I won't keep")
    for text in (shown, stored):
        digits = re.sub(r"\D", "", text)
        assert "4821" not in digits and "4111111111111111" not in digits
    assert shown.strip() == stored.strip()  # what is stored is what was shown


def test_a_secret_said_once_is_not_recalled_into_a_later_session(companion):
    """Red team: a password said in one session was recalled from raw history into a later session's prompt
    and repeated in a reply."""
    companion.chat.enqueue("Okay.")
    companion.turn("my bank password is hunter22, the bank is Barclays").read()
    companion.start_session()
    companion.chat.enqueue("Your Barclays password is hunter22.")
    turn = companion.turn("what is my Barclays bank password?")
    reply = turn.read()
    prompt = "\n".join(m["content"] for m in turn.workspace.messages)
    assert "Barclays" in prompt  # the message was recalled
    assert "hunter22" not in prompt.lower() and "hunter22" not in reply.lower()
    assert secrets.MASK in reply


PHRASE_START, PHRASE_REST = "my recovery words are: apple river", "stone orange tiger lamp desk cloud piano"


def test_a_recovery_phrase_split_over_two_messages_is_not_said_back(companion):
    """Issue 43 item 2: the phrase begun in one message and finished in the next, without saying so: the reply
    to the second repeats none of its words."""
    companion.chat.enqueue("Okay.", "So: stone orange tiger, and apple river.")
    companion.turn(PHRASE_START).read()
    reply = companion.turn(PHRASE_REST).read()
    assert not {"stone", "orange", "tiger", "apple", "river"} & set(re.findall(r"\w+", reply.lower()))
    assert secrets.MASK in reply


def test_the_rest_of_a_split_recovery_phrase_is_masked_when_recalled_later(companion):
    companion.chat.enqueue("Okay.", "Okay.")
    companion.turn(PHRASE_START).read()
    companion.turn(PHRASE_REST).read()
    companion.start_session()
    companion.chat.enqueue("You said stone orange tiger lamp desk cloud piano.")
    turn = companion.turn("what did I tell you about the lamp and the cloud and the piano?")
    reply = turn.read()
    prompt = "\n".join(m["content"] for m in turn.workspace.messages)
    assert any(r.kind == "message" and r.id for r in turn.recalled)  # the second half was recalled...
    assert "stone" not in prompt and "orange" not in prompt  # ...masked
    assert "stone" not in reply and "tiger" not in reply and secrets.MASK in reply
