from PySide6.QtCore import Qt


def test_enter_sends_and_shift_enter_adds_a_line(qtbot, window):
    window.companion.chat.enqueue("**Yes**, two lines.")
    window.input.setFocus()
    qtbot.keyClicks(window.input, "first line")
    qtbot.keyClick(window.input, Qt.Key_Return, Qt.ShiftModifier)
    qtbot.keyClicks(window.input, "second line")
    assert window.input.toPlainText() == "first line\nsecond line"
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(
        lambda: window.worker is None and window.transcript.bubbles[-1].message_id is not None, timeout=10_000
    )
    assert window.transcript.bubbles[-2].text == "first line\nsecond line"
    assert window.input.toPlainText() == ""
    # Shown as they were typed, on two lines, and the reply's Markdown rendered.
    assert "first line<br />\nsecond line" in window.transcript.bubbles[-2].label.text()
    assert "<strong>Yes</strong>" in window.transcript.bubbles[-1].label.text()


def test_history_loads_lazily_when_scrolled_to_the_top(qtbot, fake_companion):
    from anima.knowledge.messages import NewMessage
    from anima.settings import Settings
    from ui.window import MainWindow

    fake_companion.messages.record_many(
        [NewMessage("user" if i % 2 == 0 else "companion", f"old message {i}") for i in range(100)]
    )
    w = MainWindow(fake_companion, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: len(w.transcript.bubbles) >= 30, timeout=10_000)
    assert w.transcript.bubbles[-1].text == "old message 99"
    assert len(w.transcript.bubbles) < 100  # not everything at once
    bar = w.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=10_000)  # at the newest
    shown = len(w.transcript.bubbles)
    w.transcript.verticalScrollBar().setValue(1)
    w.transcript.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: len(w.transcript.bubbles) > shown, timeout=10_000)
    oldest = int(w.transcript.bubbles[0].text.split()[-1])
    assert oldest < 100 - shown


def test_messages_typed_while_the_companion_opens_stay_shown_below_its_history(qtbot, fake_companion):
    """QA: two messages typed while the window said "Opening your companion…" vanished from the chat when it
    opened (the transcript was cleared for the soul's history); they were stored and answered, and the chat showed
    two replies with no question above them."""
    from anima.knowledge.messages import NewMessage
    from anima.settings import Settings
    from ui.window import MainWindow

    fake_companion.messages.record_many(
        [NewMessage("user", "an old question"), NewMessage("companion", "an old answer")]
    )
    fake_companion.chat.enqueue("First answer.")
    fake_companion.chat.enqueue("Second answer.")
    w = MainWindow(None, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    for text in ("first, before it opened", "second, before it opened"):
        w.input.setFocus()
        qtbot.keyClicks(w.input, text)
        qtbot.keyClick(w.input, Qt.Key_Return)
    assert [b.text for b in w.transcript.bubbles] == ["first, before it opened", "second, before it opened"]
    w.set_companion(fake_companion)
    qtbot.waitUntil(
        lambda: (
            w.worker is None
            and not w.queued
            and len(w.transcript.bubbles) == 6
            and w.transcript.bubbles[-1].message_id is not None
        ),
        timeout=20_000,
    )
    # Both stay where they were typed, below the history, and each answer comes right below its message: the
    # order the soul stores them in, and the history shows them in when the window is opened again.
    assert [(b.role, b.text) for b in w.transcript.bubbles] == [
        ("user", "an old question"),
        ("companion", "an old answer"),
        ("user", "first, before it opened"),
        ("companion", "First answer."),
        ("user", "second, before it opened"),
        ("companion", "Second answer."),
    ]
    assert None not in [b.message_id for b in w.transcript.bubbles]  # each knows the message it was stored as
    assert [m["content"] for m in fake_companion.messages.page(None, 10)][-4:] == [
        "first, before it opened",
        "First answer.",
        "second, before it opened",
        "Second answer.",
    ]


def test_a_message_sent_while_the_history_is_read_waits_its_turn(qtbot, fake_companion, monkeypatch):
    """Review: between the companion opening and its history shown, a message typed then went at once, before
    those typed while it opened, and the page read meanwhile could hold it too (shown twice)."""
    import threading

    from anima.settings import Settings
    from tests.ui.test_disk_full import typed
    from ui.window import MainWindow

    fake_companion.chat.enqueue("First answer.")
    fake_companion.chat.enqueue("Second answer.")
    reading, release = threading.Event(), threading.Event()
    real = fake_companion.messages.page

    def page(*args, **kwargs):
        reading.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(fake_companion.messages, "page", page)
    w = MainWindow(None, Settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    typed(qtbot, w, "typed while it opened")
    w.set_companion(fake_companion)
    qtbot.waitUntil(reading.is_set, timeout=10_000)
    typed(qtbot, w, "typed while its history was read")
    assert w.worker is None and len(w.queued) == 2  # both wait for the history
    release.set()
    qtbot.waitUntil(
        lambda: (
            w.worker is None
            and not w.queued
            and len(w.transcript.bubbles) == 4
            and w.transcript.bubbles[-1].message_id is not None
        ),
        timeout=20_000,
    )
    stored = [m["content"] for m in real(None, 10)]
    assert stored == ["typed while it opened", "First answer.", "typed while its history was read", "Second answer."]
    assert [b.text for b in w.transcript.bubbles] == stored  # each answer below its message


def test_messages_queued_behind_a_reply_keep_their_order_when_the_soul_goes_away(qtbot, window, held_reply):
    """Review: a queued message that could not go (no companion: an import closing the soul) was put back at the
    end of the line, so the next soul received them out of order."""
    from tests.ui.test_disk_full import said, typed

    c = window.companion
    for reply in ("One.", "Two.", "Three."):
        c.chat.enqueue(reply)
    typed(qtbot, window, "first")
    qtbot.waitUntil(held_reply.holding.is_set, timeout=10_000)
    typed(qtbot, window, "second")
    typed(qtbot, window, "third")
    assert [text for text, _, _ in window.queued] == ["second", "third"]
    window.companion = None  # as an import does while it swaps the soul
    held_reply.release.set()
    qtbot.waitUntil(lambda: window.worker is None, timeout=10_000)
    assert [text for text, _, _ in window.queued] == ["second", "third"]
    window.set_companion(c)
    qtbot.waitUntil(lambda: window.worker is None and not window.queued and len(said(c)) == 6, timeout=20_000)
    assert said(c) == ["first", "One.", "second", "Two.", "third", "Three."]


def test_a_reply_can_be_stopped(qtbot, window):
    window.companion.chat.delay = 0.002
    window.companion.chat.enqueue(" ".join(f"word{i}" for i in range(5000)))
    window.input.setFocus()
    qtbot.keyClicks(window.input, "talk a lot")
    qtbot.keyClick(window.input, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.stop.isEnabled() and len(window.transcript._pending) > 20, timeout=5_000)
    qtbot.mouseClick(window.stop, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.worker is None, timeout=10_000)
    stored = window.companion.soul.query("SELECT content FROM messages WHERE role = 'companion'")
    assert len(stored) == 1 and len(stored[0]["content"].split()) < 5000


def test_the_send_button_sends_and_gives_its_place_to_stop_while_the_reply_streams(qtbot, window):
    window.companion.chat.delay = 0.002
    window.companion.chat.enqueue(" ".join(f"word{i}" for i in range(300)))
    assert window.send_button.isVisible() and not window.stop.isVisible()
    qtbot.keyClicks(window.input, "hello by button")
    qtbot.mouseClick(window.send_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.stop.isVisible() and window.stop.isEnabled(), timeout=5_000)
    assert not window.send_button.isVisible() and window.input.toPlainText() == ""
    qtbot.waitUntil(lambda: window.worker is None, timeout=20_000)
    assert window.send_button.isVisible() and not window.stop.isVisible()
    assert window.transcript.bubbles[-2].text == "hello by button"
    qtbot.mouseClick(window.send_button, Qt.LeftButton)  # nothing typed: nothing sent
    assert window.worker is None and len(window.transcript.bubbles) == 2


def test_a_pause_in_typing_hands_the_draft_to_the_companion_and_never_blocks(qtbot, window, monkeypatch):
    drafts = []
    monkeypatch.setattr(window.companion, "read_draft", drafts.append)
    window.input.setFocus()
    with qtbot.waitSignal(window.input.drafted, timeout=5_000):
        qtbot.keyClicks(window.input, "who teaches me piano?")
    assert drafts == ["who teaches me piano?"]
    window.input.clear()
    window.worker = object()  # a reply is under way: the model is busy with it, no reading along
    with qtbot.waitSignal(window.input.drafted, timeout=5_000):
        qtbot.keyClicks(window.input, "and then?")
    window.worker = None
    assert drafts == ["who teaches me piano?"]


def test_closing_during_a_reply_slow_to_stop_never_freezes_the_window_and_quits_after_it(qtbot, window, held_reply):
    """The model notices the cancel only when it is released: closing returns at once, the window is out of use
    meanwhile, and it closes for real (the app's last window: it quits) once the turn has kept what it keeps."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tests.ui.test_disk_full import said, typed

    c = window.companion
    c.chat.enqueue("Let me think about that for a long while, word after word.")
    typed(qtbot, window, "tell me everything")
    qtbot.waitUntil(held_reply.holding.is_set, timeout=10_000)
    window.close()
    # Closing did not wait for the model: the reply is still under way, and the window says it is closing.
    assert window.worker is not None and window.worker.isRunning()
    assert window.isVisible() and not window.isEnabled()
    assert window.statusBar().currentMessage().startswith("Closing")
    # The app's own loop, as app.main runs it: it ends by itself when the last window has closed.
    app = QApplication.instance()
    QTimer.singleShot(0, held_reply.release.set)
    bound = QTimer(singleShot=True, interval=30_000)
    bound.timeout.connect(lambda: app.exit(1))  # never reached when it quits; a failing test does not hang
    bound.start()
    assert app.exec() == 0
    bound.stop()
    assert not window.isVisible() and window.worker is None
    assert said(c) == ["tell me everything", "Let"]  # what the turn kept of a cancelled reply, as on Stop


def test_a_message_another_program_forgot_leaves_the_transcript(qtbot, window, anima_home):
    """`anima chat` (here, a second connection to the same soul) forgets a message the window shows: its bubble
    goes within seconds, with no turn needed, as when it is forgotten in this window's Open Mind."""
    from anima.store import Home
    from tests.conftest import PASSPHRASE
    from tests.ui.conftest import send

    window.companion.chat.enqueue("Rex sounds lovely.", "Noted.")
    send(qtbot, window, "My dog Rex chews everything")
    send(qtbot, window, "The weather is grey")
    [rex] = [b for b in window.transcript.bubbles if b.text == "My dog Rex chews everything"]
    with Home(anima_home).unlock(PASSPHRASE) as other:
        other.forget("message", rex.message_id)
    qtbot.waitUntil(lambda: all("Rex chews" not in b.text for b in window.transcript.bubbles), timeout=10_000)
    assert [b.text for b in window.transcript.bubbles if b.role == "user"] == ["The weather is grey"]


def test_an_open_mind_view_follows_what_another_program_forgot(qtbot, window, anima_home):
    """The Episodes view is open; `anima chat` forgets a message an episode was made of. Within seconds the view
    shows the episode marked and its summary gone, with no click."""
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    c = window.companion
    said = c.messages.record("user", "I told Quillonby my secret")
    c.episodes.record("Ada told Quillonby her secret", [said], significance=0.5)
    window.toggle_mind()
    view = window.mind.open_view("Episodes")
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)

    def cells():
        return [view.table.text(i, j) for i in range(view.table.rowCount()) for j in range(view.table.columnCount())]

    assert any("Quillonby" in t for t in cells())
    with Home(anima_home).unlock(PASSPHRASE) as other:
        other.forget("message", said)
    qtbot.waitUntil(lambda: not any("Quillonby" in t for t in cells()), timeout=10_000)
    assert any("made again" in t for t in cells())


def test_an_open_mind_view_follows_what_another_program_wrote(qtbot, window, anima_home):
    """Not only forgets: deep reflection in `anima chat` making an episode again (no forget of its own), or
    correcting one, shows in the open view within seconds."""
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    c = window.companion
    said = c.messages.record("user", "We walked to the lighthouse")
    episode = c.episodes.record("Ada walked to the lighthouse", [said], significance=0.5)
    window.toggle_mind()
    view = window.mind.open_view("Episodes")
    qtbot.waitUntil(lambda: view.loaded and bool(view.rows), timeout=10_000)
    qtbot.waitUntil(lambda: window.elsewhere.forgets_seen is not None, timeout=10_000)  # the window has looked once
    with Home(anima_home).unlock(PASSPHRASE) as other:
        with other.transaction() as con:
            con.execute(
                "UPDATE episodes SET summary = 'Ada and Jo walked to the old lighthouse' WHERE id = ?", (episode,)
            )
    qtbot.waitUntil(lambda: view.table.text(0, 1) == "Ada and Jo walked to the old lighthouse", timeout=10_000)


def test_the_message_box_grows_with_what_is_typed_and_no_further_than_eight_lines(qtbot, window):
    box = window.input
    two_lines = box.height()
    assert two_lines < 90  # compact when empty: room for the placeholder's two lines
    for i in range(4):
        qtbot.keyClicks(box, f"line {i}")
        qtbot.keyClick(box, Qt.Key_Return, Qt.ShiftModifier)
    assert box.height() > two_lines
    for _ in range(20):
        qtbot.keyClick(box, Qt.Key_Return, Qt.ShiftModifier)
    tallest = box.height()
    qtbot.keyClick(box, Qt.Key_Return, Qt.ShiftModifier)
    assert box.height() == tallest < 8 * two_lines / 2 + 30
    box.clear()
    assert box.height() == two_lines
