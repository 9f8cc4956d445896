"""Work between turns that read the soul before another program forgot something writes nothing made of it.

This program's own forgets stop learning and reflection first (Reflector.turn_started); another program's (the
window beside `anima chat`) cannot. A helper's QA found both ways back: a fact learned from a message forgotten
meanwhile written into the human block (then "FOREIGN KEY constraint failed" told as a failure), and an episode
summed up from messages read before the forget, naming the person. Here the other program is a second
connection to the same encrypted file, as `anima chat` has."""

import threading

import pytest

from anima.companion import Companion
from anima.errors import ForgottenMeanwhile
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.reflect.test_deep import considering, reading, talk
from tests.reflect.test_human import facts

NAME = "Kestrelmund"


class HeldModel(FakeChatModel):
    """Answers structured calls (learning, reflection) only once `release` is set, after saying it was asked."""

    def __init__(self):
        super().__init__()
        self.asked, self.release = threading.Event(), threading.Event()

    def stream_text(self, messages, *, max_tokens, temperature, stop, cancel, schema):
        if schema is not None:
            self.asked.set()
            assert self.release.wait(30), "the test never let the model answer"
        return (
            yield from super().stream_text(
                messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
            )
        )


@pytest.fixture
def two(anima_home):
    """This program's companion (its model held) and the other program's soul."""
    home = Home(anima_home)
    c = Companion.create(home, PASSPHRASE, "Anima", HeldModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.reflector.every = 0
    told = []
    c.on_background_failure(told.append)
    other = home.unlock(PASSPHRASE)
    yield c, other, told
    other.close()
    c.close()


def traces(c: Companion, tmp_path) -> list[str]:
    path = tmp_path / "all.json"
    c.export_json(path)
    return [line for line in path.read_text(encoding="utf-8").splitlines() if NAME.lower() in line.lower()]


def test_a_write_from_work_begun_before_a_forget_elsewhere_is_refused_and_nothing_is_written(two):
    c, other, _ = two
    said = c.soul.add("message", "user", session="s", role="user", content=f"{NAME} rang", created_at="2026")
    with c.soul.unforgotten():
        c.memories.remember("Likes tea")  # nothing forgotten yet
        other.forget("message", said)
        with pytest.raises(ForgottenMeanwhile):
            c.memories.remember("Rang today")
    assert [m["content"] for m in c.soul.query("SELECT content FROM memories")] == ["Likes tea"]
    c.memories.remember("Rang today")  # outside such work: written


def test_learning_about_a_person_the_other_program_forgot_meanwhile_writes_nothing_of_them(two, tmp_path):
    c, other, told = two
    c.learns = True
    c.chat.enqueue("Lovely.", facts((f"Has a sister {NAME} in Oslo", 0)))
    c.turn(f"I have a sister {NAME} in Oslo and I visit her every summer").read()
    assert c.chat.asked.wait(30)  # learning is reading the message, the model thinking
    assert other.forget_person(NAME).total == 2  # the message, and the reply to it (store/forget.py)
    c.chat.release.set()
    c.settle()
    assert NAME not in c.self_model.read().human and not c.memories.current()
    assert not traces(c, tmp_path) and told == []  # not told as a failure: nothing was the person's to mend
    # Learning goes on with what is left: the next message is learned from.
    c.chat.enqueue("Nice.", facts(("Loves sailing", 0)))
    c.turn("I love sailing").read()
    c.settle()
    assert "Loves sailing" in c.self_model.read().human


def test_an_episode_summed_up_before_the_other_program_forgot_its_person_is_not_written(two, tmp_path):
    c, other, told = two
    talk(
        c,
        0,
        f"Yesterday I met {NAME} down at the harbour",
        "How was it?",
        "We talked about boats at the harbour for hours",
        "Sounds like a good day.",
    )
    c.chat.enqueue(
        reading(
            episodes=[([1, 2, 3, 4], f"Ada met {NAME} at the harbour and talked about boats", "glad", 5, "I listened.")]
        ),
        considering(),
    )
    done = []
    deep = threading.Thread(target=lambda: done.append(c.reflect_deeply()))
    deep.start()
    assert c.chat.asked.wait(30)
    assert other.forget_person(NAME).total == 2  # the message, and the reply to it ("How was it?")
    c.chat.release.set()
    deep.join(60)
    assert not c.episodes.all() and not traces(c, tmp_path) and told == []
    assert not [r for r in c.recall(f"{NAME} harbour boats", k=10) if NAME in r.text]
