"""Each kind says, while the soul holds none of it, what it is and what makes one appear; where deep reflection
makes them, a button runs it now, and what it made is shown."""

import pytest
from PySide6.QtCore import Qt

from tests.ui.mind.test_inner_life import said
from tests.ui.mind.test_panel import shown

# Each kind that can be empty on a new soul, and words its empty state must say.
SAYS = {
    "Memories": "Memories appear as we talk",
    "World": "A world card appears when you add one",
    "Parts": "A part is born when a moment touches what I value",
    "Predictions": "Predictions appear when a part bids",
    "Episodes": "Episodes come from deep reflection",
    "Rules": "Rules come from your corrections, after deep reflection.",
    "Feelings": "Feelings are noticed after a turn",
    "Working memory": "Working memory fills as we talk",
    "Growth": "Growth comes from deep reflection",
    "Waiting for you": "A change waits here when it did not come from your own words",
    "History of edits": "An edit appears here each time you or I change something",
}
REFLECTS = {"Episodes", "Rules", "Growth"}


def test_each_empty_kind_says_what_it_is_and_what_makes_one_appear(qtbot, window, screenshot):
    window.resize(900, 600)
    window.toggle_mind()
    for title, words in SAYS.items():
        view = shown(qtbot, window, title)
        assert view.is_empty, title
        empty = view.empty
        assert empty.isVisible() and f"No {title.lower()} yet" in empty.text(), title
        assert words in empty.text() and view.about in empty.text(), title
        assert (empty.button is not None) == (title in REFLECTS), title
        if title in ("Rules", "Memories"):
            screenshot(window, f"open-mind-{title.lower()}-empty-900-light")


@pytest.mark.parametrize("title", sorted(REFLECTS))
def test_reflect_deeply_now_runs_deep_reflection_and_shows_what_it_made(qtbot, window, monkeypatch, title):
    c = window.companion
    ran = []

    def deepen():  # what deep reflection would make of one conversation (the fake model writes nothing)
        ran.append(True)
        ids = said(c, "Please stop the pep talks.", "Understood.")
        episode = c.episodes.record("Ada asked for plain facts", ids, emotional_arc="tired", significance=0.6)
        c.rules.learn("Skip the pep talk", ids[0])
        c.self_model.grow("I learned to skip the pep talk.", [("episode", episode)])

    monkeypatch.setattr(c, "reflect_deeply", deepen)
    window.toggle_mind()
    view = shown(qtbot, window, title)
    assert view.is_empty
    qtbot.mouseClick(view.empty.button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ran) and not view.is_empty, timeout=10_000)
    assert view.empty.isHidden() or not view.empty.isVisible()


def test_deep_reflection_that_makes_nothing_says_so(qtbot, window, monkeypatch):
    monkeypatch.setattr(window.companion, "reflect_deeply", lambda: None)
    window.toggle_mind()
    view = shown(qtbot, window, "Episodes")
    view.empty.button.click()
    qtbot.waitUntil(lambda: view.empty.note.isVisible(), timeout=10_000)
    assert "found nothing" in view.empty.note.text() and view.is_empty
