"""What a forget flagged, made again by the next deep reflection (reflect/regenerate.py; seed 003, 5.5), on a real
encrypted soul with the fake model playing the model: an episode is cut again from the messages it still cites and
the old one leaves the file; until then recall leaves it out; one with nothing left, or no answer that holds, goes;
growth entries that cited it go and what is left is considered again; rules are counted again from the evidence
left, and one nothing supports goes."""

import json
import threading

import pytest

from anima.errors import NotFound
from tests.reflect.test_deep import considering, reading, talk
from tests.store.pages import holds

JO = (
    "My sister Jo is moving to Lisbon next month.",
    "That's a big change for her!",
    "I never told anyone about my affair with Quentavius.",
    "Thank you for trusting me with that.",
)


def episodes_only(*episodes) -> str:
    """An answer to "make this episode again": episodes alone, as the schema asks."""
    return json.dumps(
        {
            "episodes": [
                {"messages": list(ms), "summary": s, "emotional_arc": arc, "significance": sig, "self_assessment": how}
                for ms, s, arc, sig, how in episodes
            ]
        }
    )


def lived(c, *episodes, growth=()) -> list[int]:
    """Deep reflection reads what was said into these episodes (and growth); returns the episodes' ids."""
    c.chat.enqueue(reading(episodes=episodes), considering(growth=growth))
    return c.reflect_deeply().episodes


def in_file(c, word: str) -> bool:
    c.soul.scrub()  # what is in the WAL goes to the file: the file alone is then read
    return holds(c.home.soul_path, c.soul._key, word)


def recalled_episodes(c, query: str) -> list[str]:
    return [r.text for r in c.recall(query, k=20) if r.kind == "episode"]


def test_an_episode_is_made_again_without_the_forgotten_message_and_its_words_leave_the_file(dc):
    c = dc
    ids = talk(c, 0, *JO)
    [old] = lived(
        c,
        (
            [1, 2, 3, 4],
            "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius",
            "excited -> vulnerable",
            7,
            "I listened without judging.",
        ),
    )
    assert in_file(c, "Quentavius") and recalled_episodes(c, "Lisbon affair Quentavius")  # the controls

    c.forget("message", ids[2])
    # Flagged, its words gone with the forget (they may carry what went): the file holds them no more, and recall
    # leaves the episode out until it is made again.
    assert c.episodes.get(old).summary == "…" and c.episodes.get(old).flagged
    assert not in_file(c, "Quentavius") and not in_file(c, "Lisbon, and Ada")
    assert recalled_episodes(c, "Lisbon affair Quentavius") == []
    assert c.reflector.deep.pending() and not c.indexer.missing()

    c.chat.enqueue(
        episodes_only(([1, 2, 3], "Ada's sister Jo is moving to Lisbon next month", "excited", 6, "I listened.")),
        considering(),
    )
    done = c.reflect_deeply()
    with pytest.raises(NotFound):
        c.episodes.get(old)
    [new] = c.episodes.all()
    assert new.summary == "Ada's sister Jo is moving to Lisbon next month" and new.significance == 0.6
    assert sorted(i for _, i in c.soul.citations("episode", new.id)) == [ids[0], ids[1], ids[3]]
    assert recalled_episodes(c, "Jo moving to Lisbon") == [new.summary]  # its vector is in the index
    assert (done.made_again.episodes, done.made_again.anew) == (1, 1)
    # What it was made again from: the messages left, numbered anew, and never the forgotten one.
    regenerating = [call for call in c.chat.history if call["schema"] is not None][-2]["messages"]
    assert "Quentavius" not in json.dumps(regenerating) and "Lisbon" in regenerating[1]["content"]
    assert not in_file(c, "Quentavius")  # the old summary left no copy behind, free space included
    assert not c.reflector.deep.pending()


def test_making_again_is_no_second_forget_the_file_is_not_rebuilt_nor_other_sessions_cooled(dc, monkeypatch):
    """The forget that flagged the episode took its words, vector and edits, and was counted (other programs drop
    what they hold of it). The blank one going after is not counted again (another program's session would drop
    its computed prompt for nothing) and the file is not rebuilt again (seconds at 100,000 messages, the write
    lock held). An episode flagged but not blanked (an older version flagged it and left its words) still goes
    by a forget, counted and scrubbed."""
    from anima.store import forget

    c = dc
    ids = talk(c, 0, *JO)
    [old] = lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    before = c.soul.forgets()
    c.forget("message", ids[2])
    assert c.soul.forgets() == before + 1
    rebuilt = []
    real = forget.rewrite_file
    monkeypatch.setattr(forget, "rewrite_file", lambda *a: (rebuilt.append(a), real(*a)))
    c.chat.enqueue(
        episodes_only(([1, 2, 3], "Ada's sister Jo is moving to Lisbon next month", "", 6, "")), considering()
    )
    assert c.reflect_deeply().made_again.episodes == 1
    with pytest.raises(NotFound):
        c.episodes.get(old)
    assert c.soul.forgets() == before + 1 and rebuilt == []

    # The same for a person forgetting a blank one; an episode with words, flagged by an older version, counts.
    [new] = c.episodes.all()
    c.forget("message", ids[3])
    c.forget("episode", new.id)
    assert c.soul.forgets() == before + 2 and len(rebuilt) == 1
    legacy = c.episodes.record("Ada's sister Jo is moving to Lisbon", ids[:2], significance=0.5)
    with c.soul.transaction() as con:
        con.execute("UPDATE episodes SET needs_regeneration = 1 WHERE id = ?", (legacy,))
    c.forget("episode", legacy)
    assert c.soul.forgets() == before + 3 and len(rebuilt) == 2


def on_disk(c, word: str) -> bool:
    """The soul file and its WAL as they are, without the scrub in_file runs (which would hide a missed one)."""
    wal = c.home.soul_path.with_name(c.home.soul_path.name + "-wal")
    return any(p.exists() and p.stat().st_size and holds(p, c.soul._key, word) for p in (c.home.soul_path, wal))


@pytest.mark.parametrize("way", ["undone", "cleared"])
def test_a_marked_episode_the_person_wrote_in_is_a_forget_of_its_own(dc, way):
    """Review: a person's correction of a marked episode, undone back to the blank (which marks it again), or an
    arc typed and cleared, leaves their words in the full-text index and free pages. Forgetting that episode, or
    making it again, must be a forget: counted, and the file scrubbed of them."""
    c = dc
    ids = talk(c, 0, *JO)
    [old] = lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    c.forget("message", ids[2])
    if way == "undone":
        c.episodes.correct(old, summary="Ada confided in me about Zorblatt")
        c.undo(c.soul.history("episode", old)[-1]["id"])
    else:
        c.episodes.correct(old, emotional_arc="grief over Zorblatt")
        c.episodes.correct(old, emotional_arc="")
    assert c.episodes.get(old).flagged and c.episodes.get(old).summary == "…"
    assert on_disk(c, "Zorblatt")  # the control
    before = c.soul.forgets()
    c.forget("episode", old)
    assert c.soul.forgets() == before + 1 and not on_disk(c, "Zorblatt")


def test_an_episode_with_nothing_left_goes_without_asking_the_model(dc):
    c = dc
    ids = talk(c, 0, "I adopted a ferret named Bramblewick.", "A ferret! How exciting.")
    [old] = lived(c, ([1, 2], "Ada adopted a ferret named Bramblewick", "happy", 5, "I shared her joy."))
    for i in ids:
        c.forget("message", i)
    calls = len(c.chat.history)
    c.chat.enqueue(considering())
    done = c.reflect_deeply()
    assert done.made_again.episodes == 1 and done.made_again.anew == 0
    assert c.episodes.all() == [] and not in_file(c, "Bramblewick")
    assert not any(
        call["schema"] is not None and "episodes" in call["schema"]["properties"] for call in c.chat.history[calls:]
    )
    with pytest.raises(NotFound):
        c.episodes.get(old)


def test_an_episode_the_model_cannot_make_again_goes_and_its_messages_stay(dc):
    c = dc
    ids = talk(c, 0, *JO)
    lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    c.forget("message", ids[2])
    c.chat.enqueue("not json", "{", "still not json", "[]", considering())
    done = c.reflect_deeply()
    assert done.malformed >= 1 and done.made_again.episodes == 1 and c.episodes.all() == []
    assert [m["id"] for m in c.messages.these([ids[0], ids[1], ids[3]])] == [ids[0], ids[1], ids[3]]
    assert not in_file(c, "Quentavius")


def test_an_answer_that_names_what_was_forgotten_is_held_to_what_is_left(dc):
    """The model may still "know" the forgotten words (its computed prompt is dropped, but a small model invents):
    an episode made again must share its words with the messages left, as any episode must."""
    c = dc
    ids = talk(c, 0, *JO)
    lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    c.forget("message", ids[2])
    c.chat.enqueue(episodes_only(([1, 2, 3], "Quentavius and the secret affair", "", 7, "")), considering())
    done = c.reflect_deeply()
    assert c.episodes.all() == [] and done.dropped >= 1 and not in_file(c, "Quentavius")


def test_growth_that_cited_an_episode_made_again_goes_and_what_is_left_is_considered_again(dc):
    c = dc
    ids = talk(c, 0, *JO)
    c.chat.enqueue(
        reading(
            episodes=[
                (
                    [1, 2, 3, 4],
                    "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius",
                    "",
                    7,
                    "",
                )
            ]
        ),
        considering(growth=[("I learned to hold Ada's secret about Quentavius without judging.", [1])]),
    )
    c.reflect_deeply()
    assert [g["entry"] for g in c.self_model.growth(10)] == [
        "I learned to hold Ada's secret about Quentavius without judging."
    ]

    gone = c.forget("message", ids[2])
    # The entry goes with the forget (it cannot be made again, and may hold the words), the episode loses its.
    assert [k for k, _ in gone.items] == ["message", "growth_log"] and c.self_model.growth(10) == []
    assert not in_file(c, "Quentavius")
    c.chat.enqueue(
        episodes_only(([1, 2, 3], "Ada's sister Jo is moving to Lisbon next month", "", 6, "")),
        considering(growth=[("I learned to ask how Ada feels about Jo moving away to Lisbon.", [1])]),
    )
    done = c.reflect_deeply()
    assert done.made_again.episodes == 1
    # The episode made again is new to considering, which grows from what is left.
    assert [g["entry"] for g in c.self_model.growth(10)] == [
        "I learned to ask how Ada feels about Jo moving away to Lisbon."
    ]
    assert not in_file(c, "Quentavius")


def test_an_insight_cites_its_experiences_and_goes_with_one_made_from_a_forgotten_message(dc):
    """Insights are "connections the AI noticed across experiences" (seed 003, 3.3): each cites the experiences it
    was drawn from, so a forget that reaches one reaches it. It goes when one is blanked or forgotten (its words
    may carry what went, like a growth entry's); one from untouched experiences stays."""
    c = dc
    ids = talk(c, 0, *JO, "I started learning the cello.", "How wonderful!")
    c.chat.enqueue(
        reading(
            episodes=[
                (
                    [1, 2, 3, 4],
                    "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius",
                    "",
                    7,
                    "",
                ),
                ([5, 6], "Ada started learning the cello", "", 4, ""),
            ]
        ),
        considering(
            insights=[("Ada carries her affair with Quentavius alone", [1]), ("Ada likes learning the cello", [2])]
        ),
    )
    done = c.reflect_deeply()
    _secret, cello = done.episodes
    by_text = {m["content"]: m["id"] for m in c.memories.all()}
    assert set(by_text) == {"Ada carries her affair with Quentavius alone", "Ada likes learning the cello"}
    assert c.soul.citations("memory", by_text["Ada likes learning the cello"]) == [("episode", cello)]

    gone = c.forget("message", ids[2])
    assert ("memory", by_text["Ada carries her affair with Quentavius alone"]) in gone.items
    assert [m["content"] for m in c.memories.all()] == ["Ada likes learning the cello"]
    assert not in_file(c, "Quentavius")

    # A person forgetting an experience itself: what was drawn from it goes with it too.
    gone = c.forget("episode", cello)
    assert ("memory", by_text["Ada likes learning the cello"]) in gone.items and c.memories.all() == []


def test_a_rule_is_counted_again_from_the_evidence_left(dc):
    c = dc
    lesson = "Give Ada the bottom line first"
    asks = []
    for day in range(3):  # three conversations: in force
        ids = talk(
            c,
            day,
            "Tell me about index funds.",
            "Index funds track a market index, and...",
            "Just give me the bottom line please.",
            "Buy a broad, low-cost one.",
        )
        asks.append(ids[2])
        c.chat.enqueue(reading(feedback=[(3, "correction", lesson, 0 if day == 0 else 1, "supports")]), considering())
        c.reflect_deeply()
    [rule] = c.rules.all()
    assert rule.support == 3 and rule.in_force

    c.forget("message", asks[0])
    c.chat.enqueue(considering())
    done = c.reflect_deeply()
    [rule] = c.rules.all()
    assert (rule.support, rule.in_force, done.made_again.rules) == (2, False, 1)
    assert c.rules.flagged() == []


def test_a_rule_nothing_supports_any_more_goes_unless_the_person_worded_it(dc):
    c = dc
    kept_ask = None
    # (Each lesson in the words of the message it cites: one they do not say is no one's, reflect/support.py.)
    for day, (lesson, said) in enumerate(
        (
            ("Do not bring up Quentavius again", "No, don't bring up Quentavius again."),
            ("Keep answers short", "No, shorter please."),
        )
    ):
        ids = talk(c, day, "What do you think?", "Well, let me explain at length...", said, "Ok.")
        c.chat.enqueue(reading(feedback=[(3, "correction", lesson, 0, "supports")]), considering())
        c.reflect_deeply()
        kept_ask = kept_ask or ids[2]
        if day == 1:
            short_ask = ids[2]
    _secret, short = sorted(c.rules.all(), key=lambda r: r.id)
    c.rules.correct(short.id, "Keep answers to a few sentences")  # the person's words now
    c.forget("message", kept_ask)
    c.forget("message", short_ask)
    c.chat.enqueue(considering())
    done = c.reflect_deeply()
    assert [r.pattern for r in c.rules.all()] == ["Keep answers to a few sentences"]
    assert done.made_again.rules_gone == 1 and not in_file(c, "Quentavius")


def test_a_turn_pre_empts_making_again_and_the_episode_waits_flagged(dc):
    c = dc
    ids = talk(c, 0, *JO)
    [old] = lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    c.forget("message", ids[2])
    cancel = threading.Event()
    cancel.set()  # a message sent the moment deep reflection began
    done = c.reflector.deep.run(cancel)
    assert done.preempted and c.episodes.flagged() == [old]
    assert recalled_episodes(c, "Lisbon affair Quentavius") == []


def test_a_forget_inside_a_longer_transaction_that_rolls_back_leaves_everything(dc):
    c = dc
    [i] = talk(c, 0, "The password hint is Marmaduke.")
    before = c.soul.forgets()
    with pytest.raises(RuntimeError):
        with c.soul.transaction():
            c.soul.forget("message", i)
            raise RuntimeError("a later write in the same transaction failed")
    assert c.messages.these([i]) and c.soul.forgets() == before
    assert [r.id for r in c.recall("password hint Marmaduke", k=5) if r.kind == "message"] == [i]


@pytest.mark.slow  # the real default model
def test_an_episode_is_made_again_on_the_real_default_model(anima_home, caplog):
    """The real model under the episodes-only schema: whatever it makes of what is left is held to it, the old
    episode and the forgotten words leave the file, and the log holds no words."""
    import logging

    from anima.companion import Companion
    from anima.models.fake import FakeEmbedder
    from anima.models.llama import LlamaChatModel
    from anima.reflect.deep import READ_THROUGH
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", LlamaChatModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    try:
        ids = talk(c, 0, *JO)
        old = c.episodes.record(
            "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
        )
        c.soul.set_meta(READ_THROUGH, str(ids[-1]))  # read already: this run makes the episode again, and considers
        c.forget("message", ids[2])
        with caplog.at_level(logging.INFO):
            done = c.reflect_deeply()
        assert done.made_again.episodes == 1 and not done.preempted
        with pytest.raises(NotFound):
            c.episodes.get(old)
        left = {ids[0], ids[1], ids[3]}
        for e in c.episodes.all():
            assert {i for _, i in c.soul.citations("episode", e.id)} <= left and "Quentavius" not in e.summary
        assert "Lisbon" not in caplog.text and "Quentavius" not in caplog.text
        assert not in_file(c, "Quentavius") and not c.reflector.deep.pending()
    finally:
        c.close()


def test_a_forget_says_what_it_marked_and_what_becomes_of_it(dc):
    c = dc
    ids = talk(c, 0, *JO)
    [episode] = lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    memory = c.memories.remember("Ada had an affair with Quentavius", message_id=ids[2])
    gone = c.forget("message", ids[2])
    assert gone.flagged == {("episode", episode), ("memory", memory)}
    assert gone.describe() == (
        "1 message; marked, as they came from it: 1 memory, 1 episode (the next deep "
        "reflection makes them again from what is left; a memory stays, for you to look over)"
    )
    # What a forget takes itself is not also said to be marked.
    assert "marked" not in c.forget("episode", episode).describe()


def test_a_second_forget_does_not_say_it_marked_what_was_marked_already(dc):
    """QA: forgetting a second message of an episode an earlier forget marked said "marked … 1 episode" again."""
    c = dc
    ids = talk(c, 0, *JO)
    lived(
        c,
        ([1, 2, 3, 4], "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", "", 7, ""),
    )
    assert "marked, as they came from it: 1 episode" in c.forget("message", ids[2]).describe()
    assert c.forget("message", ids[3]).describe() == "1 message"
