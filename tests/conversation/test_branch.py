"""The last exchange made again, on a real encrypted soul with the fake model: regenerate, edit and resend,
stepping between versions, continuing a cut-off reply, and what the next turn's prompt reads."""

import threading

import pytest

from anima.errors import InvalidEdit
from anima.knowledge.branches import Ending


def said(companion, text: str, reply: str):
    companion.chat.enqueue(reply)
    turn = companion.turn(text)
    turn.read()
    return turn


def last_prompt(companion) -> list[str]:
    return [m["content"] for m in companion.chat.history[-1]["messages"]]


def test_regenerate_keeps_the_old_reply_as_a_version_and_the_next_turn_reads_the_new_one(companion):
    first = said(companion, "what is a good name for a cat", "Call it Biscuit.")
    companion.chat.enqueue("Call it Pepper.")
    again = companion.regenerate(first.reply_id)
    assert again.read() == "Call it Pepper."
    # The prompt it was made from ends with the same message, and holds no trace of the first reply.
    assert last_prompt(companion)[-1] == "what is a good name for a cat"
    assert "Call it Biscuit." not in last_prompt(companion)
    versions = companion.messages.branches.versions(again.reply_id)
    assert versions.ids == (first.reply_id, again.reply_id) and versions.shown == 1
    # Both replies stay in the soul; the window's history shows the chosen one, with ‹ 2/2 ›.
    stored = companion.soul.query("SELECT content FROM messages WHERE role = 'companion' ORDER BY id")
    assert [r["content"] for r in stored] == ["Call it Biscuit.", "Call it Pepper."]
    page = companion.messages.page()
    assert [m["content"] for m in page] == ["what is a good name for a cat", "Call it Pepper."]
    assert page[-1]["versions"].shown == 1 and page[-1]["versions"].count == 2
    said(companion, "why that one", "It suits a grey cat.")
    prompt = last_prompt(companion)
    assert "Call it Pepper." in prompt and "Call it Biscuit." not in prompt


def test_stepping_back_to_the_first_reply_is_recorded_and_read_by_the_next_turn(companion):
    first = said(companion, "name my cat", "Call it Biscuit.")
    companion.chat.enqueue("Call it Pepper.")
    companion.regenerate(first.reply_id).read()
    versions = companion.choose_branch(first.reply_id, 0)
    assert versions.shown == 0
    assert companion.soul.query("SELECT message_id FROM version_chosen") == [{"message_id": first.reply_id}]
    said(companion, "why", "Because biscuits are sweet.")
    prompt = last_prompt(companion)
    assert "Call it Biscuit." in prompt and "Call it Pepper." not in prompt


def test_edit_and_resend_keeps_the_old_pair_and_stepping_shows_each_with_its_reply(companion):
    first = said(companion, "I have a dgo", "What is a dgo?")
    companion.chat.enqueue("What is your dog called?")
    edited = companion.edit_and_resend(first.user_id, "I have a dog")
    assert edited.read() == "What is your dog called?"
    assert "What is a dgo?" not in last_prompt(companion) and last_prompt(companion)[-1] == "I have a dog"
    page = companion.messages.page()
    assert [m["content"] for m in page] == ["I have a dog", "What is your dog called?"]
    assert (page[0]["versions"].shown, page[0]["versions"].count) == (1, 2)
    companion.choose_branch(edited.user_id, 0)
    assert [m["content"] for m in companion.messages.page()] == ["I have a dgo", "What is a dgo?"]
    said(companion, "sorry, a typo", "No worries.")
    prompt = last_prompt(companion)
    assert "What is a dgo?" in prompt and "What is your dog called?" not in prompt and "I have a dog" not in prompt
    # Reopened, the session reads the same history.
    assert [m["content"] for m in companion.messages.recent(companion.conversation.session)] == [
        "I have a dgo",
        "What is a dgo?",
        "sorry, a typo",
        "No worries.",
    ]


def test_only_the_last_exchange_can_be_made_again_or_stepped(companion):
    first = said(companion, "one", "First reply.")
    companion.chat.enqueue("First again.")
    companion.regenerate(first.reply_id).read()
    said(companion, "two", "Second reply.")
    with pytest.raises(InvalidEdit):
        companion.regenerate(first.reply_id)
    with pytest.raises(InvalidEdit):
        companion.edit_and_resend(first.user_id, "uno")
    with pytest.raises(InvalidEdit):  # the conversation went on from the second version
        companion.choose_branch(first.reply_id, 0)


def test_forgetting_a_version_takes_it_from_the_soul_and_the_other_is_shown(companion):
    first = said(companion, "name my cat", "Call it Biscuit.")
    companion.chat.enqueue("Call it Pepper.")
    again = companion.regenerate(first.reply_id)
    again.read()
    companion.forget("message", again.reply_id)
    assert companion.soul.query("SELECT id FROM messages WHERE content LIKE '%Pepper%'") == []
    assert companion.soul.query("SELECT * FROM message_versions WHERE message_id = ?", (again.reply_id,)) == []
    assert companion.soul.query("SELECT * FROM version_chosen") == []
    assert [m["content"] for m in companion.messages.page()] == ["name my cat", "Call it Biscuit."]
    said(companion, "why", "It is sweet.")
    assert "Call it Pepper." not in last_prompt(companion)


def test_a_stopped_reply_and_a_cut_off_one_are_recorded_so_and_continue_appends(companion):
    companion.reply_tokens = 3
    cut = said(companion, "tell me a story", "Once upon a time there was a cat.")
    assert cut.ending is Ending.CUT_OFF
    assert companion.messages.page()[-1]["ending"] is Ending.CUT_OFF
    companion.reply_tokens = 384
    companion.chat.enqueue("time there was a cat.")
    going = companion.continue_reply(cut.reply_id)
    assert going.read() == "Once upon a time there was a cat."
    assert companion.soul.get("message", cut.reply_id)["content"] == "Once upon a time there was a cat."
    assert companion.messages.page()[-1]["ending"] is None
    said(companion, "and then?", "It slept.")
    assert "Once upon a time there was a cat." in last_prompt(companion)
    cancel = threading.Event()
    companion.chat.enqueue("I will. Not finish. This one.")
    stopped = companion.turn("stop me", cancel)
    for _ in stopped:
        cancel.set()
    assert stopped.ending is Ending.STOPPED
    assert companion.messages.page()[-1]["ending"] is Ending.STOPPED


def test_a_version_set_aside_is_not_recalled_the_chosen_one_is(companion):
    first = said(companion, "what should I call the tortoise", "Call the tortoise Zorblatt.")
    companion.chat.enqueue("Call the tortoise Sheldon.")
    again = companion.regenerate(first.reply_id)
    again.read()
    found = {r.key for r in companion.recall("tortoise Zorblatt Sheldon", k=10)}
    assert ("message", again.reply_id) in found and ("message", first.reply_id) not in found


def test_a_reply_made_again_that_fails_before_it_streams_leaves_the_transcript_as_it_was(companion, monkeypatch):
    from anima.errors import SoulBusy

    first = said(companion, "name my cat", "Call it Biscuit.")
    before = [(e.role, e.content) for e in companion.conversation.entries()]

    def busy(*args, **kwargs):
        raise SoulBusy("busy")

    monkeypatch.setattr(companion.conversation, "prepare", busy)
    with pytest.raises(SoulBusy):
        companion.regenerate(first.reply_id)
    assert [(e.role, e.content) for e in companion.conversation.entries()] == before
