"""The workspace never drops the SELF tier, keeps its stable part byte-identical, and fits its budget."""

from anima.mind.selfmodel import SelfModel
from anima.retrieval.recall import Recalled
from anima.workspace import Workspace


def words(text):
    return len(text.split()) + 1


def test_the_self_tier_survives_a_huge_history_recall_and_message(companion):
    sm = companion.self_model
    sm.write("persona", "I am playful and direct.", "user")
    sm.write("human", "Ada is a nurse in Leeds; she has a cat named Miso.", "user")
    sm.write("identity", "I am Ada's steady, curious companion.", "ai")
    floor = sm.read()
    history = [{"id": i, "role": "user" if i % 2 else "companion", "content": f"turn {i} " + "blah " * 200}
               for i in range(300)]
    recalled = [Recalled("memory", i, "remembered thing " * 50, "2026-01-01", 1.0 / (i + 1), {}, {})
                for i in range(100)]
    ws = Workspace(words, 4096)
    out = ws.assemble(floor, "Anima", history, recalled, "x " * 500_000)
    system = out.messages[0]["content"]
    for text in ("playful and direct", "nurse in Leeds", "steady, curious companion", floor.origin[:40],
                 floor.guardrails[:40]):
        assert text in system
    assert sum(words(m["content"]) for m in out.messages) <= ws.budget + 50
    assert out.user_text_cut and out.messages[-1]["role"] == "user"
    assert len(out.history_ids) < 300 and out.held  # both were cut to fit, neither vanished


def test_the_stable_prefix_is_byte_identical_between_turns(companion):
    floor = companion.self_model.read()
    history = [{"id": i, "role": "user", "content": f"message {i}"} for i in range(10)]
    ws = Workspace(words, 4096)
    a = ws.assemble(floor, "Anima", history[:9], [], "first")
    b = ws.assemble(floor, "Anima", history, [Recalled("memory", 1, "a fact", "2026", 1.0, {}, {})], "second")
    assert a.messages[0] == b.messages[0]
    # The turns are a prefix of the next call's turns: only the volatile tail changes.
    assert a.messages[1:10] == b.messages[1:10]
    assert b.messages[-2]["role"] == "system" and "a fact" in b.messages[-2]["content"]


def test_an_edit_of_the_human_block_shows_in_the_next_workspace(companion):
    companion.chat.enqueue("Noted.", "Hello again.")
    companion.turn("hello").read()
    SelfModel(companion.soul).write("human", "Ada prefers short answers.", "user")
    t = companion.turn("hi again")
    assert "Ada prefers short answers." in t.workspace.messages[0]["content"]
    t.read()
