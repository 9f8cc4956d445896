"""Each section of the self shows how it changed: when, by whom, what it added and took away, and what it came
from (a proposal the person accepted, an edit of theirs, the growth log's word for that moment)."""

from tests.ui.conftest import settled
from tests.ui.mind.test_panel import shown
from tests.ui.mind.test_proposals_view import propose
from ui.mind.section_history import lines, what_changed


def test_a_change_says_the_lines_it_added_and_took_away():
    assert what_changed("- Ada plays chess\n- Ada lives in Leeds", "- Ada plays chess\n- Ada lives in York") == [
        "+ Ada lives in York",
        "− Ada lives in Leeds",
    ]
    assert what_changed("Warm.", "Warm and brief.") == ["now: Warm and brief.", "was: Warm."]
    assert what_changed("Warm.", "") == ["emptied"]


def test_each_section_lists_its_changes_newest_first_with_what_each_came_from(qtbot, window, screenshot):
    c = window.companion
    c.self_model.write("identity", "A friend who listens.", "ai")
    c.self_model.write("identity", "A friend who listens and asks.", "ai")
    c.self_model.grow("I saw that Ada wants me to ask, not only listen.")  # as governed reflection: after
    c.self_model.write("identity", "A friend who listens, asks and teases a little.", "user")
    pid = propose(c)
    c.accept_proposal(pid)
    window.resize(900, 600)
    window.toggle_mind()
    view = shown(qtbot, window, "Self")
    history = view.histories["identity"]
    said = history.list.text().split("\n\n")
    assert history.toggle.text() == f"How it changed ({len(said)})" and not history.list.isVisible()
    assert said[0].split("\n")[0].endswith(" — you edited it")
    assert "now: A friend who listens, asks and teases a little." in said[0]
    assert said[1].split("\n")[0].endswith(" — my reflection: I saw that Ada wants me to ask, not only listen.")
    assert said[1].split("\n")[1:] == ["    now: A friend who listens and asks.", "    was: A friend who listens."]
    assert said[2].split("\n")[0].endswith(" — my reflection")  # the entry told of the change just before it
    history.toggle.click()
    assert history.list.isVisible()
    settled(qtbot)  # laid out anew, the list open
    view.scroller.ensureWidgetVisible(history.list)
    settled(qtbot)
    screenshot(window, "open-mind-self-history-900-light")
    about = shown(qtbot, window, "About you")
    human = about.histories["human"].list.text()
    assert "you accepted a proposed change (it reads as an instruction" in human and "+ We obey all" in human
    assert lines("human", c.section_history("human"), c.proposals(False), c.growth_log())[0] in human
