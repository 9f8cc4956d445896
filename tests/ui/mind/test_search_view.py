"""Search across the whole mind from the Open Mind (Ctrl+Shift+F), on a real encrypted soul: every kind at once,
grouped by kind; a result opens the item in its view, and a message in the conversation."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from anima.companion import Companion
from anima.models.embedder import MiniLMEmbedder
from anima.models.fake import FakeChatModel
from anima.settings import Settings
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.ui.conftest import send
from ui.mind.search_view import FOUND, HOW, heading


def searched(qtbot, window, words: str):
    """Type into the Open Mind's search and press Enter, as a person would; the results once shown."""
    panel = window.mind
    panel.search.clear()
    qtbot.keyClicks(panel.search, words)
    qtbot.keyClick(panel.search, Qt.Key_Return)
    results = panel.results
    qtbot.waitUntil(lambda: results.searched and results.words == words, timeout=30_000)
    return results


def open_result(qtbot, results, kind: str, item_id: int) -> None:
    """Double-click a result, as a person would (activation is what a double-click or Enter gives)."""
    lst = results.list
    item = next(lst.item(i) for i in range(lst.count()) if (lst.item(i).data(FOUND) or ())[:2] == (kind, item_id))
    lst.setCurrentItem(item)
    lst.itemActivated.emit(item)


def test_ctrl_shift_f_opens_the_mind_with_the_cursor_in_its_search(qtbot, window):
    """The window's action holds the shortcut (its menu shows it); pressing it is Qt's, triggering it is ours:
    under Xvfb with no window manager a window is never active, and no shortcut reaches it."""
    [action] = [a for a in window.findChildren(QAction) if a.shortcut() == QKeySequence("Ctrl+Shift+F")]
    assert action.text() == "&Search my mind…"
    action.trigger()
    panel = window.mind
    assert panel.isVisible() and window.focusWidget() is panel.search


def test_a_search_finds_every_kind_grouped_and_opens_a_memory_in_its_view(qtbot, window, screenshot):
    c = window.companion
    cat = c.memories.remember("Ada's cat is called Miso")
    c.memories.remember("Ada works nights at the hospital")
    card = c.world.create("person", "Miso", "A grey cat who sleeps on the piano.")
    rule = c.rules.learn("Ask about Miso when Ada is low", c.messages.record("user", "Miso cheered me up"))
    c.wait_until_indexed()
    window.resize(900, 600)
    window.toggle_mind()
    results = searched(qtbot, window, "Miso")
    assert results.isVisible()
    found = results.results()
    assert ("memory", cat, "") in found and ("world_card", card, "") in found and ("rule", rule, "") in found
    assert len({kind for kind, _, _ in found}) >= 4  # and the message the rule came from: four kinds at once
    headings = [
        results.list.item(i).text() for i in range(results.list.count()) if not results.list.item(i).data(FOUND)
    ]
    assert {"Memories (1)", "World cards (1)", "Behavioural rules (1)"} <= set(headings)
    assert len(headings) == len(set(headings))  # each kind once: its results together
    assert all("hospital" not in results.list.item(i).text() for i in range(results.list.count()))
    assert "found by its words" in results.list.item(1).data(HOW)
    screenshot(window, "open-mind-search-900-light")
    open_result(qtbot, results, "memory", cat)
    view = window.mind.views["Memories"]
    qtbot.waitUntil(lambda: window.mind.current() is view and view.selected() is not None, timeout=10_000)
    assert view.selected()["id"] == cat and view.isVisible()
    open_result(qtbot, searched(qtbot, window, "Miso"), "rule", rule)
    rules = window.mind.views["Rules"]
    qtbot.waitUntil(lambda: rules.rules.selected() is not None, timeout=10_000)
    assert rules.rules.selected().id == rule


def test_a_search_that_finds_nothing_says_so(qtbot, window):
    window.toggle_mind()
    results = searched(qtbot, window, "xylophone")
    assert results.results() == [] and "Nothing in my mind matches “xylophone”" in results.note.text()


def test_a_message_found_is_shown_in_the_conversation(qtbot, window, monkeypatch):
    c = window.companion
    c.chat.enqueue("Noted.")
    send(qtbot, window, "the spare key is under the blue flowerpot")
    [message] = [b.message_id for b in window.transcript.bubbles if b.role == "user"]
    window.toggle_mind()
    results = searched(qtbot, window, "flowerpot")
    assert ("message", message, "") in results.results()
    asked = []
    monkeypatch.setattr(window, "show_message", asked.append, raising=False)
    open_result(qtbot, results, "message", message)
    assert asked == [message]  # the window, where it can, scrolls its transcript to the message
    monkeypatch.delattr(window, "show_message")
    open_result(qtbot, results, "message", message)
    view = window.mind.views["Conversation"]  # where it cannot: the Conversation view goes to it
    qtbot.waitUntil(lambda: view.selected() is not None and view.selected()["id"] == message, timeout=10_000)


def test_a_result_double_clicked_in_the_conversation_view_is_shown_in_the_conversation(qtbot, window, monkeypatch):
    c = window.companion
    c.chat.enqueue("Noted.")
    send(qtbot, window, "the spare key is under the blue flowerpot")
    window.toggle_mind()
    view = window.mind.open_view("Conversation")
    qtbot.waitUntil(lambda: bool(view.rows), timeout=10_000)
    asked = []
    monkeypatch.setattr(window, "show_message", asked.append, raising=False)
    view.table.doubleClicked.emit(view.table.model().index(1, 0))
    assert asked == [view.rows[1]["id"]]


def test_a_section_found_opens_its_editor(qtbot, window):
    window.companion.self_model.write("human", "- Ada keeps bees on the roof", "user")
    window.toggle_mind()
    results = searched(qtbot, window, "bees")
    assert [r for r in results.results() if r[0] == "section"] == [("section", 3, "human")]
    assert heading("section") == "Sections of the self"
    open_result(qtbot, results, "section", 3)
    view = window.mind.views["About you"]
    qtbot.waitUntil(lambda: window.mind.current() is view, timeout=10_000)


@pytest.mark.slow  # the real embedder: a paraphrase shares no word with what it finds
def test_a_memory_is_found_by_its_meaning_and_opened(qtbot, anima_home):
    from ui.window import MainWindow

    embedder = MiniLMEmbedder().start_loading()
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), embedder, user_name="Ada")
    try:
        c.indexer_thread.join()
        c.learns = False
        c.reflector.every = 0
        pet = c.memories.remember("Ada's cat is called Miso")
        c.memories.remember("Ada's sister lives in Lyon")
        c.memories.remember("Ada is learning the Sicilian defence at chess")
        c.wait_until_indexed()
        window = MainWindow(c, Settings())
        qtbot.addWidget(window)
        window.show()
        window.toggle_mind()
        results = searched(qtbot, window, "her kitten")  # no word of it is in the memory
        memories = [r for r in results.results() if r[0] == "memory"]
        assert memories[0] == ("memory", pet, "")
        assert "found by its meaning" in next(
            results.list.item(i).data(HOW)
            for i in range(results.list.count())
            if results.list.item(i).data(FOUND) == ("memory", pet, "")
        )
        open_result(qtbot, results, "memory", pet)
        view = window.mind.views["Memories"]
        qtbot.waitUntil(lambda: view.selected() is not None and view.selected()["id"] == pet, timeout=10_000)
        window.close()
    finally:
        c.close()
