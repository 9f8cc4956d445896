"""The workspace never drops the SELF tier, keeps its stable part byte-identical, and fits its budget."""

from anima.retrieval.recall import Recalled
from anima.self.selfmodel import SelfModel
from anima.workspace import Entry, Workspace


def words(text):
    return len(text.split()) + 1


def read_along(c, chat, draft):
    """The window hands the draft over at a pause in typing, and the model reads the prompt it would make."""
    chat.enqueue(".")
    c.read_draft(draft)
    c.settle()


def test_the_self_tier_survives_a_huge_history_recall_and_message(companion):
    sm = companion.self_model
    sm.write("persona", "I am playful and direct.", "user")
    sm.write("human", "Ada is a nurse in Leeds; she has a cat named Miso.", "user")
    sm.write("identity", "I am Ada's steady, curious companion.", "ai")
    floor = sm.read()
    history = [Entry("user" if i % 2 else "assistant", f"turn {i} " + "blah " * 200) for i in range(300)]
    recalled = [
        Recalled("memory", i, "remembered thing " * 50, "2026-01-01", 1.0 / (i + 1), {}, {}) for i in range(100)
    ]
    ws = Workspace(words, 4096)
    out = ws.assemble(floor, "Anima", history, recalled, "x " * 500_000)
    system = out.messages[0]["content"]
    for text in (
        "playful and direct",
        "nurse in Leeds",
        "steady, curious companion",
        floor.origin[:40],
        floor.guardrails[:40],
    ):
        assert text in system
    assert sum(words(m["content"]) for m in out.messages) <= ws.budget + 50
    assert out.user_text_cut and out.messages[-1]["role"] == "user"
    assert 0 < out.kept_from < 300 and out.held  # both were cut to fit, neither vanished
    assert len(out.messages) == 1 + (300 - out.kept_from) + 2


def test_each_turn_sends_the_last_ones_messages_again_byte_for_byte(companion):
    """The stable prefix: what one turn sent is the start of what the next one sends."""
    companion.memories.remember("Ada's cat is called Miso")
    companion.memories.remember("Ada works nights at the hospital")
    sent = []
    for text, reply in (("tell me about my cat", "Miso is sweet."), ("and my work at the hospital?", "Nights.")):
        companion.chat.enqueue(reply)
        companion.turn(text).read()
        sent.append(companion.chat.history[-1]["messages"])
    first, second = sent
    assert second[: len(first)] == first
    assert second[len(first)] == {"role": "assistant", "content": "Miso is sweet."}
    # Each recalled item enters the transcript once.
    notes = "".join(m["content"] for m in second if m["role"] == "system")
    assert notes.count("Miso") == 1 and notes.count("nights at the hospital") == 1


def test_an_edit_of_the_human_block_shows_in_the_next_workspace(companion):
    companion.chat.enqueue("Noted.", "Hello again.")
    companion.turn("hello").read()
    SelfModel(companion.soul).write("human", "Ada prefers short answers.", "user")
    t = companion.turn("hi again")
    assert "Ada prefers short answers." in t.workspace.messages[0]["content"]
    t.read()


def test_between_turns_the_next_note_is_read_ahead_and_kept_in_the_prefix(reading_companion):
    c, chat = reading_companion()
    c.memories.remember("Ada's cat Miso sleeps on the piano")
    c.memories.remember("Ada's piano teacher is called Olga")
    chat.enqueue("Your cat Miso likes the piano.", ".")
    c.turn("hello there").read()
    c.settle()
    ahead = chat.history[-1]
    assert ahead["max_tokens"] == 1  # the model read the note; nothing was said
    note = c.conversation.entries()[-1]
    assert note.role == "system" and "Olga" in note.content
    chat.enqueue("She is strict.")
    turn = c.turn("who teaches me?")
    turn.read()
    sent = turn.workspace.messages  # (not the last call: reading ahead after this reply may already have begun)
    assert sent[: len(ahead["messages"])] == ahead["messages"]  # read ahead, then sent unchanged


def test_while_they_type_the_model_reads_the_prompt_their_message_will_make(reading_companion):
    c, chat = reading_companion()
    c.memories.remember("Ada's piano teacher is called Olga")
    chat.enqueue("Hello!")
    c.turn("hello there").read()
    c.settle()
    chat.enqueue(".", "She is strict.")
    c.read_draft("  who teaches me piano?\x00 ")  # as the window hands it over when typing pauses
    c.settle()
    draft = chat.history[-1]
    assert draft["max_tokens"] == 1 and draft["messages"][-1]["content"] == "who teaches me piano?"
    turn = c.turn("who teaches me piano?")
    turn.read()
    assert turn.workspace.messages == draft["messages"]  # the turn's prompt was read while it was typed
    assert c.soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == 4  # two turns; a draft is never stored


def test_a_message_sent_as_drafted_takes_what_was_recalled_for_its_draft(reading_companion, monkeypatch):
    c, chat = reading_companion()
    c.memories.remember("Ada's piano teacher is called Olga")
    chat.enqueue("Hello!")
    c.turn("hello there").read()
    c.settle()
    read_along(c, chat, "who teaches me piano?")
    searched = []
    real = c.clerk.pick
    monkeypatch.setattr(c.clerk, "pick", lambda *a, **kw: searched.append(a[0]) or real(*a, **kw))
    chat.enqueue("Olga does.")
    turn = c.turn("who teaches me piano?")
    assert searched == [] and any("Olga" in r.text for r in turn.recalled)  # not searched again
    turn.read()
    c.settle()
    # Something written to the soul after the draft: the turn recalls afresh, and finds it.
    read_along(c, chat, "and who tunes the piano?")
    c.memories.remember("Ada's piano tuner is called Bram")
    searched.clear()
    chat.enqueue("Bram.")
    turn = c.turn("and who tunes the piano?")
    assert searched == ["and who tunes the piano?"] and any("Bram" in r.text for r in turn.recalled)
    turn.read()
    c.settle()
    # A vector that reaches the index without a write (another program's, read from the feed): afresh too.
    read_along(c, chat, "what about the piano?")
    c.indexer.index.add(("memory", 999_999), c.indexer.embedder.embed("a piano"))
    searched.clear()
    chat.enqueue("Yes.")
    c.turn("what about the piano?").read()
    assert searched[:1] == ["what about the piano?"]  # (then reading ahead after the reply)
    c.settle()
    # A draft left a long while (recall weighs how recent things are): afresh.
    read_along(c, chat, "and the cat?")
    import anima.conversation.live as live

    later = live.time.monotonic() + live.DRAFT_RECALL_KEPT_S + 1
    monkeypatch.setattr(live.time, "monotonic", lambda: later)
    searched.clear()
    chat.enqueue("Miso.")
    c.turn("and the cat?").read()
    assert searched[:1] == ["and the cat?"]


def test_a_message_typed_on_past_its_draft_with_words_of_asking_keeps_the_drafts_note(reading_companion, monkeypatch):
    """The last words and Enter often come without a pause: what the draft recalled stands when those words ask
    for nothing new, so the note the model read along is sent unchanged; words that name something are searched."""
    c, chat = reading_companion()
    c.memories.remember("Ada's piano teacher is called Olga")
    c.memories.remember("Ada's sister Bea started a new job at the bakery")
    chat.enqueue("Hello!")
    c.turn("hello there").read()
    c.settle()
    searched = []
    real = c.clerk.pick
    monkeypatch.setattr(c.clerk, "pick", lambda *a, **kw: searched.append(a[0]) or real(*a, **kw))
    read_along(c, chat, "who teaches me piano?")
    draft = chat.history[-1]["messages"]
    searched.clear()
    chat.enqueue("Olga does.")
    turn = c.turn("who teaches me piano? Tell me more, please.")
    assert searched == [] and any("Olga" in r.text for r in turn.recalled)
    assert turn.workspace.messages[:-1] == draft[:-1]  # only the message's own words are new to the model
    turn.read()
    c.settle()
    # Words that name something are searched for: the draft's recall would miss the sister.
    read_along(c, chat, "what did I say about")
    searched.clear()
    chat.enqueue("Bea's bakery job.")
    turn = c.turn("what did I say about my sister?")
    assert searched == ["what did I say about my sister?"] and any("Bea" in r.text for r in turn.recalled)
    turn.read()
    c.settle()
    # A draft cut inside a word ("pian" + "o") is another word: searched again.
    read_along(c, chat, "who tunes the pian")
    searched.clear()
    chat.enqueue("Nobody yet.")
    c.turn("who tunes the piano").read()
    assert searched[:1] == ["who tunes the piano"]


def test_a_trim_the_next_turn_would_need_is_done_and_read_between_turns(reading_companion):
    c, chat = reading_companion(context_tokens=1400)
    for i in range(12):  # a long conversation: the transcript nears its room
        chat.enqueue(" ".join(["music"] * 40) + f" reply {i}")
        c.turn(f"tell me about music number {i}").read()
        c.settle()
    c.memories.remember("Ada's piano teacher is called Olga")
    before = len(c.conversation.entries())
    chat.enqueue("Your piano teacher called.", ".")
    c.turn("any news?").read()
    c.settle()  # the exchange brings Olga to mind: a note to read ahead, which no longer fits untrimmed
    ahead = chat.history[-1]
    assert ahead["max_tokens"] == 1 and len(c.conversation.entries()) < before  # cut and read while they read
    chat.enqueue("Weekly.")
    turn = c.turn("and her lessons?")
    assert turn.workspace.kept_from == 0  # the turn itself cuts nothing: its prompt extends what was read
    assert turn.workspace.messages[: len(ahead["messages"])] == ahead["messages"]
    turn.read()


def test_each_ranked_tier_keeps_to_its_budget_and_loses_its_lowest_ranked_items_whole(companion):
    from dataclasses import replace

    from anima.workspace.budget import TIER_NAMES

    rules = "\n".join(f"- Rule number {i} says something about how to talk" for i in range(60))
    floor = replace(companion.self_model.read(), rules=rules)
    memories = [Recalled("memory", i, f"memory {i} " + "word " * 40, "2026-01-01", 1.0 - i / 100) for i in range(10)]
    messages = [
        Recalled("message", 100 + i, f"message {i} " + "said " * 30, "2026-01-01", 0.5 - i / 100, {}, {"role": "user"})
        for i in range(10)
    ]
    ws = Workspace(words, 3072)
    out = ws.assemble(floor, "Anima", [], [*memories, *messages], "hello")
    system = out.messages[0]["content"]
    # The most confident rules are in the floor, whole; those ranked lowest are not.
    assert "Rule number 0 says something about how to talk" in system and "Rule number 59" not in system
    kept_rules = [ln for ln in system.splitlines() if ln.startswith("- Rule number")]
    assert all(ln.endswith("how to talk") for ln in kept_rules) and 0 < len(kept_rules) < 60
    assert out.by_tier["rules"] <= ws.budgets["rules"] + 10  # its heading aside
    # Each recalled kind within its own budget, the best of each first; the others left out and counted.
    held = [(h.kind, h.id) for h in out.held]
    kept_memories = [i for k, i in held if k == "memory"]
    kept_messages = [i for k, i in held if k == "message"]
    assert kept_memories == list(range(len(kept_memories))) and 0 < len(kept_memories) < 10
    assert kept_messages == list(range(100, 100 + len(kept_messages))) and 0 < len(kept_messages) < 10
    assert out.by_tier["memories"] <= ws.budgets["memories"] and out.by_tier["messages"] <= ws.budgets["messages"]
    assert out.over_budget["memories"] == 10 - len(kept_memories)
    assert out.over_budget["messages"] == 10 - len(kept_messages)
    # The report names every tier in order, and adds up to the whole prompt.
    assert list(out.by_tier) == list(TIER_NAMES)
    total = sum(words(m["content"]) for m in out.messages)
    assert sum(out.by_tier.values()) == sum(out.tiers.values()) == total


def test_a_fact_the_human_block_holds_is_not_recalled_into_the_same_turn(companion):
    companion.self_model.write("human", "- Has a cat called Miso\n- Works nights at the hospital", "user")
    companion.memories.remember("Has a cat called Miso")
    companion.memories.remember("Miso the cat sleeps on the piano")
    companion.chat.enqueue("Miso!")
    t = companion.turn("tell me about my cat Miso")
    sent = "\n".join(m["content"] for m in t.workspace.messages[:-1])
    assert sent.count("Has a cat called Miso") == 1  # in the floor only
    assert "sleeps on the piano" in t.workspace.messages[-2]["content"]  # what it does not hold is recalled
    t.read()
    # What the reply's workspace took, by tier, beside why it held what it held.
    spent = companion.tokens_by_tier(t.reply_id)
    assert spent == t.workspace.by_tier
    assert spent["human"] > 0 and spent["memories"] > 0 and spent["message"] > 0 and spent["rules"] == 0
    assert [w["item_kind"] for w in companion.why(t.reply_id)] == ["memory"]
    assert companion.tokens_by_tier(t.user_id) is None  # a message of the person's had no workspace


def test_a_note_read_ahead_does_not_recall_what_the_floor_says(reading_companion):
    c, chat = reading_companion()
    c.self_model.write("human", "- Has a cat called Miso", "user")
    c.memories.remember("Has a cat called Miso")
    c.memories.remember("Miso sleeps on the piano all afternoon")
    chat.enqueue("Does your cat Miso still sleep on the piano?", ".")
    c.turn("hello there").read()
    c.settle()
    note = c.conversation.entries()[-1]
    assert note.role == "system" and "sleeps on the piano" in note.content
    assert "Has a cat called Miso" not in note.content  # the floor says it, at the head of the same prompt


def test_the_bids_followed_keep_to_the_parts_budget_in_the_selfs_order(companion):
    from anima.parts.bids import Bid

    bids = [Bid(i, f"Part {i}", "the recital " * 10, "breathe " * 10, "calm " * 10, "70%", 600) for i in range(12)]
    ws = Workspace(words, 3072)
    out = ws.assemble(companion.self_model.read(), "Anima", [], [], "hello", bids=[*bids, bids[0]])
    note = out.messages[-2]["content"]
    shown = [b.part for b in bids if f"- {b.part}:" in note]
    assert shown == [f"Part {i}" for i in range(len(shown))] and 0 < len(shown) < 12  # the Self's first choices
    assert note.count("- Part 0:") == 1  # a part bids once
    assert out.over_budget == {"parts": 12 - len(shown)} and out.by_tier["parts"] <= ws.budgets["parts"] + 10
    assert out.note is not None and out.note.keys == {("part", i) for i in range(len(shown))}
