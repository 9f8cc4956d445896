"""Before it is made again, what a forget flagged reaches neither the model (considering, the live session's
prompt) nor what is kept (an insight drawn from it); regeneration embeds outside the write transaction; counting a
rule again never adds. Each test failed on the first version of reflect/regenerate.py (found by review)."""

import json

import pytest

from anima.knowledge.episodes import NewEpisode
from anima.reflect.deep import CONSIDERED_THROUGH, READ_THROUGH
from anima.reflect.regenerate import EPISODES_PER_RUN
from anima.reflect.world import WORLD_THROUGH
from tests.reflect.test_deep import considering, reading, talk
from tests.reflect.test_regenerate import JO, in_file

NO_CARDS = json.dumps({"cards": []})


def _read_already(c, *, episodes_too=True):
    """What was said so far counts as read (and its episodes as considered): the next run has only what a
    test adds."""
    last = max(m["id"] for m in c.messages.newest(1000))
    c.soul.set_meta(READ_THROUGH, str(last))
    c.soul.set_meta(WORLD_THROUGH, str(last))  # their names too (reflect/world.py)
    if episodes_too and c.episodes.all():
        c.soul.set_meta(CONSIDERED_THROUGH, str(max(e.id for e in c.episodes.all())))


def test_considering_never_reads_an_episode_still_flagged_beyond_the_run_limit(dc):
    """More episodes flagged than one run makes again (EPISODES_PER_RUN; forget_person easily flags that many):
    considering, in the same run, must not sample the rest, whose old summaries carry what was forgotten (an
    insight drawn from one is a memory that cites nothing, and would outlive the episode made again)."""
    c = dc
    gone_alone = []
    for k in range(EPISODES_PER_RUN):  # episodes whose every message is forgotten: they just go, no model call
        ids = talk(c, k * 0.01, f"Small thing number {k}.", f"Noted, thing {k}.")
        c.episodes.record(f"Ada mentioned small thing number {k}", ids, significance=0.2)
        gone_alone += ids
    ids = talk(c, 1, *JO)
    secret = c.episodes.record(
        "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
    )
    _read_already(c)
    for i in gone_alone:
        c.forget("message", i)
    c.forget("message", ids[2])  # "my affair with Quentavius": the last episode is flagged, beyond the limit
    assert len(c.episodes.flagged()) == EPISODES_PER_RUN + 1

    talk(c, 3, "I went hiking with Jo today.", "That sounds lovely!")
    c.chat.enqueue(
        reading(episodes=[([1, 2], "Ada went hiking with Jo", "happy", 4, "I listened.")]),
        considering(insights=[("Ada had an affair with Quentavius", [1])]),
        NO_CARDS,  # Jo came up again: a world card is asked for (tests/reflect/test_world.py)
    )
    done = c.reflect_deeply()
    assert done.made_again.episodes == EPISODES_PER_RUN and c.episodes.flagged() == [secret]
    considered = [call for call in c.chat.history if call["schema"] is not None][-1]["messages"]
    learned = [m["content"] for m in c.memories.all() if "Quentavius" in m["content"]]
    # Considering reads only episodes that stand: no old summary, and no insight drawn from one.
    assert "Quentavius" not in json.dumps(considered) and not learned, learned

    # The next run makes the flagged episode again, and the word is gone from the file.
    c.chat.enqueue(
        json.dumps(
            {
                "episodes": [
                    {
                        "messages": [1, 2, 3],
                        "summary": "Ada's sister Jo is moving to Lisbon next month",
                        "emotional_arc": "",
                        "significance": 6,
                        "self_assessment": "",
                    }
                ]
            }
        ),
        considering(),
    )
    c.reflect_deeply()
    assert c.episodes.flagged() == [] and not in_file(c, "Quentavius")


def test_a_rule_counted_again_never_turns_contrary_evidence_of_unknown_direction_into_support(dc):
    """Evidence cited before m012 has no stance (its direction was not kept): once any of the rule's messages is
    forgotten, count_again must not count such citations for it (a rule with contrary evidence would gain support
    and lose its `against`)."""
    c = dc
    cited = []
    for day in range(5):
        ids = talk(c, day * 2, "Tell me about bonds.", "Bonds are loans to...", "Just the bottom line.", "Ok.")
        cited.append(ids[2])
    rule = c.rules.learn("Give Ada the bottom line first", cited[0])
    c.rules.learn("Give Ada the bottom line first", cited[1], rule_id=rule)
    c.rules.learn("Give Ada the bottom line first", cited[2], rule_id=rule)
    c.rules.contradict(rule, cited[3])
    c.rules.contradict(rule, cited[4])
    before = next(r for r in c.rules.all() if r.id == rule)
    assert (before.support, before.against) == (3, 2)
    with c.soul.transaction() as con:  # as a soul upgraded from before m012 holds them
        con.execute("UPDATE evidence SET stance = NULL WHERE owner_kind = 'rule'")
    _read_already(c)

    c.forget("message", cited[0])  # one piece of support goes
    c.reflect_deeply()
    after = next(r for r in c.rules.all() if r.id == rule)
    # Evidence of unknown direction never becomes support (it was 4 for, 0 against): a forget only takes away.
    assert after.support <= before.support and after.against == before.against, (after.support, after.against)


def test_episode_vectors_are_not_embedded_while_regeneration_holds_the_write_transaction(dc):
    """A summary made again is embedded before the write transaction (Episodes.ready): while it is held, every read
    of the window's thread, every turn and another program's writes wait."""
    c = dc
    ids = talk(c, 0, *JO)
    c.episodes.record(
        "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
    )
    _read_already(c)
    c.forget("message", ids[2])
    held = []
    embed = c.indexer.embedder.embed_batch

    def watched(texts):
        held.append(c.soul.con.in_transaction)
        return embed(texts)

    c.indexer.embedder.embed_batch = watched
    c.chat.enqueue(
        json.dumps(
            {
                "episodes": [
                    {
                        "messages": [1, 2, 3],
                        "summary": "Ada's sister Jo is moving to Lisbon next month",
                        "emotional_arc": "",
                        "significance": 6,
                        "self_assessment": "",
                    }
                ]
            }
        ),
        considering(),
    )
    done = c.reflect_deeply()
    assert done.made_again.anew == 1 and held
    assert not any(held), "an episode made again was embedded inside the write transaction"


def test_a_forget_drops_from_the_live_session_the_episode_it_flagged(dc):
    """Recall leaves a flagged episode out because "its words may carry what went"; so does the live transcript: a
    note that recalled the episode goes at once, not when a deep reflection makes the episode again (DESIGN:
    forgetting removes it from the live session and the model's prompt)."""
    c = dc
    c.learns, c.reflector.every = False, 0  # the fake model answers only the replies enqueued here
    ids = talk(c, 0, *JO)
    episode = c.episodes.record(
        "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
    )
    _read_already(c)
    c.chat.enqueue("How is Jo settling in?")
    turn = c.turn("Remember when Jo moved to Lisbon?")
    turn.read()
    c.settle()
    noted = [e for e in c.conversation.entries() if ("episode", episode) in e.keys]
    assert noted and "Quentavius" in noted[0].content  # the control: the note carries the episode
    assert not any(("message", ids[2]) in e.keys for e in noted)  # and not the message about to be forgotten

    c.forget("message", ids[2])
    assert c.episodes.flagged() == [episode]
    # The note with the flagged episode's old summary leaves the live session...
    assert not [e for e in c.conversation.entries() if "Quentavius" in e.content]
    c.chat.enqueue("Lisbon is lovely.")
    c.turn("Anyway.").read()
    # ...and in the prompt of the next turn.
    assert "Quentavius" not in json.dumps(c.chat.history[-1]["messages"])


def test_another_programs_forget_drops_the_flagged_episode_from_this_live_session(dc, anima_home):
    """Program A forgets a message an episode was made of, while B's live session holds a note that recalled the
    episode: B's next prompt leaves the note out at once (not when a deep reflection makes the episode again),
    and once A has made it again B never recalls the old one."""
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    b = dc
    b.learns, b.reflector.every = False, 0
    ids = talk(b, 0, *JO)
    episode = b.episodes.record(
        "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
    )
    _read_already(b)
    b.chat.enqueue("How is Jo?")
    b.turn("Remember when Jo moved to Lisbon?").read()
    b.settle()
    assert any(("episode", episode) in e.keys for e in b.conversation.entries())  # the control
    home = Home(anima_home)
    a = Companion(home, home.unlock(PASSPHRASE), FakeChatModel(), FakeEmbedder(), session="elsewhere")
    try:
        a.indexer_thread.join()
        a.forget("message", ids[2])
        b.chat.enqueue("Lisbon is lovely.")
        b.turn("Anyway.").read()
        assert "Quentavius" not in json.dumps(b.chat.history[-1]["messages"])
        a.chat.enqueue(
            json.dumps(
                {
                    "episodes": [
                        {
                            "messages": [1, 2, 3],
                            "summary": "Ada's sister Jo is moving to Lisbon next month",
                            "emotional_arc": "",
                            "significance": 6,
                            "self_assessment": "",
                        }
                    ]
                }
            ),
            reading(),
            considering(),
            NO_CARDS,
        )
        assert a.reflect_deeply().made_again.episodes == 1
    finally:
        a.close()
    assert not [r for r in b.recall("Quentavius Lisbon", k=20) if r.key == ("episode", episode)]


@pytest.mark.parametrize("meanwhile", ["gone", "corrected"])  # gone: made again there, or forgotten
def test_an_episode_another_program_settled_while_this_one_made_it_again_is_left_as_it_is(dc, anima_home, meanwhile):
    """QA: two programs making one blank episode again. The first to write removes it, which is no forget the other
    counts (store/soul.py), so the second met "There is no episode #1 to forget." after its model's work, and its
    deep reflection stopped there. Now it leaves the episode to what was done meanwhile (made again, forgotten,
    or corrected by the person, which clears the mark) and writes nothing for it."""
    from anima.reflect.regenerate import Regeneration
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    c = dc
    ids = talk(c, 0, *JO)
    episode = c.episodes.record(
        "Ada's sister Jo is moving to Lisbon, and Ada told me of her affair with Quentavius", ids, significance=0.7
    )
    c.forget("message", ids[2])

    def cut(said):  # while this program's model reads, the other settles the episode
        with Home(anima_home).unlock(PASSPHRASE) as other:
            if meanwhile == "corrected":
                with other.transaction() as con:
                    con.execute(
                        "UPDATE episodes SET summary = 'Jo is moving to Lisbon', needs_regeneration = 0 WHERE id = ?",
                        (episode,),
                    )
            else:
                other.forget("episode", episode)
        return [NewEpisode("Ada's sister Jo is moving to Lisbon next month", (ids[0], ids[1]), "", 0.6, "")]

    done = Regeneration(c.soul, c.messages, c.episodes, c.rules).run(cut)
    assert done.anew == 0 and c.episodes.flagged() == []
    summaries = [e.summary for e in c.episodes.all()]
    assert summaries == (["Jo is moving to Lisbon"] if meanwhile == "corrected" else [])
