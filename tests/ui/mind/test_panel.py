"""The Open Mind as one place to read a mind, on a real encrypted soul: one list of every kind and one pane beside
it, every kind reachable from the list, readable at 900x600 (no horizontal scrollbar, the list and the pane both
in sight), and looked at in screenshots at 900x600 and 1400x900."""

import pytest
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea

from tests.reflect.test_hygiene import part
from tests.ui.conftest import settled
from tests.ui.mind.test_inner_life import said
from tests.ui.mind.test_proposals_view import propose
from ui import theme
from ui.mind import VIEWS

LISTED = [
    "Self",
    "About you",
    "Memories",
    "World",
    "Parts",
    "Predictions",
    "Episodes",
    "Rules",
    "Feelings",
    "Working memory",
    "Growth",
    "Waiting for you",
    "History of edits",
    "Conversation",
    "What I care about",
]


def lived(c) -> None:
    """A soul some weeks old: something of every kind the screenshots show."""
    c.self_model.write("persona", "Warm, direct and brief. I say when I do not know.", "user")
    c.self_model.write("human", "- Ada is a night nurse in Leeds\n- Ada has a grey cat called Miso", "user")
    c.self_model.write(
        "human", "- Ada is a night nurse in Leeds\n- Ada has a grey cat called Miso\n- Ada plays chess", "ai"
    )
    for text in (
        "Ada's cat is called Miso and sleeps on the piano",
        "Ada prefers short answers late at night",
        "Ada's sister Bea moved to Lyon in the spring, and Ada misses her more than she says",
        "Ada is learning the Sicilian defence",
    ):
        c.memories.remember(text)
    c.world.create("person", "Bea", "Ada's sister, in Lyon now; they talk on Sundays.")
    c.world.create("place", "St James's", "The hospital in Leeds where Ada works nights on ward 12.")
    ids = said(c, "I start on the new ward on Monday.", "That is a big step.", "Stop the pep talks.", "Noted.")
    episode = c.episodes.record("Ada starts on a new ward", ids, emotional_arc="nervous -> hopeful", significance=0.8)
    c.self_model.grow("I learned to keep it short when Ada is tired.", [("episode", episode)])
    c.self_model.grow("I stopped cheering Ada on when she asked for plain facts.", [("message", ids[2])])
    c.rules.learn("Skip the pep talk; give Ada the plain facts", ids[2])
    from anima.store.provenance import Provenance, Source

    c.parts.create(
        part(
            "The Night Watch", "I notice when Ada is exhausted and keep things gentle.", ["Ada mentions a night shift"]
        ),
        "ai",
        Provenance(Source.REFLECTION),
    )
    propose(c)


def shown(qtbot, window, title: str):
    view = window.mind.open_view(title)
    view.loaded = False
    view.refresh()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    settled(qtbot)
    return view


def scrolls_sideways(widget) -> list[str]:
    """Every scroll area in sight inside `widget` that shows a horizontal scrollbar, or whose content is wider than
    it (cut off on the right, where the scrollbar is turned off)."""
    wide = []
    for a in widget.findChildren(QAbstractScrollArea):
        if not a.isVisibleTo(widget):
            continue
        inner = a.widget() if isinstance(a, QScrollArea) else None
        if a.horizontalScrollBar().isVisible() or (
            inner is not None and inner.minimumSizeHint().width() > a.viewport().width()
        ):
            wide.append(f"{type(a).__name__} {a.objectName()!r}")
    return wide


def test_every_kind_is_one_entry_of_one_list_and_opens_in_the_one_pane(qtbot, window):
    window.toggle_mind()
    panel = window.mind
    assert [panel.nav.item(i).text() for i in range(panel.nav.count())] == LISTED
    assert [cls.title for cls in VIEWS] == LISTED
    for row, title in enumerate(LISTED):
        panel.nav.setCurrentRow(row)  # as a click on it does
        assert panel.current() is panel.views[title] and panel.current().isVisible()
        qtbot.waitUntil(lambda: panel.current().loaded, timeout=10_000)


def cut_entries(nav) -> list[str]:
    """The entries of the list whose text does not fit the width it is given (drawn with an ellipsis)."""
    room = nav.viewport().width() - 2 * nav.spacing()
    metrics = nav.fontMetrics()
    return [
        nav.item(i).text()
        for i in range(nav.count())
        if metrics.horizontalAdvance(nav.item(i).text()) + 12 > room  # the item's own margins
    ]


def test_no_entry_of_the_list_is_cut_with_what_waits_counted_and_the_type_made_larger(qtbot, window):
    propose(window.companion)
    window.resize(900, 600)
    window.toggle_mind()
    panel = window.mind
    panel.note_pending(12)
    assert cut_entries(panel.nav) == []
    narrow = panel.nav.width()
    looks = theme.looks()
    looks.zoomed(3)  # as View > Zoom in does, three times
    try:
        settled(qtbot)
        assert cut_entries(panel.nav) == [] and panel.nav.width() > narrow
    finally:
        looks.zoomed(0)


@pytest.mark.parametrize("size", [(900, 600), (1400, 900)])
def test_the_open_mind_is_readable_and_looked_at_at_each_size(qtbot, window, screenshot, size):
    lived(window.companion)
    window.resize(*size)
    window.toggle_mind()
    panel = window.mind
    for title in LISTED:
        view = shown(qtbot, window, title)
        assert panel.nav.isVisible() and view.isVisible()
        assert panel.nav.width() >= 100 and view.width() >= 250, (title, panel.nav.width(), view.width())
        assert cut_entries(panel.nav) == [], title
        assert view.geometry().right() <= panel.width(), title
        assert scrolls_sideways(panel) == [], title
        kind = title.lower().replace(" ", "-").split("-(")[0]  # "Waiting for you (2)": waiting-for-you
        screenshot(window, f"open-mind-{kind}-{size[0]}")  # as issue 40 names them, every kind
