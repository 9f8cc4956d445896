"""The conversations sidebar in the real window, on a real encrypted soul (issue 39): a new conversation with
Ctrl+N, the list grouped by day and newest first, a rename that persists, a delete that forgets for good."""

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from anima.companion import Companion
from anima.knowledge.conversations import Listed
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.settings import Settings
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.ui.conftest import send
from ui.chat.sidebar import GROUPS, SESSION, group


def shown(window) -> list[str]:
    return [b.text for b in window.transcript.bubbles]


def listed(window) -> list[str]:
    return [t for titles in window.sidebar.groups().values() for t in titles]


def pressable(qtbot, window) -> None:
    """The window active, as a person's click makes it: the keys of its actions (Ctrl+N, Ctrl+K) reach it then."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    window.input.setFocus()


def new_conversation(qtbot, window) -> str:
    before = window.companion.session
    pressable(qtbot, window)
    qtbot.keyClick(window.input, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(
        lambda: (
            window.companion.session != before
            and window.showing == window.companion.session
            and not window.reading_history
        ),
        timeout=10_000,
    )
    return window.companion.session


def test_ctrl_n_starts_a_new_conversation_and_the_sidebar_lists_both(qtbot, window):
    qtbot.waitUntil(window.sidebar.empty.isVisible, timeout=10_000)  # nothing yet: it says what will be here
    assert "conversations will be listed here" in window.sidebar.empty.text()
    window.companion.chat.enqueue("Paris in spring is lovely.")
    send(qtbot, window, "I want to visit Paris")
    first = window.companion.session
    qtbot.waitUntil(lambda: listed(window) == ["I want to visit Paris"], timeout=10_000)
    assert not window.sidebar.empty.isVisible()
    assert window.sidebar.selected() == first

    second = new_conversation(qtbot, window)

    assert second != first and window.transcript.bubbles == []
    assert window.companion.conversation.entries() == []
    window.companion.chat.enqueue("Start with scales.")
    send(qtbot, window, "How do I learn piano?")
    qtbot.waitUntil(lambda: listed(window) == ["How do I learn piano?", "I want to visit Paris"], timeout=10_000)
    assert list(window.sidebar.groups()) == ["Today"]
    assert window.sidebar.selected() == second
    assert shown(window) == ["How do I learn piano?", "Start with scales."]

    # A click on the first opens it again: its turns are the transcript, and the next reply goes on from them.
    item = window.sidebar._item(first)
    rect = window.sidebar.list.visualItemRect(item)
    qtbot.mouseClick(window.sidebar.list.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: shown(window) == ["I want to visit Paris", "Paris in spring is lovely."], timeout=10_000)
    assert window.companion.session == first
    window.companion.chat.enqueue("The Louvre, then.")
    send(qtbot, window, "What should I see first?")
    sent = window.companion.chat.history[-1]["messages"]
    assert any("Paris in spring" in m["content"] for m in sent)
    assert window.companion.conversations.get(first).messages == 4


def test_the_sidebar_groups_by_day_newest_first(qtbot, window):
    today = date(2026, 12, 6)
    rows = [
        Listed("a", "This morning", "2026-12-06T09:00:00+00:00", "2026-12-06T09:00:00+00:00", 2, False),
        Listed("b", "Last night", "2026-12-05T11:00:00+00:00", "2026-12-05T11:00:00+00:00", 2, False),
        Listed("c", "Monday", "2026-12-01T12:00:00+00:00", "2026-12-01T12:00:00+00:00", 2, False),
        Listed("d", "Long ago", "2026-10-01T12:00:00+00:00", "2026-10-01T12:00:00+00:00", 2, False),
    ]
    window.sidebar.show_listed(rows, "b", today)
    assert window.sidebar.groups() == {
        "Today": ["This morning"],
        "Yesterday": ["Last night"],
        "Previous 7 days": ["Monday"],
        "Earlier": ["Long ago"],
    }
    assert window.sidebar.selected() == "b"
    assert group("2026-11-29T12:00:00+00:00", today) == GROUPS[2] and group("2026-11-28T12:00:00", today) == GROUPS[3]


def test_a_rename_with_f2_persists_after_the_window_and_soul_are_opened_again(qtbot, anima_home):
    from ui.window import MainWindow

    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.learns = False
    w = MainWindow(c, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.reading_history, timeout=10_000)
    c.chat.enqueue("Let us plan it.")
    send(qtbot, w, "Garden ideas for spring")
    qtbot.waitUntil(lambda: listed(w) == ["Garden ideas for spring"], timeout=10_000)

    w.sidebar.list.setFocus()
    w.sidebar.list.setCurrentItem(w.sidebar._item(c.session))
    qtbot.keyClick(w.sidebar.list, Qt.Key_F2)
    editor = next(e for e in w.sidebar.list.viewport().children() if hasattr(e, "selectAll") and e.isVisible())
    editor.selectAll()
    qtbot.keyClicks(editor, "Spring garden")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: listed(w) == ["Spring garden"] and w.sidebar.listed[c.session].titled, timeout=10_000)
    w.close()
    c.close()

    again = Companion.unlock(Home(anima_home), PASSPHRASE, FakeChatModel(), FakeEmbedder())
    again.indexer_thread.join()
    w2 = MainWindow(again, Settings())
    qtbot.addWidget(w2)
    w2.show()
    try:
        qtbot.waitUntil(lambda: listed(w2) == ["Spring garden"], timeout=10_000)
    finally:
        w2.close()
        again.close()


def test_delete_asks_and_then_forgets_the_conversation_in_the_soul(qtbot, window, monkeypatch):
    c = window.companion
    c.chat.enqueue("Mirelda sounds like a good friend.")
    send(qtbot, window, "My friend Mirelda visited")
    doomed = c.session
    ids = c.conversations.message_ids(doomed)
    new_conversation(qtbot, window)
    c.chat.enqueue("Noted.")
    send(qtbot, window, "Buy milk tomorrow")
    qtbot.waitUntil(lambda: len(listed(window)) == 2, timeout=10_000)

    asked, answer = [], [QMessageBox.StandardButton.Cancel]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or answer[0])
    window.sidebar.list.setFocus()
    window.sidebar.list.setCurrentItem(window.sidebar._item(doomed))
    qtbot.keyClick(window.sidebar.list, Qt.Key_Delete)
    assert "for good" in asked[0] and "My friend Mirelda visited" in asked[0]
    assert c.conversations.message_ids(doomed) == ids  # cancelled: nothing forgotten

    answer[0] = QMessageBox.StandardButton.Discard
    qtbot.keyClick(window.sidebar.list, Qt.Key_Delete)
    qtbot.waitUntil(lambda: listed(window) == ["Buy milk tomorrow"], timeout=20_000)
    assert c.conversations.message_ids(doomed) == []
    assert c.soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'mirelda'") == []
    assert all(c.indexer.index.vector(("message", i)) is None for i in ids)
    assert not [r for r in c.recall("Mirelda friend", 10) if "Mirelda" in r.text]
    assert [window.sidebar.list.item(i).data(SESSION) for i in range(window.sidebar.list.count())][1:] == [c.session]


def test_the_sidebar_folds_away_and_stays_so(qtbot, window):
    assert not window.sidebar.isHidden()
    window.toggle_sidebar()
    assert window.sidebar.isHidden()
    qtbot.waitUntil(lambda: Settings.load().sidebar_shown is False, timeout=10_000)
    from ui.window import MainWindow

    reopened = MainWindow(None, Settings.load())  # the next start
    qtbot.addWidget(reopened)
    assert reopened.sidebar.isHidden()
    window.toggle_sidebar()
    assert not window.sidebar.isHidden()
    qtbot.waitUntil(lambda: Settings.load().sidebar_shown is True, timeout=10_000)


def test_the_conversations_step_aside_for_the_open_mind_only_while_the_window_is_narrow(qtbot, window):
    from tests.ui.conftest import settled

    window.resize(900, 600)
    settled(qtbot)
    window.toggle_mind()
    qtbot.waitUntil(lambda: window.mind is not None and window.mind.isVisible(), timeout=10_000)
    assert window.sidebar.isHidden()
    window.resize(1400, 900)  # made wide again: room for all three
    qtbot.waitUntil(window.sidebar.isVisible, timeout=5_000)
    window.resize(900, 600)
    qtbot.waitUntil(window.sidebar.isHidden, timeout=5_000)
    window.toggle_mind()
    qtbot.waitUntil(window.sidebar.isVisible, timeout=5_000)
