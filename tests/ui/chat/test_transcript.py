"""The transcript's bubbles remember their heights (chat/transcript.py, Wrapped): never a stale one."""

from PySide6.QtGui import QFont

from tests.ui.conftest import laid_out


def test_a_bubble_grows_as_its_reply_streams_in(qtbot, window):
    """The reply's bubble asks its height again as each piece arrives: one remembered from a shorter text would
    cut the reply off on screen."""
    bubble = window.transcript.start_reply()
    label = bubble.label
    short = label.heightForWidth(300)
    assert label.heightForWidth(300) == short
    bubble.set_text("A reply that goes on " * 30)
    taller = label.heightForWidth(300)
    assert taller > 3 * short
    bubble.set_text("Short again.")
    assert label.heightForWidth(300) == short
    # At a narrower width the same text wraps onto more lines.
    bubble.set_text("A reply that goes on " * 30)
    assert label.heightForWidth(150) > taller


def test_a_larger_font_makes_the_bubble_taller(qtbot, window):
    bubble = window.transcript.add("user", "Some words that wrap across a few lines when the bubble is narrow.")
    label = bubble.label
    before = label.heightForWidth(200)
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)
    assert label.heightForWidth(200) > before


def test_the_heights_laid_out_match_the_labels_own(qtbot, window):
    """Opened with a page of history, every bubble is as tall as its text needs at the width it was given."""
    from PySide6.QtWidgets import QLabel

    for i in range(12):
        window.transcript.add("user" if i % 2 else "companion", f"message {i} " + "and more words " * (i * 3))
    qtbot.waitUntil(lambda: laid_out(window.transcript), timeout=10_000)
    for b in window.transcript.bubbles:
        width = b.label.width()
        assert b.label.height() >= QLabel.heightForWidth(b.label, width) - 1
