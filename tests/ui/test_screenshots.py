"""The main screens, as a person sees them, at a small and a large window size, in the light and the dark theme:
test-artifacts/screenshots/<screen>-<width>-<theme>.png, to look at. Adding a screen is one line in SCREENS."""

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from ui import theme

from .conftest import SHOTS, laid_out, settled

SIZES = ((900, 600), (1400, 900))
CODE_REPLY = (
    "Here is a function that keeps only the lines you asked for:\n\n"
    "```python\n"
    "def kept(lines: list[str], word: str) -> list[str]:\n"
    '    """The lines that mention `word`, in their order."""\n'
    "    return [line for line in lines if word.lower() in line.lower()]  # a long comment that runs on past "
    "the width of any bubble, so that it has to wrap inside the block\n"
    "```\n\n"
    "Call it with **your list** and the word; it never changes the list itself."
)
LONG_LINE = "https://example.org/" + "a-very-long-path-with-no-spaces-" * 9 + "end"


def conversation(window, qtbot) -> QWidget:
    """A conversation with a question of two typed lines, a reply with code, and a long unbroken line."""
    c = window.companion
    for role, said in (
        ("user", "Could you write me a small filter?\nIn Python, please."),
        ("companion", CODE_REPLY),
        ("user", f"And this link: {LONG_LINE}"),
        ("companion", "That link is long, but it wraps. Anything else?"),
    ):
        c.messages.record(role, said, session=c.session)  # the conversation shown, as a turn would
    window.show_history()
    qtbot.waitUntil(lambda: not window.reading_history and len(window.transcript.bubbles) == 4, timeout=10_000)
    window.sidebar.refresh()  # recorded here, not sent: the sidebar learns of it as it would after a reply
    qtbot.waitUntil(lambda: window.sidebar.list.count() >= 1, timeout=10_000)
    return window


def empty_chat(window, qtbot) -> QWidget:
    qtbot.waitUntil(window.transcript.empty.isVisible, timeout=10_000)
    return window


def open_mind(window, qtbot) -> QWidget:
    conversation(window, qtbot)
    window.toggle_mind()
    assert window.mind is not None and window.mind.isVisible()
    return window


def settings(window, qtbot) -> QWidget:
    from anima.settings import Settings
    from ui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(Settings(), window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def branch(window, qtbot) -> QWidget:
    """A conversation whose last reply was made again: ‹ 2/2 › under it, and the code above."""
    from tests.ui.chat.test_message_actions import reveal
    from tests.ui.conftest import send

    conversation(window, qtbot)
    c = window.companion
    c.chat.enqueue("Call it Biscuit.")
    send(qtbot, window, "name my cat")
    c.chat.enqueue("Call it Pepper: small, warm and a little fierce.")
    qtbot.mouseClick(reveal(qtbot, window.transcript.bubbles[-1], "regenerate"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: (
            window.worker is None
            and not window.reading_history  # the page is read again after it, with its versions
            and bool(window.transcript.bubbles)
            and window.transcript.bubbles[-1].text.startswith("Call it Pepper")
        ),
        timeout=20_000,
    )
    qtbot.waitUntil(window.transcript.bubbles[-1].action_row.shown.isVisible, timeout=10_000)
    return window


def sidebar_search(window, qtbot) -> QWidget:
    """Three conversations in the sidebar, and Ctrl+K's search across them with its results."""
    c = window.companion
    for said, reply in (
        ("My sister Jo starts as a nurse in Leeds.", "That is a big step for Jo."),
        ("The cello recital moved to 21 March.", "Then there is a week more to practise."),
        ("Jo called: she loves the hospital.", "I'm glad Jo is settling in."),
    ):
        before = c.session
        window.new_conversation()  # in a worker: the new session is the companion's once it is made
        qtbot.waitUntil(lambda before=before: c.session != before and window.sidebar.current == c.session)
        c.messages.record("user", said, session=c.session)
        c.messages.record("companion", reply, session=c.session)
    window.show_history()
    qtbot.waitUntil(lambda: not window.reading_history and len(window.transcript.bubbles) == 2, timeout=10_000)
    window.sidebar.refresh()
    qtbot.waitUntil(lambda: window.sidebar.list.count() >= 3, timeout=10_000)
    window.search_conversations()
    window._search.box.setText("Jo")
    qtbot.waitUntil(lambda: window._search.results.count() >= 2, timeout=10_000)
    return window


def first_run(window, qtbot) -> QWidget:
    """The choice of a mind offered before the first chat: the tiny bundled model said to be tiny."""
    from anima.settings import Settings
    from ui.dialogs.first_model import FirstModelDialog

    dialog = FirstModelDialog(Settings(), window.companion, window, places=[])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


# One line a screen: its name, and how to bring it up from a fresh window on a fresh soul.
SCREENS: dict[str, Callable[..., QWidget]] = {
    "empty-chat": empty_chat,
    "conversation": conversation,
    "open-mind": open_mind,
    "settings": settings,
    "first-run": first_run,
    "branch": branch,
    "sidebar-search": sidebar_search,
}


def shoot(qtbot, widget: QWidget, window, name: str) -> None:
    for width, height in SIZES:
        if widget is window:
            window.resize(width, height)
        for choice in ("light", "dark"):
            theme.use(choice)
            steady(qtbot, window.transcript)
            path = SHOTS / f"{name}-{width}-{choice}.png"
            assert with_popups(widget).save(str(path)), f"could not save {path}"


def steady(qtbot, transcript) -> None:
    """Laid out and staying so: a resize reaches the bubbles over several turns of the event loop, and a check
    between two of them saw each label as tall as its text at a width it was about to leave (the code reply shot
    cut after its code block at 1400 px)."""
    seen = None
    for _ in range(50):
        settled(qtbot)
        QApplication.processEvents()
        now = [(b.label.width(), b.label.height()) for b in transcript.bubbles]
        if now == seen and laid_out(transcript):
            return
        seen = now
    raise AssertionError("the transcript kept changing its layout")


def with_popups(widget: QWidget) -> QPixmap:
    """The widget as the person sees it: with the dialogs it opened over it (Ctrl+K's search) drawn where they
    stand, over its middle as a window manager places them (a grab holds one window; Xvfb has no manager)."""
    shot = widget.grab()
    over = [d for d in widget.findChildren(QDialog) if d.isVisible() and d.isWindow()]
    if over:
        painter = QPainter(shot)
        for dialog in over:
            painter.drawPixmap(
                (widget.width() - dialog.width()) // 2, (widget.height() - dialog.height()) // 3, dialog.grab()
            )
        painter.end()
    return shot


@pytest.mark.parametrize("name", list(SCREENS))
def test_screens_are_saved_at_both_sizes_in_both_themes(qtbot, window, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        widget = SCREENS[name](window, qtbot)
        shoot(qtbot, widget, window, name)
    finally:
        theme.use("system")
    for width, _ in SIZES:
        for choice in ("light", "dark"):
            assert (SHOTS / f"{name}-{width}-{choice}.png").stat().st_size > 10_000
