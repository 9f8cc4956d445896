"""Issue 42's scenario (Dana's two days: /work/shared/eval/learning/dana.json) end to end on a real encrypted
soul, with a fake model that answers every call as the default tiny model did: it copies the person's words as
facts, adds junk ("Silly Cat", a bare "Dana", a question read as a fact), calls every pair a change, teaches a
lesson cut off mid-quote from a question, makes up who Jo is and reads its notes out. What is kept must be right."""

import json
import re

import pytest

from anima.companion import Companion
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.reflect.human import block_lines
from anima.store import Home
from tests.conftest import PASSPHRASE

DAYS = [
    [
        "Hi there!",
        "My name is Dana.",
        "I have a cat called Miso.",
        "Miso is a grey tabby and she loves sleeping on my keyboard.",
        "How are you today?",
        "My sister Jo just started a new job as a nurse in Leeds.",
        "I'm really happy for Jo, she worked so hard for it.",
        "I've been scared of dogs since I was a child.",
        "I'm learning the cello. I have a recital on 14 March.",
        "I'm quite anxious about the recital, my hands shake when I play in front of people.",
        "Please keep your answers shorter.",
        "What's your favourite season?",
        "It rained all day here, pretty gloomy.",
        "I practise the cello for an hour every evening.",
        "Don't call me sweetie.",
        "Can you suggest a way to calm nerves before a performance?",
        "Thanks, that's helpful.",
        "Good night, talk tomorrow.",
    ],
    [
        "Good morning!",
        "Actually the recital moved to 21 March.",
        "I'm still anxious about it, but a bit less than yesterday.",
        "Jo called me last night, she loves her new job at the hospital.",
        "What did I tell you about my sister?",
        "What's my cat's name?",
        "Please keep your answers shorter, you are rambling again.",
        "A neighbour's dog barked at me this morning and I froze.",
        "Do you like music?",
        "I'm playing a Bach suite at the recital.",
        "I'm so happy Jo is settling in well.",
        "What's the weather like where you are?",
        "Don't call me sweetie, I mean it.",
        "When is my recital?",
        "Miso knocked my rosin off the table today, silly cat.",
        "I'm going to practise now.",
        "Bye for now.",
    ],
]
LEAK = "Today, in their words: they're a little anxious."
MADE_UP = "Jo is a teacher in Paris, sweetie! Here are a few:\n\n1. Breathe slowly.\n2. Walk."


class TinyModel(FakeChatModel):
    """Answers every call from the schema it is given, with the mistakes issue 42 saw."""

    def stream_text(self, messages, *, max_tokens, temperature, stop, cancel, schema):
        self.queue.append(self.answer(messages, schema))
        return super().stream_text(
            messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
        )

    def answer(self, messages, schema):
        if schema is None:  # a reply: it reads a note out when it has one
            notes = " ".join(m["content"] for m in messages if m["role"] == "system")
            asked_again = messages[-1]["role"] == "system" and "Reply again" in messages[-1]["content"]
            return MADE_UP if asked_again or "how they feel" not in notes else f"{LEAK} {MADE_UP}"
        asked = next(m["content"] for m in messages if m["role"] == "user")
        fields = set(schema["properties"])
        if fields == {"facts"}:
            said = re.findall(r"^- (.+)$", asked.split("\n\nYour notes:")[0], re.M)
            facts = [s.rstrip(".!") for s in said]  # their words, in their voice
            facts += ["Silly Cat"] * any("silly cat" in s for s in said) + ["Dana"] * any("Dana" in s for s in said)
            return json.dumps({"facts": [{"fact": f, "replaces": 0} for f in facts[:3]]})
        if fields == {"pairs"}:
            n = len(re.findall(r"^\d+\. older:", asked, re.M))
            return json.dumps({"pairs": [{"pair": i, "verdict": "changed"} for i in range(1, n + 1)]})
        if "episodes" in fields:
            lines = re.findall(r"^(\d+)\. \[[^\]]*\] ([^:]+): (.*)$", asked, re.M)
            questions = [int(n) for n, who, text in lines if text.endswith("?") and who != "Anima"]
            feedback = [
                {"message": n, "kind": "re-ask", "lesson": "I don't know how to '", "rule": 0, "stance": "supports"}
                for n in questions[:3]
            ]
            return json.dumps({"episodes": [], **({"feedback": feedback} if "feedback" in fields else {})})
        if fields == {"cards"}:
            names = re.findall(r"^Name: (\w+)$", asked, re.M)
            return json.dumps(
                {
                    "cards": [
                        {"name": n, "kind": "person", "about": f"{n} is a teacher in Paris.", "keys": [n, "Paris"]}
                        for n in names
                    ]
                }
            )
        raise AssertionError(f"the tiny model was asked something this test does not know: {sorted(fields)}")


@pytest.fixture
def dana(anima_home):
    chat = TinyModel()
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder())
    c.indexer_thread.join()
    c.reflector.every = 0  # learning about them after each turn; quick reflection is other tests'
    yield c
    c.close()


def test_what_dana_said_over_two_days_is_kept_right_whatever_the_tiny_model_says(dana):
    c = dana
    for day in DAYS:
        for text in day:
            turn = c.turn(text)
            shown = "".join(turn)
            c.settle()
            assert LEAK not in shown and shown == turn.text
    c.reflect_deeply()
    replies = [m["content"] for m in c.soul.query("SELECT content FROM messages WHERE role = 'companion'")]
    assert all(r == MADE_UP for r in replies)  # no note read out is stored; what was shown is, list and all
    # Facts: nothing junk, nothing from a question, in their voice turned about them, the name learned.
    block = block_lines(c.self_model.read().human)
    current = [m["content"] for m in c.memories.current()]
    waiting = [p["content"] for p in c.proposals()]  # the person's own words about others may wait for their OK
    assert c.user_name == "Dana" and any(ln.endswith(" Dana") for ln in block), block  # a line, not a bare name
    junk = r"silly|cat's name|^Dana$|^I\b|^My\b|teacher|Paris"
    assert not [k for k in block + current if re.search(junk, k, re.I)], block + current
    assert not [w for w in waiting if re.search(r"^Silly Cat$|cat's name|^Dana$|teacher|Paris", w, re.I)], waiting
    assert any("Miso" in k for k in current) and any("scared of dogs" in k for k in current), current
    recital = {m["content"]: m for m in c.soul.query("SELECT * FROM memories") if "March" in m["content"]}
    assert set(recital) == {"Has a recital on 14 March", "The recital moved to 21 March"}  # the copied message, split
    assert recital["Has a recital on 14 March"]["superseded_by"] == recital["The recital moved to 21 March"]["id"]
    assert any("Miso" in ln for ln in block)  # the true fact stands: "changed" for Miso and a silly cat is no change
    assert set(block) == set(current)  # the block and the memories agree: no line closed by a word in common
    # Feedback said twice becomes rules citing it; the junk lesson from questions does not.
    patterns = [r.pattern for r in c.rules.all()]
    assert any("short" in p.lower() for p in patterns) and any("sweetie" in p.lower() for p in patterns), patterns
    assert not [p for p in patterns if "don't know how" in p], patterns
    # The world: cards for Jo and Miso hold nothing the model made up (so, here, no card at all is written).
    assert not [card for card in c.world.all() if "Paris" in card["body"] or "Paris" in card["keywords"]]
    # Recall: "Who is Jo?" brings what Dana said above the made-up replies.
    top = [r for r in c.recall("Who is Jo?", 6) if r.kind == "message"]
    assert any("nurse in Leeds" in r.text for r in top) and top[0].row["role"] == "user"
