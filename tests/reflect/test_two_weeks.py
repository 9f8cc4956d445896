"""Two simulated weeks with one companion on a real encrypted soul, quick reflection after every turn and deep
reflection every night, the fake model playing the model and the test's clock the days (issue: inner life).

What a person would check across the fortnight: what it holds for a few days lapses; their "I'm fine" wins over
its reading; a reply announcing how they seem never reaches them; a rule comes after three corrections of the
same kind and goes after contrary evidence; the growth log only grows; the identity changes only as governance
allows; a significant episode from the first days is still read by deep reflection at the end."""

from datetime import timedelta

from anima.self.identity import EARNED_AFTER
from anima.workspace.assemble import render_floor
from tests.reflect.test_deep import considering, reading
from tests.reflect.test_quick import Clock, answer, reflecting, seemed

IDENTITY = "I am Ada's steady companion. I give her the bottom line first and I ask about her dad's health."


def test_two_weeks(anima_home):
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    clock = Clock()
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada")
    failed = []
    c.on_background_failure(failed.append)
    try:
        c.indexer_thread.join()
        c.learns = False
        reflecting(c, clock)
        c.soul.set_meta(EARNED_AFTER, "4")
        growth: list[dict] = []
        identities: list[str] = []

        start = clock.at

        def day(n: int, said: str, reply: str | tuple, quick: str, deep: str, *more: str) -> str:
            clock.at = start + timedelta(days=n)
            c.start_session()  # a day's talk is a conversation of its own (the messages bear the real time)
            c.chat.enqueue(*(reply if isinstance(reply, tuple) else (reply,)), quick)
            turn = c.turn(said)
            shown = turn.read()
            c.settle()
            c.chat.enqueue(deep, *more)
            c.reflect_deeply()
            after = c.self_model.growth(1000)[::-1]
            assert after[: len(growth)] == growth  # the growth log only grows: nothing edited, nothing trimmed
            growth[:] = after
            identities.append(c.self_model.read().identity)
            return shown

        episode = lambda summary, sig: reading(episodes=[([1, 2], summary, "", sig, "I listened.")])  # noqa: E731
        correction = reading(feedback=[(1, "correction", "Give the bottom line first", 0, "supports")])

        day(
            0,
            "I start the new job at the bakery on Monday.",
            "Exciting!",
            answer("Ada starts at the bakery.", hold=[("Ask how the bakery job started", 3)]),
            episode("Ada starts a new job at the bakery", 6),
            considering(identity=IDENTITY),
        )
        assert "Ask how the bakery job started" in c.self_model.read().working_memory
        assert identities[-1] == "" and growth[-1]["entry"].startswith("Noted, not enacted")  # too early
        day(
            1,
            "My dad went into hospital last night.",
            "I'm so sorry, Ada.",
            answer("Ada's dad is in hospital."),
            episode("Ada's dad went into hospital", 9),
            considering(),
        )
        for n in (2, 3, 4):  # three corrections of the same kind, on three days
            day(n, "No, just give me the bottom line first.", "The bottom line: yes.", answer(""), correction)
        rules = c.rules.all()
        assert [r.pattern for r in rules] == ["Give the bottom line first"] and rules[0].in_force
        assert "- Give the bottom line first" in render_floor(c.self_model.read(), c.name)
        assert "bakery" not in c.self_model.read().working_memory  # held for 3 days from day 0: lapsed

        day(
            5,
            "I'm fine, really. The bakery is busy.",
            "Good to hear.",
            answer("Ada says she is fine.", read=seemed("upset", -0.6, 0.6, "The bakery is busy")),
            episode("Ada said the bakery is busy and that she is fine", 3),
            considering(),
        )
        [signal] = [s for s in c.feelings.all() if s.evidence_type == "explicit"]
        assert signal.signal == "fine" and signal.valence > 0  # their words, not the model's "upset"
        shown = day(
            6,
            "What should I do about the rota?",
            ("I notice you seem frustrated. Swap the Tuesday shift.", "Swap the Tuesday shift."),  # asked again
            answer(""),
            reading(),
        )
        assert shown == "Swap the Tuesday shift."

        for n in (7, 8, 9):  # they want the reasoning now: contrary evidence, three times
            day(
                n,
                "Walk me through your reasoning step by step, please.",
                "First, ...",
                answer(""),
                reading(feedback=[(1, "correction", "Explain the reasoning first", 1, "contradicts")]),
            )
        assert c.rules.all()[0].retired_at is not None
        assert "bottom line" not in render_floor(c.self_model.read(), c.name)

        for n, topic in ((10, "the bakery rota"), (11, "her dad's recovery")):
            day(
                n,
                f"We talked about {topic} today.",
                "Thanks for telling me.",
                answer(""),
                episode(f"Ada and I talked about {topic}", 5),
                considering(),
            )
        day(
            12,
            "Dad is home from hospital!",
            "Wonderful news, Ada!",
            answer("Ada's dad is home."),
            episode("Ada's dad came home from hospital", 8),
            considering(identity=IDENTITY),
        )
        assert identities[-1] == IDENTITY and growth[-1]["entry"].startswith("I rewrote who I am")
        assert len(set(identities)) == 2  # "" for twelve days, then once, when governance allowed it

        day(
            13,
            "The bakery asked me to stay on.",
            "Well done!",
            answer(""),
            episode("The bakery asked Ada to stay on", 6),
            considering(),
        )
        last = c.chat.history[-1]["messages"][1]["content"]
        assert "Ada's dad went into hospital" in last.split("New experiences:")[0]  # from the first days
        assert c.soul.query("SELECT count(*) AS n FROM emotional_signals")[0]["n"] >= 1
        assert failed == [] and not c.chat.queue
    finally:
        c.close()
