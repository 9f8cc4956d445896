"""The Open Mind's parts and predictions on a real encrypted soul: active and archived parts with their outcomes,
JSON, lineage and edits; an edit of the JSON checked like any patch (one that breaks the schema is refused with a
clear message and nothing changes); archiving; predictions pending, due and evaluated."""

import json
from datetime import datetime, timedelta, timezone

from anima.store.provenance import Provenance, Source
from tests.reflect.test_hygiene import outcome, part

from .test_inner_life import cells, open_view, reload


def made(c, data, **lineage):
    return c.parts.create(data, "ai", Provenance(Source.REFLECTION), **lineage)


def roly_split(c):
    roly = made(c, part("Roly", "I keep track of Roly and what tone works with them.",
                        ["Roly mentions a pull request", "Roly is having a hard week"],
                        suggestions_and_results=[outcome("Be terse in code review", "Roly merged it and thanked me")]))
    tech = made(c, part("Roly at work", "I handle Roly at work: reviews and builds.", ["Roly mentions a pull request"]),
                parents=[roly], how="split")
    warm = made(c, part("Roly in hard weeks", "I look after how Roly is doing.", ["Roly is having a hard week"]),
                parents=[roly], how="split")
    c.parts.set_archived(roly, True, "ai")
    return roly, tech, warm


def test_parts_and_predictions_share_one_tab_and_the_panel_fits_the_window(qtbot, window, screenshot):
    window.toggle_mind()
    panel = window.mind
    selector = panel.parts.selector
    assert [selector.itemText(i) for i in range(selector.count())] == ["Parts", "Predictions"]
    assert panel.tabText(panel.indexOf(panel.parts)) == "Parts"
    qtbot.wait(50)
    assert window.width() <= 1100 and window.mind.width() < window.width()


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
    assert view.edits.count() == 2 and "I: update" in view.edits.item(0).text()  # archived, then created
    view.details.setCurrentIndex(1)
    screenshot(window, "open-mind-parts")


def test_a_json_edit_is_stored_and_one_that_breaks_the_schema_is_refused_and_nothing_changes(qtbot, window):
    c = window.companion
    roly, tech, _ = roly_split(c)
    view = open_view(qtbot, window, "Parts")
    view.select(tech)
    data = json.loads(view.json.toPlainText())
    data["wants"].append("Keep reviews short")
    view.json.setPlainText(json.dumps(data))
    view.save()
    qtbot.waitUntil(lambda: "Keep reviews short" in c.parts.get(tech).data["wants"], timeout=10_000)
    assert c.soul.history("part", tech)[-1]["actor"] == "user"

    before = c.parts.get(tech)
    for broken, says in ((json.dumps({**data, "triggers": "Roly"}), "breaks the part schema at /triggers"),
                         (json.dumps({**data, "description": "We handle Roly at work."}), 'speaks as "I"'),
                         (json.dumps({**data, "lineage": {}}), "only the runtime keeps"),
                         ('{"name": "Roly at work",', "that is not JSON"),
                         ("[]", "a part is a JSON object")):
        view.json.setPlainText(broken)
        view.loaded = False
        view.save()
        qtbot.waitUntil(lambda: view.error.isVisible() and says in view.error.text(), timeout=10_000)
        qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
        assert c.parts.get(tech) == before, broken
        assert view.json.toPlainText() == broken  # the person's text stays, to be fixed
        view.say("")
    assert len(c.soul.history("part", tech)) == 2


def test_a_part_is_archived_and_made_active_again_from_the_view(qtbot, window):
    c = window.companion
    roly, tech, _ = roly_split(c)
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
    now = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)

    def predicted(suggestion, due, result=None):
        made_at = now - timedelta(hours=2)
        return c.soul.add("prediction", "ai", part_id=pid, suggestion=suggestion, predicted_result="Ada finishes",
                          confidence="Likely", timeframe_s=int((due - made_at).total_seconds()),
                          made_at=made_at.isoformat(), due_at=due.isoformat(), result=result,
                          evaluated_at=None if result is None else now.isoformat())
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
