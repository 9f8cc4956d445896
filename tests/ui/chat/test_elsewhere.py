"""What another program on the same soul says shows in the open window (issue 17: several programs on one soul).

The other program here is a second companion unlocked on the same home, with its own connection and session, as
`python -m anima chat` is; the window learns of its commits the way it would of another process's.
"""

from anima.knowledge.messages import External
from anima.store.provenance import Source
from tests.conftest import talk
from tests.ui.conftest import laid_out, looked, send
from ui.chat.elsewhere import FOLLOW_MS


def shown(window) -> list[tuple[str, str]]:
    return [(b.role, b.text) for b in window.transcript.bubbles]


def test_what_the_terminal_says_shows_in_the_window_in_the_order_it_was_stored(qtbot, window, terminal):
    """QA: a person chatting in `anima chat` while the window was open saw none of it there until they closed
    and opened the window again."""
    window.companion.chat.enqueue("Hello in the window.")
    send(qtbot, window, "from the window")
    talk(terminal, "from the terminal", "Hello in the terminal.")
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 4, timeout=10_000)
    assert shown(window) == [
        ("user", "from the window"),
        ("companion", "Hello in the window."),
        ("user", "from the terminal"),
        ("companion", "Hello in the terminal."),
    ]
    stored = window.companion.messages.page(None, 10)
    assert [b.message_id for b in window.transcript.bubbles] == [m["id"] for m in stored]
    # The window's next message goes below them, and nothing is shown twice, at the next looks either.
    window.companion.chat.enqueue("And again.")
    send(qtbot, window, "back in the window")
    looked(qtbot, window)
    looked(qtbot, window)
    assert shown(window)[4:] == [("user", "back in the window"), ("companion", "And again.")]
    assert len(window.transcript.bubbles) == 6
    # "Why?" on the terminal's reply asks about the reply it is.
    assert window.transcript.bubbles[3].why.isVisibleTo(window)


def test_text_from_outside_sent_in_the_terminal_shows_apart_in_its_message(qtbot, window, terminal):
    talk(terminal, "read this", "Read it.", [External(Source.PASTED, "a pasted paragraph", "")])
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 2, timeout=10_000)
    asked, answered = window.transcript.bubbles
    assert asked.text == "read this" and [box.text for box in asked.outside] == ["a pasted paragraph"]
    assert answered.text == "Read it."
    assert None not in window.transcript.shown_ids()


def test_what_the_terminal_says_during_a_reply_goes_above_the_reply_and_what_waits(qtbot, window, terminal, held_reply):
    """The window is answering one message and holds another typed meanwhile: the terminal's exchange, stored
    before either, shows above the reply under way and the message still waiting, as the soul orders them."""
    from PySide6.QtCore import Qt

    from tests.ui.test_disk_full import typed

    window.companion.chat.enqueue("A long answer.", "The second answer.")
    window.input.setFocus()
    qtbot.keyClicks(window.input, "asked in the window")
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(held_reply.holding.is_set, timeout=10_000)
    qtbot.waitUntil(lambda: window.worker.bubble.message_id is not None, timeout=10_000)
    typed(qtbot, window, "typed while it answered")
    talk(terminal, "from the terminal", "Hello in the terminal.")
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 5, timeout=10_000)
    roles_texts = shown(window)
    assert roles_texts[0] == ("user", "asked in the window")
    assert roles_texts[1:3] == [("user", "from the terminal"), ("companion", "Hello in the terminal.")]
    assert roles_texts[3][0] == "companion" and roles_texts[4] == ("user", "typed while it answered")
    held_reply.release.set()
    qtbot.waitUntil(
        lambda: (
            window.worker is None
            and not window.queued
            and len(window.transcript.bubbles) == 6
            and window.transcript.bubbles[-1].message_id is not None
        ),
        timeout=20_000,
    )
    assert shown(window)[3:] == [
        ("companion", "A long answer."),
        ("user", "typed while it answered"),
        ("companion", "The second answer."),
    ]


def test_what_the_terminal_said_then_forgot_leaves_the_window(qtbot, window, terminal):
    talk(terminal, "a secret I regret", "Noted.")
    talk(terminal, "something else", "Sure.")
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 4, timeout=10_000)
    gone = window.transcript.bubbles[0].message_id
    terminal.forget("message", gone)
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 3, timeout=10_000)
    assert shown(window) == [("companion", "Noted."), ("user", "something else"), ("companion", "Sure.")]


def test_what_was_said_and_forgotten_between_two_looks_never_shows(qtbot, window, terminal):
    qtbot.waitUntil(lambda: window.elsewhere.forgets_seen is not None, timeout=10_000)
    window.elsewhere.timer.stop()  # the looks come when the test says
    talk(terminal, "a secret I regret", "Noted.")
    terminal.forget("message", terminal.messages.page(None, 10)[0]["id"])
    talk(terminal, "something else", "Sure.")
    window.elsewhere.look()
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 3, timeout=10_000)
    assert shown(window) == [("companion", "Noted."), ("user", "something else"), ("companion", "Sure.")]


def test_an_exchange_stored_elsewhere_before_the_windows_own_shows_above_it(qtbot, window, terminal):
    """Review: what another program stored just before the window's own exchange (within one look) showed
    below it, and opening the window again showed the other order."""
    qtbot.waitUntil(lambda: window.elsewhere.forgets_seen is not None, timeout=10_000)
    window.elsewhere.timer.stop()
    talk(terminal, "first, in the terminal", "Terminal reply.")
    window.companion.chat.enqueue("Window reply.")
    send(qtbot, window, "then, in the window")
    window.elsewhere.look()
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 4, timeout=10_000)
    stored = window.companion.messages.page(None, 10)
    assert [b.message_id for b in window.transcript.bubbles] == [m["id"] for m in stored]
    assert [b.text for b in window.transcript.bubbles] == [m["content"] for m in stored]


def test_a_message_forgotten_in_a_look_leaves_the_rest_in_order(qtbot):
    """Review: a bubble withdrawn as it was placed (forgotten meanwhile) still moved the next one down, below
    the reply under way."""
    from ui.chat.transcript import Transcript

    t = Transcript()
    qtbot.addWidget(t)
    asked = t.add("user", "asked", 1)
    t.start_reply(answering=asked)
    t.forget({2})
    t.said_elsewhere(
        [
            {"id": 2, "role": "user", "content": "forgotten meanwhile", "speaker": "Ada"},
            {"id": 3, "role": "companion", "content": "kept", "speaker": "Anima"},
        ]
    )
    assert [b.text for b in t.bubbles] == ["asked", "kept", "…"]


def test_a_reader_scrolled_up_in_the_history_stays_there(qtbot, window, terminal):
    """Review: a message from elsewhere pulled a person reading old history down to the bottom."""
    for i in range(40):  # a long history on screen (its ids do not matter here)
        window.transcript.add("user" if i % 2 else "companion", f"older message {i} " + "with words " * 20)
    bar = window.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 200, timeout=10_000)
    bar.setValue(100)
    before = bar.maximum()
    talk(terminal, "from the terminal", "Hello in the terminal.")
    qtbot.waitUntil(
        lambda: (
            shown(window)[-1] == ("companion", "Hello in the terminal.")
            and bar.maximum() > before
            and laid_out(window.transcript)
        ),
        timeout=10_000,
    )
    assert bar.value() == 100


def test_a_bug_in_a_look_is_reported_and_a_busy_soul_is_looked_at_again(qtbot, window, monkeypatch):
    """Review: a look swallowed every failure at INFO, so a bug in it would have stopped the window following
    other programs without a word. A known trouble (another program writing a long while) waits for the next
    look; anything else reaches the crash handler."""
    from anima.errors import SoulBusy
    from ui import crash

    reported = []

    class Handler:
        def report(self, error):
            reported.append(error)

    monkeypatch.setattr(crash, "installed", Handler)
    qtbot.waitUntil(lambda: window.elsewhere.forgets_seen is not None, timeout=10_000)
    window.elsewhere.timer.stop()
    conversation = window.companion.conversation
    failures = [SoulBusy(), ValueError("a bug")]

    def failing(*args):
        raise failures.pop(0)

    monkeypatch.setattr(conversation, "said_elsewhere", failing)
    window.elsewhere._said_version = None  # as if another program wrote: the look reads the messages
    window.elsewhere.look()
    qtbot.waitUntil(lambda: not window.elsewhere._looking, timeout=10_000)
    assert reported == []  # SoulBusy: logged, looked at again
    window.elsewhere.look()
    qtbot.waitUntil(lambda: bool(reported), timeout=10_000)
    assert [str(e) for e in reported] == ["a bug"]


def test_a_reader_of_an_older_page_is_not_moved_by_a_message_from_elsewhere(qtbot):
    """Review: loading an older page pins the view at its distance from the bottom; a message from elsewhere
    added at the bottom then moved the reader down by its height."""
    from ui.chat.transcript import Transcript

    def message(i, text=None):
        return {
            "id": i,
            "role": "user" if i % 2 else "companion",
            "content": text or f"message {i} " + "words " * 30,
            "speaker": "Ada",
        }

    t = Transcript()
    qtbot.addWidget(t)
    t.resize(500, 400)
    t.show()
    qtbot.waitExposed(t)
    for i in range(100, 140):
        t.add(message(i)["role"], message(i)["content"], i)
    bar = t.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 1000, timeout=10_000)
    t._anchor = None  # the reader scrolls to the top
    bar.setValue(0)
    before = bar.maximum()
    t.prepend([message(i) for i in range(70, 100)])  # which loads an older page
    qtbot.waitUntil(lambda: bar.maximum() > before and laid_out(t), timeout=10_000)  # the page is laid out
    reading = bar.value()
    assert reading > 0
    before = bar.maximum()
    t.said_elsewhere([message(200, "from the terminal")])
    qtbot.waitUntil(lambda: bar.maximum() > before and laid_out(t), timeout=10_000)
    assert t.bubbles[-1].text == "from the terminal"
    assert bar.value() == reading


def busy_pages(window, monkeypatch, n: int) -> tuple[list, list]:
    """The next `n` pages of history the window reads fail as another program holding the soul a long while
    makes them fail; the list of failures still to come, and when each read was asked for."""
    import time

    from anima.errors import SoulBusy

    messages, failures, asked = window.companion.messages, [SoulBusy("kept busy") for _ in range(n)], []
    page = messages.page

    def busy_then_read(*args):
        asked.append(time.monotonic())
        if failures:
            raise failures.pop(0)
        return page(*args)

    monkeypatch.setattr(messages, "page", busy_then_read)
    return failures, asked


def test_a_newest_page_that_could_not_be_read_is_read_again_and_then_followed(qtbot, window, terminal, monkeypatch):
    """A window whose first page of history could not be read (another program held the soul past the busy
    timeout) said so, then stayed empty and followed nothing another program said until the soul was shown again.
    It says so once, reads the page again quietly until it can, and follows from there."""
    from PySide6.QtWidgets import QMessageBox

    talk(terminal, "said before the window looked", "Heard.")
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: said.append(text))
    failures, asked = busy_pages(window, monkeypatch, 2)
    window.show_history()
    qtbot.waitUntil(
        lambda: shown(window) == [("user", "said before the window looked"), ("companion", "Heard.")],
        timeout=4 * FOLLOW_MS + 5_000,
    )
    assert failures == [] and said == ["kept busy"]
    # Each wait twice the last: a page that fails every time (a damaged one) is not read every 2 s for ever.
    assert asked[2] - asked[1] > 1.5 * (asked[1] - asked[0]) and asked[1] - asked[0] >= FOLLOW_MS / 1000 - 0.1
    talk(terminal, "said after", "Heard again.")
    qtbot.waitUntil(lambda: shown(window)[-1] == ("companion", "Heard again."), timeout=2 * FOLLOW_MS + 5_000)
    assert len(shown(window)) == 4


def test_an_older_page_that_could_not_be_read_is_asked_for_at_the_next_scroll(qtbot, window, monkeypatch):
    """An older page that failed to read left the transcript waiting for it: scrolling up never loaded more."""
    from PySide6.QtWidgets import QMessageBox

    for i in range(40):
        talk(window.companion, f"old message {i} " + "with words " * 10, f"old reply {i}")
    window.show_history()
    qtbot.waitUntil(lambda: not window.reading_history and len(window.transcript.bubbles) == 30, timeout=10_000)
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: said.append(text))
    busy_pages(window, monkeypatch, 1)
    bar = window.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 100, timeout=10_000)
    bar.setValue(bar.minimum() + 1)
    bar.setValue(bar.minimum())
    qtbot.waitUntil(lambda: len(said) == 1, timeout=10_000)
    bar.setValue(bar.minimum() + 1)
    bar.setValue(bar.minimum())
    qtbot.waitUntil(lambda: len(window.transcript.bubbles) == 60, timeout=10_000)
    assert len(said) == 1
