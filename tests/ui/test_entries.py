"""Entries of a list drawn as a name over its muted details, with room between them (ui/entries.py)."""

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from ui import theme
from ui.entries import PAD, Entries


def listed(qtbot, *texts: str) -> QListWidget:
    view = QListWidget()
    qtbot.addWidget(view)
    view.setWordWrap(True)
    view.setItemDelegate(Entries(view))
    view.addItems(list(texts))
    view.resize(420, 400)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_each_entry_has_room_for_its_name_and_its_details_and_none_overlaps(qtbot):
    view = listed(qtbot, "Llama 3.2 1B (in use)\n0.81 GB to download", "Qwen3 1.7B\n" + "long details " * 30)
    line = QFontMetrics(view.font()).height()
    first, second = (view.visualItemRect(view.item(i)) for i in range(2))
    assert first.height() >= 2 * line + 2 * PAD
    assert second.height() > first.height()  # the long details wrap onto more lines, all shown
    assert first.bottom() < second.top()


def test_the_name_reads_in_the_text_colour_and_the_details_muted_and_markup_is_shown_as_typed(qtbot):
    view = listed(qtbot, "<b>Not bold</b>\nsome details")
    delegate = view.itemDelegate()
    assert isinstance(delegate, Entries)
    look = theme.current()
    html = delegate.html(view.model().index(0, 0), look.text, look.muted)
    assert "&lt;b&gt;Not bold&lt;/b&gt;" in html and f"color:{look.muted}" in html and "some details" in html


def test_an_entry_the_view_greys_out_is_named_in_the_muted_colour(qtbot):
    view = listed(qtbot)
    item = QListWidgetItem("Too big a model\nneeds 40 GB")
    item.setForeground(view.palette().placeholderText())
    view.addItem(item)
    look = theme.current()
    html = view.itemDelegate().html(view.model().index(0, 0), look.text, look.muted)
    assert html.startswith(f'<div style="color:{look.muted}; font-weight:600">')
