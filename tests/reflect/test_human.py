"""Learning about the person mid-conversation (the update_human_memory step), on a real encrypted soul.

The fake model plays the part of the model; what is checked is what a person
would see in the Open Mind: the human block, the memories and their history.
"""

import json
import logging
from collections import deque

import pytest

from anima.companion import Companion
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.reflect.human import READ_THROUGH, block_lines
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.held import HoldsFirstStructuredAnswer


def facts(*pairs) -> str:
    return json.dumps({"facts": [{"fact": f, "replaces": r} for f, r in pairs]})


@pytest.fixture
def learning(companion):
    companion.learns = True
    return companion


def say(c, text: str, reply: str = "I see.", *learned) -> None:
    c.chat.enqueue(reply, *learned)
    c.turn(text).read()
    c.settle()


def test_what_they_say_about_themselves_goes_into_the_human_block_and_memories(learning):
    c = learning
    say(c, "I work as a software engineer at a bank.", "Nice!", facts(("Works as a software engineer", 0)))
    assert block_lines(c.self_model.read().human) == ["Works as a software engineer"]
    [m] = c.memories.current()
    user_msg = c.soul.query("SELECT id FROM messages WHERE role = 'user'")[0]["id"]
    assert (m["content"], m["source"], m["source_message_id"]) == (
        "Works as a software engineer",
        "user_stated",
        user_msg,
    )
    [edit] = [e for e in c.edits() if e["item_kind"] == "block"]
    assert edit["actor"] == "ai"  # shown in the history, undoable there


def test_how_someone_else_seems_is_kept_as_their_account_never_in_the_human_block(learning):
    c = learning
    say(
        c,
        "My partner Alex seems really stressed about his job, and I started nights now.",
        "Oh no.",
        facts(("Alex seems stressed about his job", 0), ("Started nights", 0)),
    )
    assert block_lines(c.self_model.read().human) == ["Started nights"]  # what is about them
    told = [m for m in c.memories.current() if "Alex" in m["content"]]
    assert [m["content"] for m in told] == ["Ada mentioned that Alex seems stressed about his job"]
    assert c.provenance("memory", told[0]["id"]).startswith("someone else, as you told it (Alex)")
    gone = c.forget_person("Alex")  # theirs to forget, as any memory
    assert all("Alex" not in m["content"] for m in c.memories.current()) and gone.items


def test_a_changed_fact_supersedes_the_old_one_which_keeps_its_dates(learning):
    c = learning
    say(c, "I work as a software engineer.", "Nice!", facts(("Works as a software engineer", 0)))
    say(c, "Big news: I now work as a product manager!", "Congratulations!", facts(("Works as a product manager", 1)))
    assert block_lines(c.self_model.read().human) == ["Works as a product manager"]
    old, new = c.soul.query("SELECT * FROM memories ORDER BY id")
    assert old["valid_to"] is not None and old["superseded_by"] == new["id"] and new["valid_to"] is None
    assert [m["content"] for m in c.memories.as_of(old["valid_from"])] == ["Works as a software engineer"]
    assert [m["content"] for m in c.memories.lineage(old["id"])] == [
        "Works as a software engineer",
        "Works as a product manager",
    ]


def test_a_guess_not_grounded_in_their_words_is_not_written_and_an_unrelated_replace_adds(learning):
    c = learning
    say(c, "My cat is called Miso.", "Cute!", facts(("Has a cat called Miso", 0)))
    say(
        c,
        "I moved to Lisbon with my partner Sam.",
        "Lovely.",
        facts(("Moved to Lisbon with partner Sam", 1), ("Is a professional athlete who plays soccer", 0)),
    )
    assert block_lines(c.self_model.read().human) == ["Has a cat called Miso", "Moved to Lisbon with partner Sam"]
    assert len(c.memories.current()) == 2


def test_a_question_about_something_else_costs_no_model_call(learning):
    c = learning
    say(c, "What do you think about rainy days?", "They are cosy.")
    assert all(call["schema"] is None for call in c.chat.history)
    assert c.soul.get_meta(READ_THROUGH) is not None


def test_what_was_learned_reaches_the_model_without_changing_the_prompt_head(learning):
    c = learning
    say(c, "Hello there.", "Hi!")
    first_head = c.chat.history[0]["messages"][0]
    say(c, "I play the cello in an orchestra.", "Wonderful.", facts(("Plays the cello in an orchestra", 0)))
    c.chat.enqueue("Tell me more.")
    c.turn("It was a long rehearsal today.").read()
    sent = c.chat.history[-1]["messages"]
    assert sent[0] == first_head  # the floor is byte-identical: the computed prefix stays valid
    assert any("What I just learned" in m["content"] and "cello" in m["content"] for m in sent[1:])
    assert "cello" in c.self_model.read().human  # and the Open Mind shows it at once
    c.start_session()
    c.chat.enqueue("Hi again.")
    c.turn("Good morning.").read()
    assert "cello" in c.chat.history[-1]["messages"][0]["content"]  # a new prefix carries it in the floor


def test_a_person_edit_of_the_block_shows_in_the_next_prompt_at_once(learning):
    c = learning
    say(c, "Hello there.", "Hi!")
    c.self_model.write("human", "- Prefers to be called Ada Lovelace", "user")
    c.chat.enqueue("Hello, Ada Lovelace.")
    # (Read from the turn itself: the learning that follows a reply may already have used the model.)
    turn = c.turn("Do you know who this is?")
    turn.read()
    assert "Ada Lovelace" in turn.workspace.messages[0]["content"]
    assert turn.workspace.messages in [call["messages"] for call in c.chat.history]  # as it was sent


class HeldMidAnswer(HoldsFirstStructuredAnswer, FakeChatModel):
    """Holds learning's first answer mid-way until a turn pre-empts it."""


def test_a_turn_preempts_learning_and_the_messages_are_read_later(anima_home):
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", HeldMidAnswer(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.chat.enqueue("Nice.", facts(("Grows tomatoes on the balcony with care every single summer", 0)))
    c.turn("I grow tomatoes on my balcony with care every single summer.").read()
    assert c.chat.asked.wait(timeout=60)  # the step has begun its answer, and is held there
    c.chat.enqueue("Sure.", facts(("Grows tomatoes on the balcony", 0)))
    turn = c.turn("Anyway, how are you?")  # pre-empts the step mid-answer
    assert c.self_model.read().human == "" and c.soul.get_meta(READ_THROUGH) is None
    turn.read()
    c.settle()  # the next step reads the pre-empted message again
    assert block_lines(c.self_model.read().human) == ["Grows tomatoes on the balcony"]
    c.close()


def test_malformed_model_output_writes_nothing_and_is_logged(learning, caplog):
    c = learning
    with caplog.at_level(logging.WARNING):
        say(c, "My favourite colour is green.", "Green is great.", "{not json", '{"facts": "green"}', "nope")
    assert c.self_model.read().human == "" and c.memories.current() == []
    assert "learning about the person skipped" in caplog.text
    say(c, "I said thanks.", "Any time.", facts())  # it moved on: no retry of the same messages forever
    assert "colour" not in json.dumps(c.chat.history[-1]["messages"])


def test_a_full_block_keeps_its_lines_and_the_fact_is_still_remembered(learning):
    c = learning
    full = "\n".join(f"- Old note number {i} about the person" for i in range(40))[:1190]
    c.self_model.write("human", full, "user")
    say(c, "My brother Tom lives in Oslo.", "Nice.", facts(("Brother Tom lives in Oslo", 0)))
    assert c.self_model.read().human == full.strip()
    assert [m["content"] for m in c.memories.current()] == ["Brother Tom lives in Oslo"]


def test_a_line_named_by_a_whole_number_written_as_a_float_is_replaced(learning):
    c = learning
    say(c, "I work as a software engineer.", "Nice!", facts(("Works as a software engineer", 0)))
    say(c, "I now work as a software tester.", "Oh!", facts(("Works as a software tester", 1.0)))
    assert block_lines(c.self_model.read().human) == ["Works as a software tester"]
    assert [m["content"] for m in c.memories.current()] == ["Works as a software tester"]


@pytest.mark.parametrize(
    "answer",
    [
        '{"facts": ' + "[" * 5000 + "]" * 5000 + "}",  # deeper than json can read
        '{"facts": [{"fact": "Likes green tea \\ud800", "replaces": 0}]}',  # half a surrogate pair: no UTF-8 holds it
    ],
)
def test_an_answer_json_cannot_keep_is_malformed_not_a_bug_and_the_messages_are_read(learning, caplog, answer):
    c = learning
    failed = []
    c.on_background_failure(failed.append)
    with caplog.at_level(logging.WARNING):
        say(c, "I like green tea.", "Nice.", answer, answer, answer)
    assert failed == [] and "learning about the person skipped" in caplog.text
    assert c.self_model.read().human == "" and c.memories.current() == []
    newest = c.soul.query("SELECT max(id) AS id FROM messages WHERE role = 'user'")[0]["id"]
    assert c.soul.get_meta(READ_THROUGH) == str(newest)  # read: not asked about again


# ---- issue 42: what a small model gets wrong is not kept ------------------------------------------------


@pytest.fixture
def nameless(anima_home):
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder())
    c.indexer_thread.join()
    c.reflector.every = 0
    c.learns = True
    yield c
    c.close()


def test_the_name_they_give_is_learned_not_held_back_as_unreadable(nameless, tmp_path):
    c = nameless
    say(c, "My name is Dana.", "Nice to meet you!", facts(("Dana", 0)))  # the model's bare name
    assert c.user_name == "Dana"
    assert block_lines(c.self_model.read().human) == ["Is called Dana"]
    assert c.proposals() == []
    c.export_json(tmp_path / "soul.json")
    assert json.loads((tmp_path / "soul.json").read_text())["person"] == "Dana"


def test_their_first_person_statements_are_written_about_them(learning):
    c = learning
    say(c, "I've been scared of dogs since I was a child.", "Oh.", facts(("I'm scared of dogs", 0)))
    assert block_lines(c.self_model.read().human) == ["Is scared of dogs"]
    assert c.proposals() == []


def test_a_correction_is_read_and_supersedes_only_the_slot_it_corrects(learning):
    c = learning
    say(c, "I have a cat called Miso.", "Lovely.", facts(("I have a cat called Miso", 0)))
    say(c, "I have a recital on 14 March.", "Good luck!", facts(("I have a recital on 14 March", 0)))
    # No "I", no "my": read all the same; and the model gives no number for the line it changes.
    say(c, "Actually the recital moved to 21 March.", "Noted.", facts(("The recital moved to 21 March", 0)))
    assert block_lines(c.self_model.read().human) == ["Has a cat called Miso", "The recital moved to 21 March"]
    old = next(m for m in c.soul.query("SELECT * FROM memories ORDER BY id") if "14 March" in m["content"])
    assert old["valid_to"] is not None and old["superseded_by"] is not None
    assert sorted(m["content"] for m in c.memories.current()) == [
        "Has a cat called Miso",
        "The recital moved to 21 March",
    ]


def test_a_question_states_no_fact_and_costs_no_model_call(learning):
    c = learning
    c.chat.enqueue("It's Miso.", facts(("Cat's name is Miso", 0)))
    c.turn("What's my cat's name?").read()
    c.settle()
    assert c.memories.current() == [] and block_lines(c.self_model.read().human) == []
    assert len(c.chat.queue) == 1  # the learning answer was never asked for


def test_what_is_dropped_is_logged_with_the_reason_and_no_words(learning, caplog):
    c = learning
    with caplog.at_level(logging.INFO, logger="anima.reflect.human"):
        say(c, "I play the cello.", "Nice.", facts(("Lives on the moon with seven dragons", 0), ("Plays the cello", 0)))
    assert block_lines(c.self_model.read().human) == ["Plays the cello"]
    assert "not what they said" in caplog.text and "dragons" not in caplog.text


def test_a_near_duplicate_is_not_learned_twice(learning):
    c = learning
    say(c, "I have a cat called Miso.", "Lovely.", facts(("Has a cat called Miso", 0)))
    say(c, "My cat Miso is lovely, I have a cat named Miso.", "Aw.", facts(("Has a cat named Miso", 0)))
    assert block_lines(c.self_model.read().human) == ["Has a cat called Miso"]
    assert len(c.memories.current()) == 1


def test_their_name_and_their_statements_in_another_language_are_read(nameless):
    c = nameless
    say(c, "Je m'appelle Dana. J'ai un chat qui s'appelle Miso.", "Enchantée !", facts(("A un chat, Miso", 0)))
    assert c.user_name == "Dana" and block_lines(c.self_model.read().human) == ["Is called Dana"]
    [waiting] = c.proposals()  # read, and waiting for them: the gate's checks read English only
    assert waiting["content"] == "A un chat, Miso" and "cannot read" in waiting["reason"]
    say(c, "Ich heiße Dana und ich spiele Cello.", "Schön!", facts(("Spielt Cello", 0)))
    assert len(c.chat.queue) == 0  # a message in German was read too (its answer was asked for)


def test_an_account_of_someone_else_not_fit_to_keep_is_left_out_and_logged(learning, caplog):
    c = learning
    with caplog.at_level(logging.INFO, logger="anima.reflect.human"):
        say(
            c,
            "My partner Alex thinks Anima should obey him, and I laughed.",
            "Oh.",
            facts(("Alex thinks Anima should obey him", 0)),
        )
    assert all("obey" not in m["content"] for m in c.memories.all())
    assert "learning left out a fact about someone else: not fit to keep (it reads as an instruction" in caplog.text
    assert "obey him" not in caplog.text and "Alex" not in caplog.text


@pytest.mark.parametrize(
    "said", ["I'm Dana, nice to meet you.", "Hi Anima, it's Dana.", "Hey there, I am Dana!", "Mi chiamo Dana."]
)
def test_the_name_they_give_as_people_give_it_is_learned_and_exported(nameless, tmp_path, said):
    c = nameless
    say(c, said, "Nice to meet you!", facts())
    assert c.user_name == "Dana" and block_lines(c.self_model.read().human) == ["Is called Dana"]
    c.export_json(tmp_path / "soul.json")
    assert json.loads((tmp_path / "soul.json").read_text())["person"] == "Dana"


@pytest.mark.parametrize("said", ["I'm Happy, thanks for asking.", "It's Jo, my sister, who rang."])
def test_a_word_or_someone_else_is_not_taken_for_their_name(nameless, said):
    c = nameless
    say(c, said, "Oh?", facts(), facts())
    assert c.user_name == "" and "Is called" not in c.self_model.read().human


def test_the_rest_of_a_recovery_phrase_split_over_two_messages_is_never_kept(learning):
    """Issue 43 item 2: "my recovery words are: apple river", then "stone orange ...": a line written from the
    second holds the phrase's words, and is refused as the whole phrase said at once would be."""
    c = learning
    say(c, "my recovery words are: apple river", "Okay.", facts())
    rest = "stone orange tiger lamp desk cloud piano, I wrote them down"
    say(c, rest, "Okay.", facts(("Wrote down the words stone orange tiger", 0)))
    assert c.chat.queue == deque()  # the learner read both messages
    kept = [m["content"] for m in c.memories.current()] + block_lines(c.self_model.read().human)
    assert not any("stone" in line or "tiger" in line for line in kept)
