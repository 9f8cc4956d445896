"""The Open Mind's conversation view on a long history: every message can be reached, a page at a time back to
the first, or found by its words, and forgotten from there; the window never reads the disk itself."""

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from anima.knowledge.messages import NewMessage
from anima.settings import Settings
from tests.ui.test_open_mind import forget_message, open_view

MESSAGES = 1200
OLD_SECRET = "my old password hint was a purple walrus"


@pytest.fixture
def long_history(qtbot, fake_companion):
    """A window on a soul of 1,200 messages; the 38th, long out of sight, holds an old secret."""
    from ui.window import MainWindow

    said = [f"message number {i}" for i in range(MESSAGES)]
    said[37] = OLD_SECRET
    said[1100] = "a walrus again"
    ids = fake_companion.messages.record_many(
        [NewMessage("user" if i % 2 else "companion", text) for i, text in enumerate(said)]
    )
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w, ids


def shown(view) -> list[str]:
    """The message column as the table shows it, top to bottom."""
    return [view.table.text(i, 2) for i in range(view.table.rowCount())]


def show_older(qtbot, view) -> None:
    """Press "Show older" as a person would and wait for the page to be added below."""
    before = len(view.rows)
    qtbot.mouseClick(view.older, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(view.rows) > before, timeout=10_000)


def search(qtbot, view, words: str) -> None:
    view.search.clear()
    qtbot.keyClicks(view.search, words)
    qtbot.keyClick(view.search, Qt.Key_Return)


def test_the_view_shows_the_newest_page_and_show_older_reaches_the_first_message(qtbot, long_history, monkeypatch):
    w, ids = long_history
    view = open_view(qtbot, w, "Conversation")
    assert [m["id"] for m in view.rows] == ids[::-1][: view.page]
    assert shown(view)[0] == f"message number {MESSAGES - 1}" and view.older.isEnabled()
    while view.older.isEnabled():
        show_older(qtbot, view)
    assert [m["id"] for m in view.rows] == ids[::-1]  # every message, each once, newest first
    assert shown(view)[-1] == "message number 0" and OLD_SECRET in shown(view)
    # Forgotten from down there, it leaves the soul and the view; what was shown stays shown.
    forget_message(qtbot, view, monkeypatch, OLD_SECRET)
    assert w.companion.soul.query("SELECT id FROM messages WHERE id = ?", (ids[37],)) == []
    qtbot.waitUntil(lambda: len(shown(view)) == MESSAGES - 1, timeout=10_000)
    assert OLD_SECRET not in shown(view) and shown(view)[-1] == "message number 0"


def test_a_search_finds_an_old_message_by_a_word_and_forgetting_it_there_removes_it(
    qtbot, long_history, monkeypatch, screenshot
):
    w, ids = long_history
    c = w.companion
    view = open_view(qtbot, w, "Conversation")
    find, read_on = c.messages.find, []  # the threads the view read the soul on
    for name in ("find", "newest"):
        real = getattr(c.messages, name)
        monkeypatch.setattr(
            c.messages, name, lambda *a, real=real, **k: read_on.append(threading.current_thread()) or real(*a, **k)
        )
    view.page = 1  # results are paged as the conversation is
    search(qtbot, view, "walrus")
    qtbot.waitUntil(lambda: [m["id"] for m in view.rows] == [ids[1100]], timeout=10_000)
    show_older(qtbot, view)
    assert [m["id"] for m in view.rows] == [ids[1100], ids[37]] and shown(view)[1] == OLD_SECRET
    assert not view.older.isEnabled()
    screenshot(w, "open-mind-conversation-search")
    forget_message(qtbot, view, monkeypatch, OLD_SECRET)
    assert c.soul.query("SELECT id FROM messages WHERE id = ?", (ids[37],)) == []
    assert [m["id"] for m in find("walrus")] == [ids[1100]]
    qtbot.waitUntil(lambda: shown(view) == ["a walrus again"], timeout=10_000)
    search(qtbot, view, "zebra")
    qtbot.waitUntil(lambda: view.rows == [], timeout=10_000)
    assert "No message holds" in view.note.text()
    # Clearing the box returns to the conversation, from the newest.
    view.search.clear()
    qtbot.waitUntil(lambda: [m["id"] for m in view.rows] == [ids[-1]], timeout=10_000)
    assert read_on and threading.main_thread() not in read_on  # the window never waited on the disk


def test_a_message_is_gone_to_by_its_number_as_the_other_views_name_it(qtbot, long_history, monkeypatch):
    """Where a memory came from reads "you said it, message #123": typed into the search, "#123" lists that message
    first, selected, and the conversation before it; each row shows its number."""
    w, ids = long_history
    view = open_view(qtbot, w, "Conversation")
    assert view.table.text(0, 0).startswith(f"#{ids[-1]}  ")
    view.page = 10
    search(qtbot, view, f"#{ids[37]}")
    qtbot.waitUntil(lambda: view.rows and view.rows[0]["id"] == ids[37], timeout=10_000)
    assert [m["id"] for m in view.rows] == ids[37::-1][:10] and shown(view)[0] == OLD_SECRET
    assert view.table.selectionModel().selectedRows()[0].row() == 0
    assert view.note.text() == f"Message #{ids[37]}, and the ones before it. Older ones follow."
    show_older(qtbot, view)
    assert [m["id"] for m in view.rows] == ids[37::-1][:20]
    # Forgotten from there (the question names it, the view says what went), it is gone; going to its number
    # again says so, and lists the ones before it.
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: asked.append(text) or QMessageBox.Yes)
    view.forget()
    assert asked == [f"Forget message #{ids[37]} (“{OLD_SECRET}”) everywhere? This cannot be undone."]
    qtbot.waitUntil(lambda: OLD_SECRET not in shown(view), timeout=10_000)
    assert view.error.text() == "Forgot 1 message."
    search(qtbot, view, "# 5")  # another number first: the same one again would not be read anew
    qtbot.waitUntil(lambda: view.rows and view.rows[0]["id"] <= 5, timeout=10_000)
    search(qtbot, view, f"#{ids[37]}")
    qtbot.waitUntil(lambda: view.rows and view.rows[0]["id"] == ids[36], timeout=10_000)
    assert view.note.text().startswith(f"There is no message #{ids[37]} (it was forgotten, or not yet written)")
    # Nothing is left selected from the listing before (a row number kept across it would point at another
    # message, and Forget would take that one).
    assert view.selected() is None and not view.table.selectionModel().selectedRows()
    view.forget()
    assert view.error.text() == "Select a message first." and c_ids_kept(w, ids[36])


def c_ids_kept(w, message_id: int) -> bool:
    return bool(w.companion.soul.query("SELECT 1 FROM messages WHERE id = ?", (message_id,)))


def test_a_number_of_any_length_is_gone_to_and_a_number_among_words_is_explained(qtbot, long_history):
    """QA: "#" with 19 digits or more was searched as words ("no message holds every word"), and a number among
    words ("#38 walrus") was searched as words without saying how to go to it."""
    w, ids = long_history
    view = open_view(qtbot, w, "Conversation")
    view.page = 10
    huge = "9" * 25  # past SQLite's largest id
    search(qtbot, view, f"#{huge}")
    qtbot.waitUntil(lambda: view.note.text().startswith(f"There is no message #{huge}"), timeout=10_000)
    assert [m["id"] for m in view.rows] == ids[::-1][:10]  # the ones before it: the newest
    search(qtbot, view, f"#{ids[37]} walrus")  # its digits are a word of the search: no message holds them
    qtbot.waitUntil(lambda: "walrus" in view.note.text(), timeout=10_000)
    assert view.rows == [] and view.note.text() == (
        f"No message holds every word of “#{ids[37]} walrus”. (To go to message #{ids[37]}, search “#{ids[37]}” alone.)"
    )


def test_a_forget_that_takes_a_while_says_so_and_the_view_waits_for_it(qtbot, long_history, monkeypatch):
    """A forget rewrites the whole file: ~16 s for a soul of 100,000 messages (bench scale), during which the view
    said nothing and took more clicks. It says what takes the time, and takes no click until it is done."""
    from anima.store.forget import UNDER_WAY

    w, ids = long_history
    view = open_view(qtbot, w, "Conversation")
    held, forget = threading.Event(), w.companion.forget

    def slow_forget(*args):
        held.wait(30)
        return forget(*args)

    monkeypatch.setattr(w.companion, "forget", slow_forget)
    view.table.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    view.forget()
    qtbot.waitUntil(lambda: view.error.text() == UNDER_WAY, timeout=10_000)
    assert not view.isEnabled() and c_ids_kept(w, ids[-1])
    held.set()
    qtbot.waitUntil(lambda: view.error.text() == "Forgot 1 message.", timeout=10_000)
    assert view.isEnabled() and not c_ids_kept(w, ids[-1])
