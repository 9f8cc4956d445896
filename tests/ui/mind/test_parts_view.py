"""The Open Mind's parts and predictions on a real encrypted soul: active and archived parts with their outcomes,
recent bids, JSON, lineage and edits; an edit of the JSON checked like any patch (one that breaks the schema is
refused with a clear message and nothing changes); archiving; predictions pending, due and evaluated; the affect
profile edited, a bad edit refused with the old profile kept; and the bids a reply weighed in its "Why?"."""

import json
from datetime import UTC, datetime, timedelta

from PySide6.QtCore import Qt

from anima.parts.bids import Bid, Weighed
from anima.store.provenance import Provenance, Source
from tests.reflect.test_hygiene import outcome, part
from tests.ui.conftest import send

from .test_inner_life import cells, open_view, reload


def made(c, data, **lineage):
    return c.parts.create(data, "ai", Provenance(Source.REFLECTION), **lineage)


def roly_split(c):
    roly = made(
        c,
        part(
            "Roly",
            "I keep track of Roly and what tone works with them.",
            ["Roly mentions a pull request", "Roly is having a hard week"],
            suggestions_and_results=[outcome("Be terse in code review", "Roly merged it and thanked me")],
        ),
    )
    tech = made(
        c,
        part("Roly at work", "I handle Roly at work: reviews and builds.", ["Roly mentions a pull request"]),
        parents=[roly],
        how="split",
    )
    warm = made(
        c,
        part("Roly in hard weeks", "I look after how Roly is doing.", ["Roly is having a hard week"]),
        parents=[roly],
        how="split",
    )
    c.parts.set_archived(roly, True, "ai")
    return roly, tech, warm


def test_parts_show_active_and_archived_with_outcomes_json_lineage_and_edits(qtbot, window, screenshot):
    c = window.companion
    roly, tech, warm = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    assert cells(view.table, 0) == [f"#{tech}", f"#{warm}", f"#{roly}"]  # active first, then archived
    assert cells(view.table, 2) == ["active", "active", "archived"]
    assert cells(view.table, 3) == [f"split from #{roly}", f"split from #{roly}", f"became #{tech}, #{warm}"]
    view.select(roly)
    assert "Roly merged it and thanked me" in view.outcomes.item(0).text()
    assert json.loads(view.json.toPlainText()) == c.parts.get(roly).data
    assert view.archive_button.text() == "Make active"
    assert view.edits.count() == 2 and "I changed it" in view.edits.item(0).text()  # archived, then created
    view.show_json.setChecked(True)
    screenshot(window, "open-mind-parts")


def test_a_json_edit_is_stored_and_one_that_breaks_the_schema_is_refused_and_nothing_changes(qtbot, window):
    c = window.companion
    _roly, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    data = json.loads(view.json.toPlainText())
    data["wants"].append("Keep reviews short")
    view.json.setPlainText(json.dumps(data))
    view.loaded = False
    view.save()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)  # stored, and shown as stored
    assert "Keep reviews short" in c.parts.get(tech).data["wants"]
    assert c.soul.history("part", tech)[-1]["actor"] == "user"

    before = c.parts.get(tech)
    for broken, says in (
        (json.dumps({**data, "triggers": "Roly"}), "breaks the part schema at /triggers"),
        (json.dumps({**data, "description": "We handle Roly at work."}), 'speaks as "I"'),
        (json.dumps({**data, "lineage": {}}), "only the runtime keeps"),
        ('{"name": "Roly at work",', "that is not JSON"),
        ("[]", "a part is a JSON object"),
    ):
        view.json.setPlainText(broken)
        view.loaded = False
        view.save()
        qtbot.waitUntil(lambda says=says: view.error.isVisible() and says in view.error.text(), timeout=10_000)
        qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
        assert c.parts.get(tech) == before, broken
        assert view.json.toPlainText() == broken  # the person's text stays, to be fixed
        view.say("")
    assert len(c.soul.history("part", tech)) == 2


def test_a_part_is_archived_and_made_active_again_from_the_view(qtbot, window):
    c = window.companion
    _roly, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    view.toggle_archived()
    qtbot.waitUntil(lambda: c.parts.get(tech).archived and view.selected().part.archived, timeout=10_000)
    assert view.archive_button.text() == "Make active"
    view.toggle_archived()
    qtbot.waitUntil(lambda: not view.selected().part.archived, timeout=10_000)  # stored, and shown again
    assert not c.parts.get(tech).archived
    assert c.soul.history("part", tech)[-1]["actor"] == "user"


def test_predictions_are_shown_pending_due_and_evaluated(qtbot, window, screenshot):
    c = window.companion
    pid = made(c, part("Homework: Math Assignment", "I pull attention back to the math homework.", ["homework"]))
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def predicted(suggestion, due, result=None):
        made_at = now - timedelta(hours=2)
        return c.soul.add(
            "prediction",
            "ai",
            part_id=pid,
            suggestion=suggestion,
            predicted_result="Ada finishes",
            confidence="Likely",
            timeframe_s=int((due - made_at).total_seconds()),
            made_at=made_at.isoformat(),
            due_at=due.isoformat(),
            result=result,
            evaluated_at=None if result is None else now.isoformat(),
        )

    predicted("Do 20 minutes now", now + timedelta(hours=1))
    predicted("Start with question 1", now - timedelta(minutes=5))
    predicted("Take a break first", now - timedelta(hours=1), result="She finished after the break")
    view = window.mind.views["Predictions"]
    view.clock = lambda: now
    view = open_view(qtbot, window, "Predictions")
    assert cells(view.table, 0) == ["due", "pending", "evaluated"]
    assert cells(view.table, 2) == ["Start with question 1", "Do 20 minutes now", "Take a break first"]
    assert cells(view.table, 6)[2] == "She finished after the break"
    assert cells(view.table, 1)[0] == f"#{pid} Homework: Math Assignment"
    assert view.counts.text() == "1 pending, 1 due, 1 evaluated"
    screenshot(window, "open-mind-predictions")
    view.state.setCurrentText("due")
    assert cells(view.table, 2) == ["Start with question 1"]
    # Time moves: the pending one falls due.
    view.clock = lambda: now + timedelta(hours=2)
    view.state.setCurrentText("all")
    reload(qtbot, view)
    assert cells(view.table, 0) == ["due", "due", "evaluated"]


def weighed_by(c, reply_id, pid, name, followed):
    """What the parts bid on one message, as a turn records it: a bid each, the first followed or not."""
    bids = [
        Bid(pid, name, "the math homework", "Do 20 minutes now", "Ada finishes question 1", "70%", 5400),
        Bid(pid, name, "a break", "Rest first", "Ada comes back fresher", "40%", 600),
    ]
    c.bidding.record(reply_id, [(Weighed("homework again", bids, [0] if followed else []), None)])


def test_a_parts_recent_bids_say_what_it_proposed_when_and_whether_it_was_followed(qtbot, window, screenshot):
    c = window.companion
    pid = made(c, part("Homework Focus", "I pull attention back to the math homework.", ["homework"]))
    quiet = made(c, part("Garden", "I look after the garden.", ["garden"]))
    first = c.messages.record("companion", "Shall we start with question 1?")
    weighed_by(c, first, pid, "Homework Focus", followed=True)
    later = c.messages.record("companion", "A short break, then.")
    weighed_by(c, later, pid, "Homework Focus", followed=False)
    view = open_view(qtbot, window, "Parts")
    view.select(pid)
    said = [view.bids.item(i).text() for i in range(view.bids.count())]
    assert len(said) == 4  # newest first: the later message's two, neither followed; then the first's
    assert "(not followed): I wanted the focus on the math homework; I suggested: Do 20 minutes now" in said[1]
    assert (
        "(followed): I wanted the focus on the math homework" in said[3] and "(70% sure, within 90 minutes)" in said[3]
    )
    assert said[3][:4].isdigit()  # when it bid
    screenshot(window, "open-mind-part-bids")
    view.select(quiet)
    assert view.bids.item(0).text().startswith("No bids yet")


def test_the_why_of_a_reply_shows_the_bids_it_weighed_and_which_were_followed(qtbot, window, monkeypatch, screenshot):
    from ui.chat.why import WhyDialog

    c = window.companion
    c.chat.enqueue("Let us start with question 1.")
    reply = send(qtbot, window, "where do I start?")
    pid = made(c, part("Homework Focus", "I pull attention back to the math homework.", ["homework"]))
    weighed_by(c, reply.message_id, pid, "Homework Focus", followed=True)
    shown = []
    monkeypatch.setattr(WhyDialog, "exec", lambda self: shown.append(self) or 0)
    qtbot.mouseClick(reply.why, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    tree = shown[0].bids
    rows = [[tree.topLevelItem(i).text(j) for j in range(7)] for i in range(tree.topLevelItemCount())]
    assert rows == [
        [
            "Homework Focus",
            "yes",
            "the math homework",
            "Do 20 minutes now",
            "Ada finishes question 1",
            "70%",
            "90 minutes",
        ],
        ["Homework Focus", "no", "a break", "Rest first", "Ada comes back fresher", "40%", "10 minutes"],
    ]
    shown[0].show()
    screenshot(shown[0], "why-this-reply-bids")


def test_a_reply_no_part_bid_on_says_so_in_its_why(qtbot, window):
    from ui.chat.why import WhyDialog

    dialog = WhyDialog([], {}, window, bids=[])
    qtbot.addWidget(dialog)
    assert dialog.bids.topLevelItemCount() == 0 and not dialog.bids.isVisibleTo(dialog)


def test_the_affect_profile_is_edited_in_the_window_and_a_bad_edit_keeps_the_old_one(qtbot, window, screenshot):
    c = window.companion
    c.affect.set({"values": ["being reliable"], "fears": ["letting Ada down"], "seeks": ["things finished"]})
    view = open_view(qtbot, window, "What I care about")
    assert view.boxes["fears"].toPlainText() == "letting Ada down"
    view.boxes["values"].setPlainText("being reliable\n\nAda's trust\n")
    view.save()
    qtbot.waitUntil(lambda: c.affect.profile()["values"] == ["being reliable", "Ada's trust"], timeout=10_000)
    assert c.affect.profile()["fears"] == ["letting Ada down"]
    screenshot(window, "open-mind-affect")

    kept = c.affect.profile()
    for broken, says in (("x" * 200, "maxLength fails"), ("my PIN is 4921", "secrets are never kept")):
        view.boxes["seeks"].setPlainText(broken)
        view.loaded = False
        view.save()
        qtbot.waitUntil(lambda says=says: view.error.isVisible() and says in view.error.text(), timeout=10_000)
        qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
        assert "the old profile is kept" in view.error.text()
        assert c.affect.profile() == kept
        assert view.boxes["seeks"].toPlainText() == broken  # the person's text stays, to be fixed
    view.revert()
    assert view.boxes["seeks"].toPlainText() == "things finished" and not view.error.isVisible()


def test_json_that_cannot_be_kept_is_refused_in_the_view_and_nothing_changes(qtbot, window):
    c = window.companion
    _roly, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    before = c.parts.get(tech)
    shown = view.json.toPlainText()
    for broken, says in (
        ('{"name": ' + "9" * 5000 + "}", "a number too long to read"),
        ("[" * 5000 + "]" * 5000, "nests more than 64 levels deep"),
        (shown.replace('"name": "', '"name": "\\ud800', 1), "half of a surrogate pair"),
        (shown.replace('"name": "', '"name": "\\u001b[2J', 1), "control or invisible character"),
    ):
        view.json.setPlainText(broken)
        view.loaded = False
        view.save()
        qtbot.waitUntil(lambda says=says: view.error.isVisible() and says in view.error.text(), timeout=10_000)
        qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
        assert view.error.text().startswith(f"Part #{tech} was not changed: ")
        assert c.parts.get(tech) == before and view.json.toPlainText() == broken
        view.say("")


def test_a_json_save_over_a_change_made_since_it_was_shown_is_refused_and_revert_shows_the_part_now(qtbot, window):
    c = window.companion
    _roly, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    data = json.loads(view.json.toPlainText())
    c.parts.patch(tech, [{"op": "add", "path": "/triggers/-", "value": "Roly sighs at a long review"}], "ai")
    view.json.setPlainText(json.dumps({**data, "intensity": "Low"}))  # the person's change, in the text shown
    view.loaded = False
    view.save()
    qtbot.waitUntil(lambda: "changed since it was shown" in view.error.text(), timeout=10_000)
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    now = c.parts.get(tech).data
    assert "Roly sighs at a long review" in now["triggers"] and now["intensity"] != "Low"  # the AI's change stays
    view.loaded = False
    view.revert()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert json.loads(view.json.toPlainText()) == now and not view.error.isVisible()
    view.json.setPlainText(json.dumps({**now, "intensity": "Low"}))
    view.save()
    qtbot.waitUntil(lambda: c.parts.get(tech).data == {**now, "intensity": "Low"}, timeout=10_000)


def test_json_typed_and_not_saved_outlives_a_reload(qtbot, window):
    """A reply ending, or a forget in another program, reloads the open view: the JSON the person was typing
    stays in the editor, and saving it is checked against the part as they began from it. Revert lets it go."""
    c = window.companion
    _, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    typed = view.json.toPlainText().replace(
        '"Roly mentions a pull request"', '"Roly mentions a pull request", "Roly asks for a review"'
    )
    view.json.setPlainText(typed)
    reload(qtbot, view)
    assert view.json.toPlainText() == typed
    view.save()
    qtbot.waitUntil(lambda: "Roly asks for a review" in c.parts.get(tech).data["triggers"], timeout=10_000)
    view.json.setPlainText(typed.replace("Roly asks for a review", "Roly asks twice"))
    view.loaded = False
    view.revert()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert json.loads(view.json.toPlainText()) == c.parts.get(tech).data


def test_affect_lines_typed_and_not_saved_outlive_a_reload(qtbot, window):
    c = window.companion
    c.affect.set({"values": ["being reliable"], "fears": [], "seeks": []})
    view = open_view(qtbot, window, "What I care about")
    view.boxes["values"].setPlainText("being reliable\nAda's trust")
    reload(qtbot, view)  # as a reply ending does
    assert view.boxes["values"].toPlainText() == "being reliable\nAda's trust"
    view.revert()
    assert view.boxes["values"].toPlainText() == "being reliable"
