"""`anima bench learning`: a scripted life through the real companion (an encrypted soul, the turn, learning,
quick and deep reflection, the clock moved to each message's time), scored; on a fake model whose outputs are
scripted (tests/bench/scripted.py), hostile ones included: an ungrounded rule, a fact stored twice, a correction."""

import io
import json
from datetime import UTC, datetime

import pytest

from anima.errors import KnownError
from anima.models.fake import FakeEmbedder
from anima.store import Home, clock
from bench import learning
from bench import report as printed
from tests.bench.running import bench
from tests.bench.scripted import ScriptedModel

SCENARIO = {
    "name": "tiny",
    "sessions": [
        {
            "at": "2026-03-02T19:00:00",
            "messages": [
                "Hi!",
                "I have a cat called Miso.",
                "I have a cello recital on 14 March.",
                "Don't call me sweetie.",
                "I had a sandwich for lunch.",
                "It rained all day.",
            ],
        },
        {
            "at": "2026-03-05T08:30:00",
            "messages": ["Actually my recital moved to 21 March.", "Miso is lovely, I have a cat called Miso."],
        },
    ],
    "expect": {
        "facts": [{"says": ["Miso", "cat"]}, {"says": ["cello"]}, {"says": ["sister"]}],
        "superseded": [{"old": ["14 March"], "new": ["21 March"]}],
        "rules": [{"says": ["sweetie"]}, {"says": ["short"]}],
        "world": [{"name": "Miso"}],
        "questions": [
            {"ask": "When is my recital?", "answer": ["21 March"]},
            {"ask": "What's my cat called?", "answer": ["Miso"]},
            {"ask": "Who is Jo?", "answer": ["sister"]},
        ],
    },
}


def scripted() -> ScriptedModel:
    return ScriptedModel(
        facts={
            "cat called Miso": ["Has a cat called Miso"],
            "14 March": ["Has a cello recital on 14 March"],
            "moved to 21": [("Recital is on 21 March", "14 March")],  # the correction replaces the note
            "Miso is lovely": ["Has a cat called Miso too"],  # hostile: the same fact again
            "sandwich": ["Had a sandwich for lunch"],  # true, and nothing anyone needs kept
        },
        lessons={
            "sweetie": "Do not call them sweetie",
            "rained": "Recommend jazz records",  # hostile: a lesson nobody taught (reflect/support.py drops it)
        },
        replies={"cat called": "Your cat is Miso."},
    )


@pytest.fixture
def played(tmp_path):
    chat = scripted()
    return chat, learning.play(SCENARIO, chat, FakeEmbedder(), tmp_path / "home")


def test_each_stored_item_is_classed_as_a_user_would_class_it(played):
    _, p = played
    scored, _ = learning.figures("tiny", SCENARIO, p)
    got = [(i.kind, i.text, i.current, cls) for i, cls in scored.classes]
    assert got == [
        ("memory", "Has a cat called Miso", True, "matched"),
        ("memory", "Has a cello recital on 14 March", False, "matched"),  # superseded, still stored
        ("memory", "Had a sandwich for lunch", True, "junk"),
        ("memory", "Recital is on 21 March", True, "matched"),
        ("rule", "Do not call them sweetie", True, "matched"),
    ]  # "Recommend jazz records" is not stored: the message it cites ("It rained all day.") does not say it


def test_the_figures_count_classes_expectations_and_questions(played):
    _, p = played
    _, f = learning.figures("tiny", SCENARIO, p)
    assert {k: f[k] for k in ("stored", "matched", "duplicates", "ungrounded", "junk")} == {
        "stored": 5,  # the fact said twice is learned once (reflect/statements.py): none is stored as a duplicate
        "matched": 4,
        "duplicates": 0,
        "ungrounded": 0,  # the lesson nobody taught is not stored (reflect/support.py)
        "junk": 1,
    }
    # The cat; the cello went with the recital's old date (the correction's note does not name it); no sister.
    assert (f["facts_found"], f["facts_expected"]) == (1, 3)
    assert (f["superseded_ok"], f["superseded_expected"]) == (1, 1)
    assert (f["rules_ok"], f["rules_expected"]) == (1, 2)  # nobody asked for short answers
    assert (f["world_ok"], f["world_expected"]) == (0, 1)  # nothing here writes world cards
    assert f["qa_recall_at_10"] == pytest.approx(2 / 3, abs=0.001)  # the recital and the cat; never a sister
    assert f["qa_in_reply"] == pytest.approx(1 / 3, abs=0.001)  # only the cat's reply was scripted to say it
    # Timed: every message's reply and what follows it, and one deep reflection a session (the last one included).
    assert len(p.turn_s) == len(p.between_s) == len(p.tokens) == 8 and len(p.reflection_s) == 2
    assert f["tokens_per_turn"] > 0 and min(p.turn_s) > 0 and min(p.reflection_s) > 0


def test_each_question_is_asked_through_the_turn_after_its_recall(played):
    chat, p = played
    assert [(a.ask, a.recalled, a.replied) for a in p.asked] == [
        ("When is my recital?", True, False),
        ("What's my cat called?", True, True),
        ("Who is Jo?", False, False),
    ]
    replies = [h for h in chat.history if h["schema"] is None]
    assert len(replies) == 8 + 3  # every message of the scenario and every question got a reply


def test_messages_carry_the_scenario_time_and_the_wall_clock_comes_back(played, tmp_path):
    soul = Home(tmp_path / "home").unlock(learning.PASSPHRASE)
    try:
        said = soul.query("SELECT content, created_at FROM messages WHERE role = 'user' ORDER BY id")
    finally:
        soul.close()
    when = {r["content"]: r["created_at"][:16] for r in said}
    assert when["Hi!"] == "2026-03-02T19:00"
    assert when["It rained all day."] == "2026-03-02T19:05"  # a minute a message
    assert when["Actually my recital moved to 21 March."] == "2026-03-05T08:30"  # days pass between sessions
    assert when["When is my recital?"] == "2026-03-05T09:36"  # an hour after the last message
    assert abs((clock.now() - datetime.now(UTC)).total_seconds()) < 60


def test_the_last_line_has_every_figure_and_a_folder_gives_one_line_per_scenario(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / f"{name}.json").write_text(json.dumps({**SCENARIO, "name": name}), encoding="utf-8")
    out = io.StringIO()
    monkeypatch.setattr(printed, "_OUT", out)
    assert learning.main(["--scenario", str(tmp_path)], chat=scripted(), embedder=FakeEmbedder()) == 0
    lines = [json.loads(ln) for ln in out.getvalue().splitlines() if ln.startswith("{")]
    assert [ln["scenario"] for ln in lines] == ["a", "b"]
    assert out.getvalue().splitlines()[-1].startswith('{"bench": "learning"')
    assert list(lines[-1])[:18] == [
        "bench",
        "scenario",
        "stored",
        "matched",
        "duplicates",
        "ungrounded",
        "junk",
        "facts_found",
        "facts_expected",
        "superseded_ok",
        "superseded_expected",
        "rules_ok",
        "world_ok",
        "qa_recall_at_10",
        "tokens_per_turn",
        "turn_s",
        "reflection_s",
        "rules_expected",
    ]
    assert "what the soul holds" in out.getvalue() and "Do not call them sweetie" in out.getvalue()
    assert "Recommend jazz records" not in out.getvalue()  # a lesson nobody taught is not stored


def test_a_shortened_scenario_plays_the_first_messages_of_each_session(tmp_path, monkeypatch):
    (tmp_path / "tiny.json").write_text(json.dumps(SCENARIO), encoding="utf-8")
    monkeypatch.setattr(printed, "_OUT", io.StringIO())
    chat = scripted()
    assert learning.main(["--scenario", str(tmp_path / "tiny.json"), "--messages", "2"], chat, FakeEmbedder()) == 0
    sent = [h["messages"][-1]["content"] for h in chat.history if h["schema"] is None]
    assert sent[:4] == [
        "Hi!",
        "I have a cat called Miso.",
        "Actually my recital moved to 21 March.",
        ("Miso is lovely, I have a cat called Miso."),
    ]


def test_a_file_that_is_no_scenario_is_said_so(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "sessions": [{"at": "tuesday", "messages": ["hi"]}]}), encoding="utf-8")
    with pytest.raises(KnownError, match="is not a learning scenario"):
        learning.scenarios(bad)
    (tmp_path / "empty").mkdir()
    for nothing in (tmp_path / "empty", tmp_path / "absent.json"):
        with pytest.raises(KnownError, match="No scenario"):
            learning.scenarios(nothing)


def test_our_scenarios_load_and_expect_only_what_their_person_says():
    plays = learning.scenarios(learning.OURS)
    assert len(plays) >= 4
    for path, s in plays:
        said = " ".join(m for session in s["sessions"] for m in session["messages"])
        e = s["expect"]
        wanted = [f["says"] for f in e["facts"]] + [c["new"] for c in e["superseded"]] + [r["says"] for r in e["rules"]]
        for words in wanted:
            assert all(w.lower() in said.lower() for w in words), (path.name, words)
        assert e["questions"] and e["superseded"] and len(s["sessions"]) >= 2, path.name


@pytest.mark.slow  # the real default model through a whole (tiny) scenario
def test_the_benchmark_runs_on_the_default_model(tmp_path):
    (tmp_path / "tiny.json").write_text(json.dumps(SCENARIO), encoding="utf-8")
    ran = bench("learning", "--scenario", str(tmp_path / "tiny.json"), "--messages", "2")
    assert ran.returncode == 0, ran.err
    assert ran.figures["bench"] == "learning" and ran.figures["scenario"] == "tiny"
    assert ran.figures["turn_s"] > 0 and ran.figures["stored"] >= 0


def test_the_mean_tokens_of_each_tier_are_a_table_and_the_last_key_of_the_one_json_line(played, monkeypatch):
    from anima.workspace.budget import TIER_NAMES

    _, p = played
    assert len(p.tiers) == len(p.tokens) == 8
    # Each turn's tiers add up to what it sent but for four tokens a message (the bench counts the chat template).
    assert all(sum(t.values()) < n for t, n in zip(p.tiers, p.tokens, strict=True))
    out = io.StringIO()
    monkeypatch.setattr(printed, "_OUT", out)
    figures = learning.report("tiny", SCENARIO, p)
    printed.emit("learning", figures)
    last = out.getvalue().splitlines()[-1]
    line = json.loads(last)
    assert list(line)[-1] == "tokens_by_tier" and "\n" not in last
    tiers = line["tokens_by_tier"]
    assert list(tiers) == [t for t in TIER_NAMES if t in tiers]  # in the prompt's order
    assert tiers["self"] > 0 and tiers["message"] > 0 and tiers["history"] > 0  # later turns read earlier ones
    assert tiers["message"] == pytest.approx(sum(t["message"] for t in p.tiers) / 8, abs=0.05)
    assert "a turn's workspace, mean tokens by tier" in out.getvalue()
    row = next(ln for ln in out.getvalue().splitlines() if ln.startswith("memories") or ln.startswith("rules"))
    assert row.split()[-1].isdigit()  # a ranked tier's budget, in this model's tokens
