"""Reaching out on a real encrypted soul, the fake model writing, the clock moved by the test: a note on its last
day makes one message that names it, stored as the companion's and opening the conversation; never twice about
the same note; the cap a day; quiet hours (wrapping midnight); off; not while the person types or talks; a
prediction that fell due; an unusable answer replaced by a sentence from the note; and the message forgotten like
any message."""

from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone

import pytest

from anima.conversation.reaching_out import REMEMBERED, Limits, Outcome, ReachingOut, limits_of, unusable
from anima.parts.predictions import Predictions
from anima.settings import Settings
from anima.store.provenance import Provenance, Source
from tests.reflect.test_hygiene import part

ZONE = timezone(timedelta(hours=2))  # the person's own zone: their day and their quiet hours are its
DAY = datetime(2030, 3, 14, 15, 0, tzinfo=ZONE)  # after the real messages a test stores: they are hours old
RECITAL = "Check in about the recital on Thursday"


class Clock:
    def __init__(self, at: datetime):
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock():
    return Clock(DAY)


@pytest.fixture
def reach(companion, clock):
    c = companion
    return ReachingOut(c.soul, c.chat, c.conversation, c.self_model, Predictions(c.soul, clock), c.messages, clock)


def hold(c, *lines):
    c.self_model.write("working_memory", "\n".join(lines), "ai")


def note(text, until):
    return f"- {text} (until {until.isoformat()})"


def test_a_note_on_its_last_day_opens_the_conversation_with_one_message_that_names_it(companion, reach):
    c = companion
    hold(c, note("Ask about the new job", DAY.date() + timedelta(days=3)), note(RECITAL, DAY.date()))
    c.chat.enqueue("Hi Ada! I remembered your recital is on Thursday. How are you feeling about it?")

    done = reach.look(Limits())

    assert done.outcome is Outcome.SENT and not done.fell_back
    assert done.about == RECITAL  # the note on its last day, not the one held three more days
    assert "recital" in done.text
    [stored] = c.messages.newest(10)
    assert (stored["id"], stored["role"], stored["content"]) == (done.message_id, "companion", done.text)
    assert "recital" in c.provenance("message", done.message_id)  # why it wrote, in its provenance
    assert c.conversation.entries()[-1].content == done.text  # the live transcript: its next reply follows on
    [call] = c.chat.history
    assert RECITAL in call["messages"][0]["content"] and "Ada" in call["messages"][0]["content"]


def test_never_twice_about_the_same_note(companion, reach, clock):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    c.chat.enqueue("I remembered your recital, Ada. How did the rehearsal go?")
    assert reach.look(Limits(per_day=5)).outcome is Outcome.SENT
    clock.at += timedelta(hours=2)
    assert reach.look(Limits(per_day=5)).outcome is Outcome.NOTHING_DUE
    # Held again, to a later day, by reflection: the same words, the same note.
    hold(c, note(RECITAL, DAY.date() + timedelta(days=1)))
    clock.at += timedelta(days=1)
    assert reach.look(Limits(per_day=5)).outcome is Outcome.NOTHING_DUE
    assert len(c.messages.newest(10)) == 1
    assert RECITAL.lower() not in c.soul.get_meta(REMEMBERED, "").lower()  # remembered by a hash, not its words


def test_at_most_n_a_day(companion, reach, clock):
    c = companion
    hold(c, note(RECITAL, DAY.date()), note("Ask how the dentist went", DAY.date()))
    c.chat.enqueue("I remembered the recital. How is it going?")
    assert reach.look(Limits(per_day=1)).outcome is Outcome.SENT
    clock.at += timedelta(hours=1)
    assert reach.look(Limits(per_day=1)).outcome is Outcome.ENOUGH_TODAY
    assert len(c.messages.newest(10)) == 1
    c.chat.enqueue("How did the dentist go? I was thinking of you.")
    assert reach.look(Limits(per_day=2)).outcome is Outcome.SENT  # a higher cap lets the second through
    # The next day, the cap starts again; the dentist note is spoken of already, and nothing else is due.
    hold(c, note("Ask about the garden", DAY.date() + timedelta(days=1)))
    clock.at = DAY + timedelta(days=1)
    c.chat.enqueue("How is the garden doing? I had it in mind.")
    done = reach.look(Limits(per_day=1))
    assert done.outcome is Outcome.SENT and done.about == "Ask about the garden"


@pytest.mark.parametrize(
    ("at", "quiet"),
    [(time(23, 30), True), (time(2, 0), True), (time(7, 59), True), (time(8, 0), False), (time(21, 59), False)],
)
def test_quiet_hours_wrap_midnight(companion, reach, clock, at, quiet):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    clock.at = datetime.combine(DAY.date(), at, tzinfo=ZONE)
    c.chat.enqueue("I remembered your recital, Ada.")
    done = reach.look(Limits())
    assert (done.outcome is Outcome.QUIET_HOURS) == quiet
    assert len(c.messages.newest(10)) == (0 if quiet else 1)


def test_a_note_due_in_the_quiet_hours_waits_until_they_end(companion, reach, clock):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    clock.at = datetime.combine(DAY.date(), time(6, 30), tzinfo=ZONE)
    for _ in range(3):  # each look while it is quiet: nothing
        assert reach.look(Limits()).outcome is Outcome.QUIET_HOURS
        clock.at += timedelta(minutes=30)
    assert c.messages.newest(10) == []
    c.chat.enqueue("Good morning! I remembered the recital is today.")
    done = reach.look(Limits())  # 08:00: the quiet hours are over
    assert done.outcome is Outcome.SENT and done.about == RECITAL


def test_a_week_of_twenty_due_notes_keeps_the_cap_and_never_speaks_twice(companion, reach, clock):
    c = companion
    notes = [(f"Errand {i}", DAY.date() + timedelta(days=i % 7)) for i in range(20)]  # 20 fit in its 800 characters
    hold(c, *(note(text, until) for text, until in notes))
    c.chat.enqueue(*[f"I was thinking of errand {i}." for i in range(20)])
    sent: list[tuple[datetime, str]] = []
    start = datetime.combine(DAY.date(), time(0, 0), tzinfo=ZONE)
    for hour in range(7 * 24):  # a look every hour for a week, as the window looks every minute
        clock.at = start + timedelta(hours=hour)
        done = reach.look(Limits(per_day=1))
        if done.outcome is Outcome.SENT:
            sent.append((clock.at, done.about))
    days = [at.date() for at, _ in sent]
    assert len(days) == len(set(days)) == 7  # one a day, every day something was due
    assert len({about for _, about in sent}) == len(sent)  # never the same note twice
    assert all(time(8, 0) <= at.time() < time(22, 0) for at, _ in sent)  # never in the quiet hours
    assert len(c.messages.newest(100)) == 7


def test_quiet_hours_within_a_day_and_none():
    day = Limits(quiet_from=time(13, 0), quiet_to=time(14, 0))
    assert day.quiet(time(13, 30)) and not day.quiet(time(14, 0)) and not day.quiet(time(23, 0))
    assert not Limits(quiet_from=time(9, 0), quiet_to=time(9, 0)).quiet(time(9, 0))


def test_off_sends_nothing(companion, reach):
    hold(companion, note(RECITAL, DAY.date()))
    assert reach.look(Limits(per_day=0)).outcome is Outcome.OFF
    assert companion.messages.newest(10) == [] and companion.chat.history == []


def test_nothing_while_the_person_types_or_talks(companion, reach, clock):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    assert reach.look(Limits(), typing=lambda: True).outcome is Outcome.TYPING
    assert c.chat.history == []
    # They began typing while the model wrote: it is not sent, and the note is still due.
    asked = iter([False, True])
    c.chat.enqueue("I remembered your recital.")
    assert reach.look(Limits(), typing=lambda: next(asked)).outcome is Outcome.TYPING
    assert c.messages.newest(10) == []
    # They wrote a moment ago (by the real clock): they are talking with it.
    c.messages.record("user", "hello", speaker="Ada")
    clock.at = datetime.now(ZONE)
    hold(c, note(RECITAL, clock.at.date()))
    assert reach.look(Limits(quiet_from=time(0, 0), quiet_to=time(0, 0))).outcome is Outcome.TALKING


def test_a_prediction_that_fell_due(companion, reach, clock):
    c = companion

    @dataclass
    class Bid:
        part_id: int
        suggestion: str = "Suggest a short walk"
        predicted_result: str = "Ada will feel calmer after the walk"
        confidence: str = "70%"
        timeframe_s: int = 3600

    pid = c.parts.create(
        part("Carer", "I look after Ada's calm.", ["Ada is stressed"]), "ai", Provenance(Source.REFLECTION)
    )
    predictions = Predictions(c.soul, clock)
    predictions.record(Bid(pid), DAY - timedelta(minutes=30))
    assert reach.look(Limits()).outcome is Outcome.NOTHING_DUE  # not due for another half hour
    clock.at += timedelta(hours=1)
    c.chat.enqueue("Did the walk help you feel calmer, Ada?")
    done = reach.look(Limits())
    assert done.outcome is Outcome.SENT and done.about == "Ada will feel calmer after the walk"
    assert "calmer" in c.messages.newest(1)[0]["content"]


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "Ada: I'm fine, how are you?",
        "Hi Ada!\n\nI remembered the recital.",
        "Hello there! How are you today?",  # nothing of the note
        "recital " * 80,
    ],
)
def test_an_unusable_answer_falls_back_to_the_note_itself(companion, reach, answer, caplog):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    c.chat.enqueue(answer)
    with caplog.at_level("INFO", logger="anima.conversation.reaching_out"):
        done = reach.look(Limits())
    assert done.outcome is Outcome.SENT and done.fell_back
    assert RECITAL in done.text and done.text == c.messages.newest(1)[0]["content"]
    assert "unusable" in caplog.text and "recital" not in caplog.text.lower()  # the log never holds the words


def test_unusable_names_why():
    names = ("Anima", "Ada")
    assert unusable("I remembered your recital, Ada. How did it go?", RECITAL, names) is None
    assert unusable("User: the recital went well", RECITAL, names) == "a line with a speaker's name"
    assert unusable('"I remembered your recital."', RECITAL, names) == "in quotation marks"


def test_the_message_is_forgotten_like_any_message(companion, reach):
    c = companion
    hold(c, note(RECITAL, DAY.date()))
    c.chat.enqueue("Ada, I remembered your recital on Thursday. How are you feeling?")
    done = reach.look(Limits())
    c.forget("message", done.message_id)
    assert c.messages.newest(10) == []
    assert c.provenance("message", done.message_id) == "not recorded"  # why it wrote went with it
    assert all(done.text not in e.content for e in c.conversation.entries())
    assert reach.look(Limits(per_day=3)).outcome is Outcome.NOTHING_DUE  # forgotten, and still not said twice


def test_a_turn_that_begins_stops_it_and_nothing_is_sent(companion, reach):
    import threading

    c = companion
    hold(c, note(RECITAL, DAY.date()))
    writing, go_on = threading.Event(), threading.Event()
    real = c.chat.current.stream_text

    def slow(*args, cancel, **kwargs):
        writing.set()
        go_on.wait(10)
        return (yield from real(*args, cancel=cancel, **kwargs))

    c.chat.current.stream_text = slow
    c.chat.enqueue("I remembered your recital.")
    got = []
    looking = threading.Thread(target=lambda: got.append(reach.look(Limits())))
    looking.start()
    assert writing.wait(10)
    stopping = threading.Thread(target=c.interrupt)  # as a turn does before it reads anything
    stopping.start()
    go_on.set()
    stopping.join(10)
    looking.join(10)
    assert got[0].outcome is Outcome.INTERRUPTED and c.messages.newest(10) == []


def test_settings_out_of_reach_are_refused():
    from anima.errors import KnownError

    for wrong in (Settings(reach_out_per_day=25), Settings(reach_out_per_day=-1), Settings(quiet_from="25:00")):
        with pytest.raises(KnownError):
            wrong.validate()
    Settings(reach_out_per_day=0, quiet_from="7:30", quiet_to="23:59").validate()


def test_the_settings_give_the_limits():
    assert limits_of(Settings()) == Limits(1, time(22, 0), time(8, 0))
    assert limits_of(Settings(reach_out_per_day=0, quiet_from="23:15", quiet_to="7:00")) == Limits(
        0, time(23, 15), time(7, 0)
    )


def test_the_companion_reaches_out_by_its_own_clock(anima_home):
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    home = Home(anima_home)
    soul = home.create(PASSPHRASE, name="Anima")
    soul.set_meta("user_name", "Ada")
    c = Companion(home, soul, FakeChatModel(), FakeEmbedder(), clock=lambda: DAY)
    try:
        today = DAY.astimezone().date()  # the companion's day is the machine's zone's
        hold(c, note(RECITAL, today))
        c.chat.enqueue("I remembered your recital, Ada.")
        done = c.reach_out(Limits(quiet_from=time(0, 0), quiet_to=time(0, 0)))
        assert done.outcome is Outcome.SENT and done.about == RECITAL
    finally:
        c.close()
