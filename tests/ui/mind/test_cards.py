"""An item reads as a card: its own text first, then when, where it came from and how sure, smaller under it; the
whole text as its tooltip. Edit and Forget act on the card selected."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox, QPushButton

from tests.ui.conftest import send
from tests.ui.mind.test_panel import shown
from ui.mind.table_view import row_table

LONG = "Ada's sister Bea moved to Lyon in the spring, and Ada misses her more than she says, " * 3


def test_a_card_puts_its_text_first_and_says_the_rest_in_words(qtbot):
    table = row_table(("when", "how I changed", "from", "until"), headline=1, timeline=True)
    qtbot.addWidget(table)
    table.resize(320, 400)
    table.show()
    table.fill([{"id": 7}], lambda r: ("2026-12-06", LONG, "episode #3", ""))
    index = table.model().index(0, 0)
    assert index.data(Qt.ToolTipRole) == LONG  # the whole text, which the card ends in "…"
    assert table.itemDelegate().details(index) == "when: 2026-12-06  ·  from: episode #3"  # nothing for an empty cell
    assert table.horizontalScrollBar().isHidden() or not table.horizontalScrollBar().isVisible()
    table.selectRow(0)
    assert table.currentRow() == 0 and table.keys == [7]


def test_a_memory_is_edited_and_forgotten_from_its_card(qtbot, window, monkeypatch):
    c = window.companion
    cat = c.memories.remember("Ada's cat is called Miso")
    c.memories.remember("Ada plays chess")
    window.toggle_mind()
    view = shown(qtbot, window, "Memories")
    view.table.selectRow(next(i for i, m in enumerate(view.rows) if m["id"] == cat))
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: ("Ada's cat is called Miso Soup", True))
    qtbot.mouseClick(view.findChild(QPushButton, "edit"), Qt.LeftButton)
    qtbot.waitUntil(lambda: any(m["content"] == "Ada's cat is called Miso Soup" for m in view.rows), timeout=10_000)
    current = next(m for m in c.memories.all() if m["content"] == "Ada's cat is called Miso Soup")
    view.table.selectRow(next(i for i, m in enumerate(view.rows) if m["id"] == current["id"]))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    qtbot.mouseClick(view.findChild(QPushButton, "forget"), Qt.LeftButton)
    qtbot.waitUntil(lambda: all("Miso" not in m["content"] for m in view.rows), timeout=10_000)
    assert all("Miso" not in m["content"] for m in c.memories.all())


def test_a_memory_card_says_why_it_was_recalled_last(qtbot, window):
    c = window.companion
    cat = c.memories.remember("Ada's cat is called Miso")
    c.wait_until_indexed()
    c.chat.enqueue("Miso sounds lovely.")
    reply = send(qtbot, window, "What is my cat called?")
    window.toggle_mind()
    view = shown(qtbot, window, "Memories")
    row = next(i for i, m in enumerate(view.rows) if m["id"] == cat)
    details = view.table.itemDelegate().details(view.table.model().index(row, 0))
    assert f"last recalled: for message #{reply.message_id}, by your words" in details


def test_a_short_detail_is_drawn_on_one_line_and_a_long_one_may_wrap():
    from ui.mind.cards import unbroken

    assert unbroken("true since: 2026-12-06") == "true\u00a0since:\u00a02026-12-06"
    long = "replaced by: Ada's sister Bea moved back from Lyon in the autumn"
    assert unbroken(long) == long
