"""Parts hygiene on a real encrypted soul with a scripted model (seed 000): a person part that grows and splits into
two contextual aspects, a report-style preference that stabilises from accepted and rejected outputs, a homework
part archived when its conclude_when is met, two parts that say the same thing merged, and bad answers refused with
every part exactly as it was."""

import json
import logging
import threading

import pytest

from anima.reflect.hygiene import TENDED, Action, Hygiene, Outcome, tend
from anima.store.provenance import Provenance, Source

T = "2026-03-02T10:00:00+00:00"


def outcome(suggestion, result, predicted="It will help", confidence="70%", seconds="3600", at=T):
    return {
        "predicted_result": predicted,
        "predicted_result_confidence": confidence,
        "predicted_result_timeframe_in_seconds": seconds,
        "your_suggestion": suggestion,
        "timestamp": at,
        "result": result,
    }


def part(name, description, triggers, *, conclude_when="When I no longer need to watch for this.", **more):
    return {
        "name": name,
        "description": description,
        "suggestions_and_results": [],
        "core_part": False,
        "needs_evaluation": False,
        "originating_event": {"timestamp": T, "result": "I met this in a conversation"},
        "conclude_when": conclude_when,
        "emotion": "Interest",
        "intensity": "Medium",
        "personality": "Warm and attentive. I speak plainly.",
        "triggers": triggers,
        "phrases": ["Let me think about them."],
        "responses": ["Leaning in"],
        "wants": ["Understand them"],
        **more,
    }


def written(name, description, triggers, outcomes=None):
    w = {
        "name": name,
        "description": description,
        "personality": "Focused. I keep it short.",
        "triggers": triggers,
        "phrases": ["I can help with that."],
        "wants": ["Be useful here"],
    }
    if outcomes is not None:
        w["outcomes"] = outcomes
    return w


def say(chat, *answers):
    chat.enqueue(*(json.dumps(a) for a in answers))


def made_by_ai(c, data):
    return c.parts.create(data, "ai", Provenance(Source.REFLECTION))


@pytest.fixture
def c(companion):
    return companion


def run(c, only):
    return tend(c.soul, c.chat, c.parts, messages=c.messages, name="Anima", only=only)


def test_a_person_part_grows_then_splits_into_two_contextual_aspects(c):
    roly = made_by_ai(
        c,
        part(
            "Roly",
            "I keep track of Roly: where I know them from, what they like and which tone works with them.",
            ["Roly mentions a pull request", "Roly is having a hard week"],
        ),
    )
    # It grows as turns revise it: outcomes from two very different contexts, more triggers.
    c.parts.patch(
        roly,
        [
            {
                "op": "add",
                "path": "/suggestions_and_results/-",
                "value": outcome("Be terse and technical in code review", "Roly merged it and thanked me"),
            },
            {
                "op": "add",
                "path": "/suggestions_and_results/-",
                "value": outcome("Be terse when Roly is upset", "Roly felt brushed off"),
            },
            {
                "op": "add",
                "path": "/suggestions_and_results/-",
                "value": outcome("Ask how Roly is really doing", "Roly opened up about the move"),
            },
            {"op": "add", "path": "/triggers/-", "value": "Roly asks about the build"},
            {"op": "add", "path": "/triggers/-", "value": "Roly sounds tired"},
        ],
        "ai",
    )
    c.messages.record("user", "Roly said the build is broken again, and he sounds exhausted.")
    say(
        c.chat,
        {"action": "split", "why": "I am terse in code review and warm in hard weeks: two contexts pulling apart."},
        {
            "parts": [
                written(
                    "Roly — technical collaboration mode",
                    "I handle Roly at work: reviews, builds and pull requests. I am terse and exact with them.",
                    ["Roly mentions a pull request", "Roly asks about the build"],
                    [0],
                ),
                written(
                    "Roly — emotional rapport mode",
                    "I look after how Roly is doing. I slow down and ask before I advise.",
                    ["Roly is having a hard week", "Roly sounds tired"],
                    [1, 2],
                ),
            ]
        },
    )

    done = run(c, [roly])

    [d] = done.decisions
    assert (d.outcome, d.action, d.tries) == (Outcome.APPLIED, Action.SPLIT, 1)
    parent = c.parts.get(roly)
    assert parent.archived
    assert c.parts.children(roly) == d.made and len(d.made) == 2
    tech, warm = (c.parts.get(i) for i in d.made)
    assert not tech.archived and not warm.archived
    assert tech.lineage == warm.lineage == {"from": [roly], "how": "split"}
    assert [o["result"] for o in tech.data["suggestions_and_results"]] == ["Roly merged it and thanked me"]
    assert [o["result"] for o in warm.data["suggestions_and_results"]] == [
        "Roly felt brushed off",
        "Roly opened up about the move",
    ]
    assert tech.data["originating_event"] == parent.data["originating_event"]  # where it all began is kept
    assert tech.data["emotion"] == parent.data["emotion"]
    # The archived parent no longer bids (it is not among the active parts found) but stays searchable.
    active = [f.part.id for f in c.parts.search("Roly asks about the build")]
    assert active[0] == tech.id and roly not in active
    assert roly in [f.part.id for f in c.parts.search("Roly asks about the build", archived=None)]
    assert roly in [f.part.id for f in c.parts.search("Roly", archived=True)]
    # The model read the part, its outcomes and what was said lately, and was asked for the split after choosing.
    prompt = c.chat.history[0]["messages"][1]["content"]
    assert "Roly felt brushed off" in prompt and "the build is broken again" in prompt
    assert c.chat.history[1]["schema"]["properties"]["parts"]["minItems"] == 2
    assert {e["actor"] for e in c.soul.history("part") if e["item_id"] in (roly, *d.made)} == {"ai"}


def test_a_report_style_preference_stabilises_from_accepted_and_rejected_outputs(c):
    pid = made_by_ai(
        c,
        part(
            "Report Style Preferences (Taylor)",
            "I notice how Taylor wants reports written. I think they might like more detail, or maybe less.",
            ["report", "summary", "rewrite", "draft", "document", "notes"],
            suggestions_and_results=[
                outcome("Write an upbeat overview", "Rejected: too fluffy, Taylor wants specific examples"),
                outcome("Use the word synergy", "Rejected: Taylor asked me to avoid that word"),
                outcome("Lead with three concrete examples", "Accepted: Taylor said this is what I wanted"),
                outcome("Add an inspiring intro", "Rejected: fluff again"),
                outcome("Bullet the numbers with sources", "Accepted without changes"),
            ],
        ),
    )
    before = c.parts.get(pid).data
    # First the noise is noticed, then the log is consolidated into what the outcomes settled.
    say(c.chat, {"action": "evaluate", "why": "Three rejections and two acceptances point the same way."})
    assert run(c, [pid]).decisions[0].action is Action.EVALUATE
    assert c.parts.get(pid).data["needs_evaluation"] is True

    stable = (
        "I know how Taylor wants reports: concrete examples first, numbers with sources, no fluff and never "
        "the word synergy."
    )
    say(
        c.chat,
        {"action": "consolidate", "why": "The outcomes agree: specifics accepted, fluff rejected."},
        {
            "patch": [
                {"op": "replace", "path": "/description", "value": stable},
                {
                    "op": "replace",
                    "path": "/triggers",
                    "value": ["Taylor asks for a report", "Taylor asks for a summary"],
                },
                {
                    "op": "replace",
                    "path": "/suggestions_and_results",
                    "value": [
                        outcome(
                            "Lead with concrete examples and sourced numbers", "Accepted twice", confidence="Certain"
                        ),
                        outcome(
                            "Write upbeat, fluffy prose or say synergy", "Rejected three times", confidence="Certain"
                        ),
                    ],
                },
                {"op": "replace", "path": "/intensity", "value": "Settled"},
                {"op": "replace", "path": "/needs_evaluation", "value": False},
            ]
        },
    )
    done = run(c, [pid])
    assert (done.decisions[0].outcome, done.decisions[0].action) == (Outcome.APPLIED, Action.CONSOLIDATE)
    after = c.parts.get(pid).data
    assert after["description"] == stable and after["needs_evaluation"] is False
    assert len(after["suggestions_and_results"]) == 2 and after["intensity"] == "Settled"
    assert c.soul.history("part", pid)[-1]["actor"] == "ai"

    # Stable now: the next look keeps it as it is.
    say(c.chat, {"action": "keep", "why": "It is clear and decisive."})
    assert run(c, [pid]).decisions[0].action is Action.KEEP
    assert c.parts.get(pid).data == after
    # And the person can undo the consolidation from the edit history.
    c.undo(c.soul.history("part", pid)[-1]["id"])
    assert c.parts.get(pid).data == {**before, "needs_evaluation": True}


def test_a_homework_part_is_archived_when_its_conclude_when_is_met(c):
    pid = made_by_ai(
        c,
        part(
            "Homework: Math Assignment",
            "I pull attention back to the math homework due today.",
            ["math homework", "procrastination", "deadline"],
            conclude_when="When the math assignment is finished.",
        ),
    )
    c.messages.record("user", "Done! I finished my math homework and handed it in.")
    say(c.chat, {"action": "archive", "why": "They said they finished the math homework and handed it in."})
    done = run(c, [pid])
    assert (done.decisions[0].outcome, done.decisions[0].action) == (Outcome.APPLIED, Action.ARCHIVE)
    assert c.parts.get(pid).archived
    assert c.parts.search("math homework deadline") == []  # it no longer bids
    assert [f.part.id for f in c.parts.search("math homework", archived=True)] == [pid]  # past self-state
    prompt = c.chat.history[0]["messages"][1]["content"]
    assert "When the math assignment is finished." in prompt and "I finished my math homework" in prompt


def test_two_parts_that_wake_together_and_say_the_same_thing_merge(c):
    a = made_by_ai(
        c,
        part(
            "Deadline Worry",
            "I worry that Ada misses her deadlines.",
            ["deadline", "due date"],
            suggestions_and_results=[
                outcome("Remind her early", "She finished on time", at="2026-03-01T09:00:00+00:00")
            ],
        ),
    )
    b = made_by_ai(
        c,
        part(
            "Due Date Watcher",
            "I watch Ada's due dates so nothing slips.",
            ["due date", "deadline"],
            suggestions_and_results=[outcome("Make a plan", "She liked the plan", at="2026-02-01T09:00:00+00:00")],
        ),
    )
    say(
        c.chat,
        {"action": "merge", "why": "Both wake on deadlines and both say: remind her early."},
        {
            "with": 1,
            "merged": written(
                "Deadlines", "I keep Ada's deadlines in view and remind her early.", ["deadline", "due date"]
            ),
        },
    )
    done = run(c, [a])
    [d] = done.decisions
    assert (d.outcome, d.action, d.merged_with) == (Outcome.APPLIED, Action.MERGE, b)
    merged = c.parts.get(d.made[0])
    assert merged.lineage == {"from": [a, b], "how": "merge"}
    assert c.parts.get(a).archived and c.parts.get(b).archived
    # Both evidence trails, oldest first; the origin is the older one's.
    assert [o["result"] for o in merged.data["suggestions_and_results"]] == [
        "She liked the plan",
        "She finished on time",
    ]
    assert "Due Date Watcher" in c.chat.history[0]["messages"][1]["content"]


ROLY = part("Roly", "I keep track of Roly and what tone works with them.", ["Roly mentions a pull request"])

BAD = {
    "a split child that speaks as we": (
        {"action": "split", "why": "two contexts"},
        {
            "parts": [
                written("Roly at work", "I handle Roly at work. We keep it short.", ["Roly at work"]),
                written("Roly at home", "I look after Roly at home.", ["Roly at home"]),
            ]
        },
    ),
    "a split into two parts of the same name": (
        {"action": "split", "why": "two contexts"},
        {
            "parts": [
                written("Roly mode", "I handle Roly at work.", ["Roly at work"]),
                written("Roly mode", "I look after Roly at home.", ["Roly at home"]),
            ]
        },
    ),
    "a split into two parts that wake on the same triggers": (
        {"action": "split", "why": "two contexts"},
        {
            "parts": [
                written("Roly at work", "I handle Roly at work.", ["Roly"]),
                written("Roly at home", "I look after Roly at home.", ["Roly"]),
            ]
        },
    ),
    "a patch that rewrites it as we": (
        {"action": "consolidate", "why": "noisy"},
        {"patch": [{"op": "replace", "path": "/description", "value": "I keep track of Roly. We get on."}]},
    ),
    "a patch with a path it does not have": (
        {"action": "consolidate", "why": "noisy"},
        {"patch": [{"op": "remove", "path": "/triggers/0"}, {"op": "remove", "path": "/triggers/0"}]},
    ),
    "a patch that fills a field with the form": (
        {"action": "consolidate", "why": "noisy"},
        {"patch": [{"op": "replace", "path": "/triggers", "value": ["text, at most 120 characters"]}]},
    ),
    "a split child that repeats the form": (
        {"action": "split", "why": "two contexts"},
        {
            "parts": [
                written("Roly at work", "I handle Roly at work.", ["a list of at most 4 short strings"]),
                written("Roly at home", "I look after Roly at home.", ["Roly at home"]),
            ]
        },
    ),
    "a merge with no part to merge with": ({"action": "merge", "why": "same"},),
}


@pytest.mark.parametrize("answers", BAD.values(), ids=BAD.keys())
def test_a_bad_hygiene_answer_is_refused_asked_again_and_the_part_left_as_it_was(c, answers, caplog):
    pid = made_by_ai(c, ROLY)
    before = c.parts.get(pid)
    edits = len(c.soul.history())
    for _ in range(3):  # the first answer and both retries are bad alike
        say(c.chat, *answers)
    with caplog.at_level(logging.INFO):
        done = run(c, [pid])
    [d] = done.decisions
    assert (d.outcome, d.tries, len(d.refusals)) == (Outcome.REFUSED, 3, 3)
    assert c.parts.get(pid) == before
    assert [p.id for p in c.parts.all(None)] == [pid] and len(c.soul.history()) == edits
    # Each retry tells the model why, and the log names the part, never its words.
    assert any("That was refused" in m["content"] for m in c.chat.history[-1]["messages"])
    assert any(f"#{pid}" in r.getMessage() for r in caplog.records)
    assert not any("keep track of Roly" in r.getMessage() for r in caplog.records)


def test_a_refused_answer_then_a_valid_one_is_applied_on_the_retry(c):
    pid = made_by_ai(c, ROLY)
    say(c.chat, *BAD["a split child that speaks as we"], {"action": "keep", "why": "Actually it is fine."})
    [d] = run(c, [pid]).decisions
    assert (d.outcome, d.action, d.tries) == (Outcome.APPLIED, Action.KEEP, 2)
    assert 'speaks as "I"' in d.refusals[0]


def test_an_answer_that_never_matches_the_schema_leaves_the_part_alone(c):
    pid = made_by_ai(c, ROLY)
    before = c.parts.get(pid)
    c.chat.enqueue("I think we should split it", '{"action": "explode"}', "{}")
    [d] = run(c, [pid]).decisions
    assert d.outcome is Outcome.MALFORMED and c.parts.get(pid) == before


def test_a_turn_preempts_hygiene_and_nothing_is_written(c):
    pid = made_by_ai(c, ROLY)
    before = c.parts.get(pid)
    cancel = threading.Event()
    cancel.set()
    say(c.chat, {"action": "archive", "why": "done"})
    done = tend(c.soul, c.chat, c.parts, only=[pid], cancel=cancel)
    assert done.preempted and c.parts.get(pid) == before


def test_only_parts_that_changed_or_were_talked_past_are_due_and_core_parts_never(c):
    core = c.parts.create({**ROLY, "name": "Core", "core_part": True}, "user", Provenance(Source.APP))
    pid = made_by_ai(c, ROLY)
    hygiene = Hygiene(c.soul, c.chat, c.parts, messages=c.messages)
    assert [p.id for p in hygiene.due()] == [pid]
    say(c.chat, {"action": "keep", "why": "fine"})
    assert [d.part_id for d in hygiene.run().decisions] == [pid]
    assert hygiene.due() == [] and c.soul.get_meta(TENDED)
    c.parts.patch(pid, [{"op": "add", "path": "/wants/-", "value": "Hear from Roly"}], "ai")
    assert [p.id for p in hygiene.due()] == [pid]  # it changed
    say(c.chat, {"action": "keep", "why": "fine"})
    hygiene.run()
    c.messages.record("user", "Roly is coming over tonight.")
    assert [p.id for p in hygiene.due()] == [pid]  # something was said since
    assert core not in [p.id for p in hygiene.due()]


def test_the_consolidation_a_model_can_write_names_only_the_parts_own_paths():
    """The grammar a consolidation is written in offers what consolidating this part takes, on its own fields and
    items, each with a value of its shape: no runtime field, no core_part, no item it does not have, no move, no
    root, no field consolidation does not rewrite."""
    import jsonschema
    from llama_cpp import LlamaGrammar

    from anima.parts.parts import Part
    from anima.reflect.hygiene import outcomes_shown, patch_schema

    p = Part(1, {**ROLY, "suggestions_and_results": [outcome(f"Try {i}", "Accepted") for i in range(10)]}, False, T, T)
    wanted = patch_schema(p, outcomes_shown(p))
    LlamaGrammar.from_json_schema(json.dumps(wanted), verbose=False)  # llama.cpp takes it
    good = [
        {"op": "replace", "path": "/description", "value": "I keep track of Roly's reviews."},
        {"op": "replace", "path": "/triggers", "value": ["Roly asks for a review"]},
        {"op": "remove", "path": "/triggers/0"},
        {"op": "remove", "path": "/suggestions_and_results/9"},
        {"op": "replace", "path": "/suggestions_and_results/2/result", "value": "Accepted, twice"},
        {"op": "replace", "path": "/needs_evaluation", "value": False},
    ]
    jsonschema.validate({"patch": good}, wanted)
    for bad in (
        {"op": "add", "path": "/lineage", "value": "x"},
        {"op": "replace", "path": "/core_part", "value": True},
        {"op": "remove", "path": "/triggers/1"},  # it has one trigger
        {"op": "replace", "path": "/personality", "value": "Blunt."},
        {"op": "replace", "path": "/description", "value": "She keeps track of Roly."},
        {"op": "remove", "path": "/suggestions_and_results/0"},  # not among the outcomes it was shown
        {"op": "move", "from": "/triggers/0", "path": "/wants/-"},
        {"op": "replace", "path": "", "value": "x"},
        {"op": "replace", "path": "/triggers", "value": "Roly"},
        {"op": "replace", "path": "/needs_evaluation", "value": "no"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"patch": [bad]}, wanted)


def test_a_consolidation_names_items_as_the_part_was_shown(c):
    """The model removes the second and the fourth trigger as it read them, lowest first; RFC 6902 alone would
    find no fourth trigger left after the first removal."""
    from anima.errors import InvalidEdit
    from anima.reflect.hygiene import consolidate

    pid = made_by_ai(
        c,
        part(
            "Cues",
            "I notice the cues that matter to Ada.",
            ["one", "two", "three", "four"],
            suggestions_and_results=[outcome(f"Try {i}", "Accepted") for i in range(3)],
        ),
    )
    p = consolidate(
        c.parts,
        pid,
        [
            {"op": "remove", "path": "/triggers/1"},
            {"op": "remove", "path": "/triggers/3"},
            {"op": "remove", "path": "/suggestions_and_results/0"},
            {"op": "replace", "path": "/suggestions_and_results/2/result", "value": "Accepted twice, then ignored"},
        ],
    )
    assert p.data["triggers"] == ["one", "three"]
    assert [o["your_suggestion"] for o in p.data["suggestions_and_results"]] == ["Try 1", "Try 2"]
    assert p.data["suggestions_and_results"][1]["result"] == "Accepted twice, then ignored"
    # Highest first, as RFC 6902 reads it, is the same patch.
    p = consolidate(c.parts, pid, [{"op": "remove", "path": "/triggers/1"}, {"op": "remove", "path": "/triggers/0"}])
    assert p.data["triggers"] == []
    # An item named after an operation removed it: refused, the part as it was.
    pid = made_by_ai(c, part("Cues again", "I notice other cues.", ["a", "b", "c"]))
    with pytest.raises(InvalidEdit, match="names an item an earlier operation removed"):
        consolidate(
            c.parts,
            pid,
            [{"op": "remove", "path": "/triggers/1"}, {"op": "replace", "path": "/triggers/1", "value": "bee"}],
        )
    assert c.parts.get(pid).data["triggers"] == ["a", "b", "c"]
