"""The transcript's bubbles remember their heights (chat/transcript.py, Wrapped): never a stale one."""

from PySide6.QtGui import QFont
from pytestqt.exceptions import TimeoutError

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


def test_a_streaming_reply_lays_out_only_its_growing_paragraph_and_ends_whole(qtbot, window):
    """While a reply streams, its finished paragraphs stay rendered in the bubble's label, which keeps its heights,
    and the paragraph being written shows below them; at the end the bubble is one label of the whole reply."""
    from ui import theme
    from ui.chat.rich_text import render

    transcript = window.transcript
    bubble = transcript.start_reply(window.transcript.add("user", "Tell me"))
    for piece in ("It **was** a calm day.", "\n\nThe cat ", "*sat*"):
        transcript.piece(piece)
        transcript._render_stream()  # a frame
        if piece == "\n\nThe cat ":
            height = bubble.label.heightForWidth(300)
            heights = dict(bubble.label._heights)
    assert (
        bubble.tail is not None
        and "The cat *sat*" in bubble.tail.text()
        and "<strong>was</strong>" in bubble.label.text()
    )
    assert bubble.label._heights == heights and bubble.label.heightForWidth(300) == height  # not laid out again
    qtbot.waitUntil(lambda: bubble.tail.isVisible() and bubble.label.isVisible(), timeout=5_000)
    transcript.end_reply(7, "It **was** a calm day.\n\nThe cat *sat*")
    assert bubble.tail is None and bubble.message_id == 7
    assert bubble.label.text() == render("It **was** a calm day.\n\nThe cat *sat*", theme.current()).html


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


LONG_LINE = "x" * 300
CODE = "print('" + "y" * 160 + "')\nfor i in range(3):\n    print(i)"


def fits(transcript) -> list[str]:
    """What a person could not read in full: anything wider than the transcript's view, a word wider than its
    bubble, a text cut off below, a "Why?" out of reach."""
    view = transcript.viewport()
    wrong = []
    if transcript.horizontalScrollBar().isVisible() or transcript.widget().width() > view.width():
        wrong.append("the transcript is wider than its view")
    for i, b in enumerate(transcript.bubbles):
        body = b.body.geometry().translated(b.mapTo(transcript.widget(), b.body.pos()) - b.body.pos())
        if body.left() < 0 or body.right() > view.width():
            wrong.append(f"bubble {i} reaches past the view")
        if b.label.minimumSizeHint().width() > b.label.width():
            wrong.append(f"bubble {i} holds a word wider than itself")
        if b.label.height() < b.label.heightForWidth(b.label.width()) - 1:
            wrong.append(f"bubble {i} is cut off")
        if b.why.isVisibleTo(b):
            right = b.why.mapTo(transcript.viewport(), b.why.rect().topRight()).x()
            if right > view.width() or b.why.width() < b.why.minimumSizeHint().width():
                wrong.append(f"bubble {i}'s Why? is out of reach")
    return wrong


def assert_fits(qtbot, transcript) -> None:
    """Wait for the layout to settle, then say what does not fit, if anything."""
    try:
        qtbot.waitUntil(lambda: laid_out(transcript) and not fits(transcript), timeout=5_000)
    except TimeoutError:
        pass
    assert fits(transcript) == []


def test_a_long_line_and_code_never_widen_the_transcript_with_the_open_mind_open(qtbot, window):
    window.resize(900, 600)
    t = window.transcript
    reply = f"Here:\n\n```python\n{CODE}\n```\n\nAnd {LONG_LINE}"
    # Stored, as a shown reply is: the Open Mind drops a bubble whose message the soul no longer holds.
    stored = window.companion.messages.record("companion", reply)
    t.add("user", LONG_LINE)
    t.add("companion", reply, message_id=stored)
    window.toggle_mind()
    assert window.mind is not None and window.mind.isVisible()
    qtbot.waitUntil(lambda: t.viewport().width() < 500, timeout=10_000)
    assert_fits(qtbot, t)
    assert t.bubbles[1].why.isVisible()
    window.resize(1400, 900)  # and wider again: the bubbles follow
    qtbot.waitUntil(lambda: t.viewport().width() > 700, timeout=10_000)
    assert_fits(qtbot, t)


def test_the_person_on_the_right_the_companion_on_the_left_no_wider_than_reads_well(qtbot, window):
    from ui.chat.transcript import WIDEST

    window.resize(1400, 900)
    t = window.transcript
    mine = t.add("user", "Hi there")
    theirs = t.add("companion", "Hello! " * 80, message_id=5)

    def span(b):
        left = b.body.mapTo(t.viewport(), b.body.rect().topLeft()).x()
        return left, left + b.body.width()

    view = t.viewport().width()
    qtbot.waitUntil(lambda: laid_out(t) and span(mine)[0] > 0, timeout=10_000)
    assert span(mine)[0] > view / 2 and span(theirs)[0] < view / 4  # sides
    assert span(mine)[1] > span(theirs)[1]
    assert mine.body.width() < 200 < theirs.body.width() <= WIDEST  # as wide as its text, up to the cap
    assert theirs.avatar is not None and theirs.avatar.isVisible() and mine.avatar is None


def test_each_message_says_who_and_when(qtbot, window):
    from ui.chat.meta import when

    t = window.transcript
    at = "2026-12-01T08:05:00+00:00"
    b = t.add("companion", "Morning.", message_id=3, created_at=at)
    assert b.meta.text() == f"{window.companion.name}  ·  {when(at)}"
    assert t.add("user", "Hi").meta.text().startswith("You  ·  ")
    t.set_names("Mira")
    assert b.meta.text().startswith("Mira") and b.avatar is not None and b.avatar.text() == "M"


def test_a_code_blocks_copy_link_copies_exactly_its_code(qtbot, window):
    from PySide6.QtGui import QGuiApplication

    b = window.transcript.add("companion", f"One:\n\n```python\n{CODE}\n```\n\nTwo:\n\n```\nls -la\n```", message_id=4)
    b.label.linkActivated.emit("copy:1")
    assert QGuiApplication.clipboard().text() == "ls -la"
    b.label.linkActivated.emit("copy:0")
    assert QGuiApplication.clipboard().text() == CODE
    assert window.statusBar().currentMessage() == "Code copied"
    b.label.linkActivated.emit("https://example.org")  # no other link is followed from a message
    assert QGuiApplication.clipboard().text() == CODE


def test_the_theme_changes_live_code_colours_included(qtbot, window):
    from ui import theme

    b = window.transcript.add("companion", "```python\nx = 1\n```", message_id=6)
    try:
        theme.use("dark")
        assert theme.DARK.code_background in b.label.text()
        theme.use("light")
        assert theme.LIGHT.code_background in b.label.text()
    finally:
        theme.use("system")


def test_text_copied_from_a_bubble_is_what_was_written(qtbot, window):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    b = window.transcript.add("user", LONG_LINE)
    qtbot.waitUntil(lambda: laid_out(window.transcript), timeout=10_000)
    b.label.setFocus()
    qtbot.keyClick(b.label, Qt.Key_A, Qt.ControlModifier)  # select all
    assert "\u200b" in b.label.selectedText()  # the unseen breaks that let it wrap
    qtbot.keyClick(b.label, Qt.Key_C, Qt.ControlModifier)
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == LONG_LINE, timeout=5_000)
