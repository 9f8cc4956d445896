"""The main window: the chat, the Open Mind beside it, and the app's actions.

It paints before the core is loaded: the companion is attached afterwards
(`set_companion`), and a message typed before that waits in a queue. Changes
that wait for the person's say (proposals) are noted quietly in the status
line, a link to them in the Open Mind.

When the person has been idle for IDLE_MS (no typing, no turn) and there is
something to reflect on, the companion reflects deeply in a QThread
(tasks.ReflectWorker), once per idle stretch; "Reflect now" asks for it at any
time. A turn sent meanwhile pre-empts it (the core sees to that) and the window
never waits on it; "Reflecting…" shows quietly while it runs, and the Open Mind
shows what it made when it ends.
"""

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from anima import __version__
from anima.errors import DiskError, DiskFull, KnownError, SoulBusy

from . import access, errors, responsive, tasks, theme, window_state
from .chat import noted
from .chat.attachments import outside
from .chat.disk_banner import DiskBanner
from .chat.elsewhere import FOLLOW_MS, Elsewhere
from .chat.input import MessageBox
from .chat.message_actions import Actions
from .chat.sidebar import Sidebar
from .chat.transcript import Bubble, Transcript
from .reaching_out import ReachingOut

if TYPE_CHECKING:
    from anima.companion import Companion
    from anima.knowledge.messages import External

    from .chat.search import SearchPopup
    from .mind.panel import OpenMind

IDLE_MS = 3 * 60_000  # idle this long (no typing, no turn): the companion reflects deeply
TITLE = f"Anima {__version__}"  # the app's name and version, in every title
NEWEST_AGAIN_MOST_MS = 60_000  # the longest wait between reads of a newest page of history that failed
log = logging.getLogger(__name__)


# px: a window narrower than this hides the conversations while the Open Mind is open beside the chat
BESIDE_THE_MIND = 1150


class MainWindow(QMainWindow):
    # Said from the companion's background thread; shown on the UI thread.
    background_failed = Signal(str)
    proposals_changed = Signal()
    reflected = Signal(object)  # deep reflection ended: what it did (anima's Deepened), or None
    # Its first paint has been shown: what waits for the window to be seen (the core's import, the unlock) may start.
    # Said from its own paintEvent, not an application-wide event filter: that one took every event of the start
    # through Python, ~5 ms of the ~190 ms to the first paint (bench ui's paint ratio).
    first_painted = Signal()
    idle_ms = IDLE_MS  # a test sets a shorter one

    def __init__(self, companion: "Companion | None" = None, settings=None, parent=None):
        super().__init__(parent)
        responsive.keep_up()  # before any other thread runs Python beside this one
        self._painted = False
        self.companion: Companion | None = None
        self.settings = settings
        self.setWindowTitle(TITLE)
        self.resize(1100, 720)
        if settings is not None:
            window_state.restore(self, settings)  # before it is shown: it never jumps
        self._mind_restored = False  # the Open Mind was opened once at start, as it was left
        self.worker: tasks.TurnWorker | None = None
        self.reflecting: tasks.ReflectWorker | None = None
        self.closing = False  # the person closed it: it goes once the reply (or reflection) under way has stopped
        self.cancel: threading.Event | None = None
        # Sent while a reply was under way (or before the companion was ready): (typed text, attachments, its
        # bubble, or None when it is not shown yet), oldest first.
        self.queued: list[tuple[str, list[External], Bubble | None]] = []
        # While a soul's newest page is read, a token: nothing is sent meanwhile.
        self._history_pending: object | None = None

        self.transcript = Transcript()
        self.transcript.setAccessibleName("Conversation")
        access.InOrder(self.transcript)  # its "Why?" buttons come right after it on Tab, oldest first
        self.transcript.wants_older.connect(self.load_older)
        self.transcript.why_asked.connect(self.show_why)
        self.message_actions = Actions(self)  # what a message's own buttons do (chat/message_actions.py)
        self.input = MessageBox()
        self.transcript.opener_chosen.connect(self.input.start_with)
        self.input.send.connect(self.send)
        self.input.drafted.connect(self.read_along)
        self.input.textChanged.connect(self.note_activity)
        self.stop = QPushButton("Stop")
        self.stop.setEnabled(False)
        self.stop.setToolTip("End the reply here (Esc)")
        self.stop.clicked.connect(self.stop_reply)
        self.attach = QPushButton("Attach file…")
        self.attach.setToolTip("Send a text file with your message, marked as text from outside")
        self.attach.clicked.connect(self.attach_file)
        # Send where Stop is while no reply streams (one place to look, as chat apps have it); Enter sends too.
        self.send_button = QPushButton("Send")
        self.send_button.setToolTip("Send your message (Enter)")
        self.send_button.setDefault(True)  # drawn in the accent: the main thing to press here
        self.send_button.clicked.connect(self.input.submit)
        buttons = QVBoxLayout()
        buttons.addWidget(self.attach)
        buttons.addWidget(self.stop)
        buttons.addWidget(self.send_button)
        self.stop.hide()
        row = QHBoxLayout()
        row.addWidget(self.input)
        row.addLayout(buttons)
        chat = QWidget()
        col = QVBoxLayout(chat)
        col.addWidget(self.transcript)
        # A full disk or a busy soul: the message goes back to the box and is sent again.
        self.disk_banner = DiskBanner()
        self.disk_banner.retry.connect(self.retry_waiting)
        col.addWidget(self.disk_banner)
        col.addWidget(self.input.attachments)
        col.addLayout(row)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        # The conversations at the left (ui/chat/sidebar.py); `showing`: the one the transcript shows (None: the
        # whole history, as the window opens).
        self.showing: str | None = None
        self.sidebar = Sidebar(
            lambda: self.companion, self.show_conversation, lambda: not self._can_send() or bool(self.queued)
        )
        self.split.addWidget(chat)
        self.sidebar.setVisible(settings is None or getattr(settings, "sidebar_shown", True))
        self._search: SearchPopup | None = None
        self.beside = QSplitter(Qt.Orientation.Horizontal)  # the sidebar, then the chat and the Open Mind
        self.beside.addWidget(self.sidebar)
        self.beside.addWidget(self.split)
        self.beside.setStretchFactor(1, 1)
        self.beside.setSizes([220, 880])
        self.setCentralWidget(self.beside)
        self._mind: OpenMind | None = None  # the Open Mind: built when first wanted (mind)
        self._pending_count = 0

        self.loading = QProgressBar()
        self.loading.setRange(0, 0)
        self.loading.setMaximumWidth(160)
        self.loading_label = QLabel("Starting…")  # the core loads; whether a companion exists is not known yet
        self.busy = QLabel("")
        self.reflecting_label = QLabel("")  # quiet: the companion reflects deeply
        self.reflecting_label.setObjectName("reflecting")
        self.reflecting_label.setStyleSheet("color: palette(placeholder-text);")
        self.trouble = QLabel("")  # work between turns that failed: a bug, also in the log
        theme.tone(self.trouble, "error")
        self.pending = QLabel("")  # changes that wait for the person's say: a link to them
        self.pending.setObjectName("pending-changes")
        self.pending.setTextFormat(Qt.TextFormat.RichText)
        self.pending.linkActivated.connect(lambda _: self.show_proposals())
        self.background_failed.connect(self.show_background_failure)
        self.proposals_changed.connect(self.refresh_pending)  # queued: the core tells from its own threads
        status = QStatusBar()
        status.addWidget(self.loading_label)
        status.addWidget(self.loading)
        status.addWidget(self.trouble)
        status.addWidget(self.pending)
        self.model_label = QLabel("")  # the model in use (Anima ▸ Choose the mind… changes it, without a restart)
        self.model_label.setObjectName("model-in-use")
        status.addPermanentWidget(self.model_label)
        status.addPermanentWidget(self.reflecting_label)
        status.addPermanentWidget(self.busy)
        self.setStatusBar(status)
        self.poll = QTimer(self, interval=250)
        self.poll.timeout.connect(self.update_status)
        self.poll.start()
        # What another program says (`anima chat`, another window) shows here too, within seconds, and what it
        # forgot leaves.
        self.elsewhere = Elsewhere(
            self.transcript, lambda: self.companion, self._unsaved, self._written_elsewhere, self
        )
        self._asked = False  # the person already said to close, losing what waits (quit_asked)
        self.idle = QTimer(self, singleShot=True)
        self.idle.timeout.connect(self.idle_reached)
        self.reaching_out = ReachingOut(self)  # it may write first, within the person's limits; the tray
        self._menu()
        access.name_controls(self)
        self.input.setFocus()
        if companion is not None:
            self.set_companion(companion)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self.first_painted.emit)  # once this paint is on the screen

    def _menu(self):
        from . import menus

        self.actions_by_name = menus.build(self)  # declared in menus.py, with what each runs
        self.mind_action = self.actions_by_name["toggle_mind"]  # its text says when changes wait for the person

    def set_theme(self, choice: str) -> None:
        """View ▸ Theme: applied at once, and kept in the settings."""
        theme.use(choice)
        if self.settings is not None:
            self.settings.theme = choice
            tasks.run(self.settings.save, None, lambda e: errors.show(self, e), self)

    def show_shortcuts(self) -> None:
        from .help import ShortcutSheet

        ShortcutSheet(self).exec()

    def show_about(self) -> None:
        from .help import AboutDialog

        AboutDialog(self, self.companion).exec()

    def set_companion(self, companion: "Companion", looks: tuple[str, bytes] | None = None) -> None:
        """Show a soul: at start, or another one after an import (a fresh transcript and Open Mind). `looks`: its
        name and picture, read off the UI thread (open_companion); else read here."""
        self._stop_reflecting()  # the old soul's (an import closed it, which stopped it already)
        self.companion = companion
        self.show_looks(*(looks if looks is not None else (companion.name, companion.characters.avatar())))
        self.trouble.setText("")
        companion.on_background_failure(self.background_failed.emit)
        companion.on_proposals(self.proposals_changed.emit)
        if self._mind is not None:  # the last soul's
            self._mind.deleteLater()
            self._mind = None
        self.showing = None
        self.show_history()
        self.sidebar.refresh()
        self.update_status()
        self.show_pending(0)
        self.refresh_pending()
        self.note_activity()
        if not self._mind_restored and self.settings is not None and self.settings.mind_open:
            self._mind_restored = True
            self.toggle_mind()  # open, as it was left when the window last closed

    def show_looks(self, name: str, picture: bytes | None) -> None:
        """The companion's name in the title, and its picture (its card's, if it came from one) as the icon."""
        self.setWindowTitle(f"{name} — {TITLE}")
        self.transcript.set_names(name)
        pixmap = QPixmap()
        if picture and pixmap.loadFromData(picture):
            self.setWindowIcon(QIcon(pixmap))

    def show_history(self, same_soul: bool = False, then: Callable[[], None] = lambda: None, most: int = 30) -> None:
        """The transcript anew, from the soul's newest page of history. A message typed while the companion opened
        stays, below that history, and so does a reply under way on the same soul (`same_soul`: a card was
        applied to it). Nothing is sent until that page is shown, so the page cannot hold a message sent meanwhile
        too, and messages go in the order they were typed."""
        keep: list[Bubble | None] = [bubble for _, _, bubble in self.queued if bubble is not None]
        if same_soul and self.worker is not None:
            keep += [self.worker.bubble, self.transcript.streaming]
        self.transcript.clear(keep=keep)
        self.elsewhere.reset()
        token = self._history_pending = object()
        self.load_older(None, then=lambda: self._history_shown(token, then), most=most)

    def _history_shown(self, token, then: Callable[[], None] = lambda: None) -> None:
        if self._history_pending is token:  # not a page read for a soul shown before this one
            self._history_pending = None
            then()
            self._send_queued()

    @property
    def reading_history(self) -> bool:
        """Whether the soul's newest page of history is still being read: a message sent now waits for it."""
        return self._history_pending is not None

    def _can_send(self) -> bool:
        """Whether a message may go now: a companion shown, its history shown, no reply under way."""
        return self.worker is None and self.companion is not None and not self.reading_history

    def _send_queued(self) -> None:
        """Send the next message waiting, unless something holds it; it stays first in line if so."""
        if self.queued and self._can_send() and not self.disk_banner.waiting and not self.closing:
            self._send(*self.queued.pop(0))

    def open_companion(self, build, failed, then=lambda companion: None) -> None:
        """Build a companion off the UI thread, then show it (and then(companion)). Its constructor reads the soul,
        which another program may hold or a slow disk delay, and so do its name and picture: the window paints
        meanwhile, and a message typed then waits in the queue. `failed(error)` is told on the UI thread."""

        def opened():
            companion = build()
            return companion, (companion.name, companion.characters.avatar())

        def built(done) -> None:
            companion, looks = done
            if self.closing:  # closed meanwhile: nothing to show it in; the app closes it as it quits (app.main)
                self.companion = companion
                return
            self.set_companion(companion, looks)
            then(companion)

        self.show_opening(True)
        tasks.run(opened, built, failed, self)

    def show_opening(self, on: bool) -> None:
        """Say that the companion is opening, with a spinner; or nothing (a dialog asks first: no companion yet)."""
        self.loading_label.setText("Opening your companion…" if on else "")
        self.loading.setVisible(on)

    # ---- chat ---------------------------------------------------------------

    def send(self, text: str, external: Sequence["External"] = ()) -> None:
        """Send the typed text and the attachments (External: text from outside) that go with it."""
        external = list(external)
        if self.disk_banner.waiting:
            self.disk_banner.clear()  # the person sent what waited in the box themselves
        self._send(text, external, self._echo(text, external))

    def _echo(self, text: str, external: list["External"]) -> Bubble:
        return self.transcript.add("user", text, outside=[(e.label, e.text) for e in external])

    def _send(self, text: str, external: list["External"], bubble: Bubble | None) -> None:
        """Start the turn of a message whose bubble is shown (or None: shown now), or queue it behind the one under
        way."""
        if not self._can_send():
            self.queued.append((text, external, bubble))  # written before the companion was ready, or while it replies
            return
        if bubble is None:  # it was withdrawn while a failed message waited: shown now, in the order it goes out
            bubble = self._echo(text, external)
        self.idle.stop()  # a turn: no idle stretch until it has ended (it pre-empts deep reflection itself)
        self.transcript.start_reply(answering=bubble)
        self.cancel = threading.Event()
        assert self.companion is not None  # _can_send
        self._start(tasks.TurnWorker(self.companion, text, self.cancel, self, external=external), bubble)

    def run_again(self, begin, bubble: Bubble, reply: Bubble | None = None, then=lambda: None) -> None:
        """A turn on the last exchange (chat/message_actions.py): `begin(cancel)` makes its stream; `bubble`: the
        message it answers; `reply`: a reply that streams on (continued), else a new one below `bubble`; `then()`
        once it has ended, whichever way."""
        if self.worker is not None or self.companion is None:
            return
        self.idle.stop()
        if reply is None:
            self.transcript.start_reply(answering=bubble)
        else:
            self.transcript.resume_reply(reply)
        self.cancel = threading.Event()
        worker = tasks.TurnWorker(self.companion, "", self.cancel, self, begin=begin)
        self._start(worker, bubble, then)

    def _start(self, worker: tasks.TurnWorker, bubble: Bubble, then=None) -> None:
        """Start a turn's worker; `then()` once the window has taken its reply (or its failure)."""
        self.worker = worker
        worker.bubble = bubble
        worker.recorded.connect(lambda ids: self.transcript.recorded(bubble, ids))
        worker.piece.connect(self.transcript.piece)
        worker.finished_turn.connect(self.reply_done)
        worker.failed.connect(self.reply_failed)
        if then is not None:  # after those two: slots run in the order they were connected
            worker.finished_turn.connect(lambda _: then())
            worker.failed.connect(lambda _: then())
        worker.finished.connect(self._thread_ended)  # after the signals above: they are handled first
        self._streaming(True)
        self.message_actions.refresh()
        worker.start()

    def _streaming(self, yes: bool) -> None:
        """Stop in Send's place while a reply streams; Send back once it ended."""
        self.stop.setEnabled(yes)
        self.stop.setVisible(yes)
        self.send_button.setVisible(not yes)

    def read_along(self, text: str) -> None:
        # Only while no reply is under way; the companion reads in its own thread and never blocks the window.
        if self.worker is None and self.companion is not None:
            self.companion.read_draft(text)

    def attach_file(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, "Attach a text file", "", "Text files (*.txt *.md *.csv *.json *.log);;All files (*)"
        )
        for path in paths:
            self.input.attach_file(path)
        self.input.setFocus()

    def reply_done(self, turn) -> None:
        self.disk_banner.saved()  # a turn was saved: there is room again, and the soul is free
        self.sidebar.turn_ended()
        reply = self.transcript.streaming
        self.transcript.end_reply(turn.reply_id, turn.text)  # as stored: no remote image, no link with data
        if turn.not_kept and reply is not None:
            reply.mark_unsaved()  # something was forgotten while it was written: shown, never kept
        self.message_actions.replied(reply, turn)  # "Stopped", "Cut off"
        noted.follow(self, turn, reply)  # "Noted: ... · Undo · Open" under it, once learning from it is done
        self._next()

    def _recorded(self, error) -> None:
        """A turn that failed after storing its message: its bubble gets the ids, so that forgetting it (or what
        was sent with it) takes it off the screen. A turn that began told them already (TurnWorker.recorded)."""
        ids = getattr(error, "user_ids", None)
        if ids:
            assert self.worker is not None  # the turn that failed
            self.transcript.recorded(self.worker.bubble, ids)

    def reply_failed(self, error) -> None:
        if isinstance(error, (DiskFull, DiskError, SoulBusy)) and self.companion is not None:
            self._not_saved(error)
            return
        self._recorded(error)
        self.transcript.end_reply(None)
        self._next()
        errors.show(self, error)

    def _not_saved(self, error) -> None:
        """A full (or failing) disk, or a soul another program kept busy, during a turn: a banner, not a dialog.
        A message that was not saved goes back into the box and is sent again when there is room (or in a few
        seconds, for a busy soul), before the messages queued behind it; one that was saved stays in the
        transcript, and the reply that was not is marked so."""
        worker, reply = self.worker, self.transcript.streaming
        assert worker is not None and self.companion is not None  # the turn that failed (reply_failed)
        self.transcript.end_reply(None)
        waiting = not getattr(error, "message_saved", False)
        if waiting:
            self.transcript.withdraw([worker.bubble, reply])
            self.input.give_back(worker.text, worker.external)
            self._hold_queued()
        else:
            self._recorded(error)
            if reply is not None:
                reply.mark_unsaved()
        said = str(error) if waiting else f"{error} Your message was saved; the reply was not."
        if isinstance(error, SoulBusy):
            self.disk_banner.show_busy(said, waiting, len(self.queued))
        else:
            self.disk_banner.show_full(said, self.companion.home.dir, waiting, len(self.queued))
        self._next()

    def _unsaved(self) -> list:
        """The bubbles of messages not stored yet: the one being answered (until the core says its ids), those
        queued. What another program says meanwhile shows above them."""
        waiting = [bubble for _, _, bubble in self.queued if bubble is not None]
        if self.worker is not None and self.worker.bubble.message_id is None:
            waiting.append(self.worker.bubble)
        return waiting

    def _hold_queued(self) -> None:
        """Messages queued behind one that went back to the box wait for it: their bubbles are withdrawn, and each
        is shown again as it goes out, after the one before it has been answered."""
        self.transcript.withdraw([bubble for _, _, bubble in self.queued if bubble is not None])
        self.queued = [(text, external, None) for text, external, _ in self.queued]

    def retry_waiting(self) -> None:
        """Retry (the banner's button, or the banner itself): send what waits in the box, else what is queued."""
        if not self.input.submit() and self.queued and self._can_send():
            self._send(*self.queued.pop(0))

    def _next(self) -> None:
        assert self.worker is not None  # the turn that ended
        self.worker.wait()
        self.worker = None
        self._streaming(False)
        self.message_actions.refresh()
        self.refresh_mind()
        self.note_activity()
        # While a message that could not be saved waits in the box, those after it wait too: they go after it.
        self._send_queued()

    # ---- conversations (ui/chat/sidebar.py, ui/chat/search.py) ---------------------------

    def new_conversation(self) -> None:
        """A new conversation (Ctrl+N): the transcript empties; the companion still remembers the others."""
        self.sidebar.new_conversation()

    def open_conversation(self, session: str, message_id: int | None = None) -> None:
        """Go on with an earlier conversation, scrolled to `message_id` (highlighted) when it is given."""
        self.sidebar.open(session, message_id)

    def show_conversation(self, session: str, message_id: int | None) -> None:
        """The companion switched to `session`: the transcript shows it (down to `message_id`, highlighted)."""
        from .chat.search import show_found

        self.showing = session
        companion = self.companion

        def shown() -> None:
            if message_id is not None and companion is self.companion and self.showing == session:
                show_found(self.transcript, message_id)

        if message_id is None or companion is None:
            self.show_history(then=shown)
            return
        # A page reaching down to the message: the newest messages of the conversation up to it, and a few before.
        tasks.run(
            lambda: companion.conversations.newer_than(session, message_id) + 5,
            lambda most: self.show_history(then=shown, most=max(30, most)),
            lambda e: errors.show(self, e),
            self,
        )

    def _sidebar_wanted(self) -> bool:
        return self.settings is None or self.settings.sidebar_shown

    def resizeEvent(self, event) -> None:
        """The conversations step aside while the Open Mind is open in a narrow window, and come back when it is
        made wide again (they stayed hidden at 1400 px once the Open Mind had opened at 900)."""
        super().resizeEvent(event)
        if self._mind is not None and self._mind.isVisible() and self._sidebar_wanted():
            fits = event.size().width() >= BESIDE_THE_MIND
            if fits != self.sidebar.isVisible():
                self.sidebar.setVisible(fits)

    def toggle_sidebar(self) -> None:
        """Show or hide the conversations (remembered in the settings)."""
        shown = self.sidebar.isHidden()
        self.sidebar.setVisible(shown)
        if self.settings is not None:
            self.settings.sidebar_shown = shown
            tasks.run(self.settings.save, None, lambda e: errors.show(self, e), self)

    def search_conversations(self) -> None:
        """Search every conversation (Ctrl+K); a result chosen opens its conversation at that message."""
        if self._search is None:
            from .chat.search import SearchPopup

            self._search = SearchPopup(lambda: self.companion, self)
            self._search.chosen.connect(self.open_conversation)
        self._search.open_search()

    def forgotten(self, gone) -> None:
        """Something was forgotten in the Open Mind: the bubbles of messages that went leave the transcript."""
        self.transcript.forget({item_id for kind, item_id in gone.items if kind == "message"})

    def stop_reply(self) -> None:
        if self.cancel is not None:
            self.cancel.set()

    def keyPressEvent(self, event) -> None:
        # Esc reaches the window from whichever widget has the focus (none of them takes it): not a shortcut, which
        # waits for the window to be active (a virtual screen with no window manager never makes it so).
        if event.key() == Qt.Key.Key_Escape:
            self.escape()
            return
        super().keyPressEvent(event)

    def escape(self) -> None:
        """Esc: a reply under way stops, as Stop does; else a message being edited is left as it was."""
        if self.worker is not None:
            self.stop_reply()
        else:
            self.message_actions.escape()

    def load_older(self, before_id, then=lambda: None, again: int = 0, most: int = 30) -> None:
        """A page of history above what is shown; then `then()`, whether it was read or not.

        A page that could not be read (another program holding the soul past the busy timeout, a read error) is
        said once. The newest is then read again, quietly, after FOLLOW_MS and then twice as long each time (to a
        minute: a damaged page fails every time), until it is: the window follows what other programs say only
        from there. `again`: the ms waited before this read. An older one is asked for at the next scroll up."""
        if self.companion is None:
            then()
            return
        companion, session = self.companion, self.showing

        def load():
            from .chat import rich_text

            rich_text.warm()  # here, off the UI thread: the page's bubbles render with what it loads
            page = (
                companion.messages.page(before_id, most)
                if session is None
                else companion.messages.page(before_id, most, session=session)
            )
            # One conversation's newest page: what others say is followed from the soul's newest message.
            newest = companion.messages.newest(1) if session is not None and before_id is None else page
            return [{**m, "outside": outside(m)} for m in page], newest

        def shown(loaded) -> None:
            page, newest = loaded
            if companion is not self.companion or session != self.showing:  # swapped out while it was read
                then()
                return

            def placed() -> None:  # (a few bubbles at a time: the window paints meanwhile)
                if companion is self.companion and session == self.showing:  # not swapped out meanwhile either
                    self.message_actions.refresh()
                    if before_id is None:  # its newest: what another program says after it shows as it comes
                        self.elsewhere.history_read(newest)
                then()

            self.transcript.prepend(page, then=placed)

        def failed(error) -> None:
            known = isinstance(error, KnownError)
            try:
                if again and known:
                    log.info("the newest page of history is still unread (%s); reading it again", type(error).__name__)
                else:
                    errors.show(self, error)
            finally:
                if before_id is not None:
                    self.transcript.older_unread()
                elif known:
                    wait = min(2 * again, NEWEST_AGAIN_MOST_MS) if again else FOLLOW_MS
                    QTimer.singleShot(wait, self, lambda: self._read_newest_again(companion, wait))
                then()

        tasks.run(load, shown, failed, self)

    def _read_newest_again(self, companion: "Companion", waited: int) -> None:
        # Not for a soul swapped out since, nor once a page of it is shown (a history shown anew reads its own).
        if companion is self.companion and not self.elsewhere.following and not self.reading_history:
            self.load_older(None, again=waited)

    def show_why(self, message_id: int) -> None:
        from .chat.why import WhyDialog

        companion = self.companion
        if companion is None:  # an imported soul still opening: this reply was the old one's
            return

        def load():
            items = companion.why(message_id)
            texts = {(it["item_kind"], it["item_id"]): it["text"] for it in items if it["text"] is not None}
            sources = {key: companion.provenance(*key) for key in texts}
            return items, texts, sources, companion.bids(message_id), companion.tokens_by_tier(message_id)

        def show(loaded):
            items, texts, sources, bids, tokens = loaded  # sources: where each came from; bids: the parts' weighed
            WhyDialog(items, texts, parent=self, sources=sources, bids=bids, tokens=tokens).exec()

        tasks.run(load, show, lambda e: errors.show(self, e), self)

    @Slot(str)
    def show_background_failure(self, what: str) -> None:
        """Work between turns failed (a short description, no message text); it stays until the next soul."""
        from . import crash

        self.trouble.setText(what)
        handler = crash.installed()
        self.trouble.setToolTip(f"The log: {handler.log_path}" if handler is not None and handler.log_path else "")

    def update_status(self) -> None:
        if self.companion is None:
            return
        ready = self.companion.model_ready()  # a model still loading (or not started)
        self.loading.setVisible(not ready)
        self.loading_label.setText("" if ready else "Waking the mind… (you can already write)")
        self.model_label.setText(f"Mind: {self.companion.model_name}")
        indexing = self.companion.indexing()
        self.busy.setText("thinking in the background…" if indexing or self.worker else "")

    # ---- reflecting deeply while the person is away ------------------------------

    def note_activity(self) -> None:
        """The person typed, or a turn ended: a new idle stretch starts now."""
        if self.companion is not None and self.worker is None and not self.closing:
            self.idle.start(self.idle_ms)

    def idle_reached(self) -> None:
        """Idle for idle_ms: reflect deeply if there is anything to reflect on (found in the worker's thread).
        The timer is started again only by activity, so this happens once per idle stretch."""
        if self.companion is None or self.worker is not None or self.reflecting is not None or self.queued:
            return
        if not self.companion.model_ready():  # the model still loading: wait another stretch
            self.idle.start(self.idle_ms)
            return
        self._reflect(only_if_pending=True)

    def reflect_now(self) -> None:
        """The menu's "Reflect now": deep reflection at once, a turn sent meanwhile still coming first."""
        if self.companion is None:
            return
        if self.reflecting is not None:
            self.statusBar().showMessage("Already reflecting.", 3000)
            return
        self._reflect(only_if_pending=False)

    def evolve(self) -> None:
        """The menu's "Evolve my persona" (seed 001's /evolve): the persona rewritten from what was learned, as
        governance allows; off the UI thread, and never during a reply, which uses the same model."""
        if self.companion is None:
            return
        if self.worker is not None or self.reflecting is not None:
            self.statusBar().showMessage("Busy with a reply or reflecting: ask again in a moment.", 4000)
            return
        companion = self.companion
        self.reflecting_label.setText("Evolving…")

        def evolved(done) -> None:
            self.reflecting_label.setText("")
            self.statusBar().showMessage(f"Evolution: {done.summary()}.", 8000)
            self.refresh_mind()

        def failed(error) -> None:
            self.reflecting_label.setText("")
            errors.show(self, error)

        tasks.run(companion.evolve, evolved, failed, self)

    def _reflect(self, only_if_pending: bool) -> None:
        assert self.companion is not None  # idle_reached, reflect_now
        worker = self.reflecting = tasks.ReflectWorker(self.companion, only_if_pending, self)
        worker.began.connect(lambda: self.reflecting_label.setText("Reflecting…"))
        worker.finished_reflecting.connect(lambda done: self._reflected(worker, done))
        worker.failed.connect(lambda error: self._reflection_failed(worker, error))
        worker.finished.connect(self._thread_ended)
        self.reflecting_label.setToolTip("Going over what happened between us; a message you send comes first")
        worker.start()

    def _reflected(self, worker, done) -> None:
        if worker is not self.reflecting:  # a soul swapped out meanwhile: already waited for
            return
        self._stop_reflecting()
        if done is not None:
            self.refresh_mind()
        self.reflected.emit(done)

    def _reflection_failed(self, worker, error) -> None:
        if worker is self.reflecting:
            self._stop_reflecting()
        errors.show(self, error)

    def _stop_reflecting(self) -> None:
        """Wait for the reflecting thread to end (it has ended, or its soul was closed, which stops it)."""
        if self.reflecting is not None:
            self.reflecting.wait()
            self.reflecting = None
        self.reflecting_label.setText("")

    # ---- changes that wait for the person's say ----------------------------------

    def refresh_pending(self) -> None:
        """Count the proposals that wait, off the UI thread, and say so quietly."""
        companion = self.companion
        if companion is None:
            return
        tasks.run(lambda: (companion, len(companion.proposals())), self._counted, lambda e: errors.show(self, e), self)

    def _counted(self, counted) -> None:
        companion, count = counted
        if companion is self.companion:  # not a soul swapped out meanwhile
            self.show_pending(count)

    def show_pending(self, count: int) -> None:
        if count:
            waits = "1 change waits" if count == 1 else f"{count} changes wait"
            self.pending.setText(f'<a href="proposals">{waits} for you</a>')
            self.pending.setToolTip("Proposed changes, in the Open Mind: accept or reject each")
        else:
            self.pending.setText("")
        self.mind_action.setText(f"Open &Mind ({count} waiting)" if count else "Open &Mind")
        self._pending_count = count
        if self._mind is not None:
            self._mind.note_pending(count)

    def show_proposals(self) -> None:
        """Open the Open Mind on the proposed changes."""
        if self.mind is None:
            return
        self.mind.show()
        self.mind.open_view(self.mind.proposals.title)
        self.mind.refresh()

    # ---- the Open Mind and the app's actions -----------------------------------

    def toggle_mind(self) -> None:
        showing = self._mind is None or not self._mind.isVisible()
        if showing and self.width() < BESIDE_THE_MIND:
            # Sidebar, chat and the Open Mind do not all fit a narrow window (at 900 px the chat kept ~200 px):
            # the conversations step aside while the Open Mind is open there, and come back as the setting says.
            # Laid out at once (refresh): the Open Mind's width is then set on the splitter's width to be.
            self.sidebar.hide()
            self.beside.refresh()
        if self.mind is None:
            return
        self.mind.setVisible(showing)
        if not showing:
            self.sidebar.setVisible(self._sidebar_wanted())
        elif saved := window_state.split_sizes(self.settings):
            # As wide as it was left, once the window has its size: sizes set before are scaled to the new width.
            QTimer.singleShot(0, lambda: self.split.setSizes([max(self.split.width() - saved[1], 0), saved[1]]))
        self.refresh_mind()

    def search_mind(self) -> None:
        """The Open Mind, shown, with the cursor in its search across everything it holds."""
        if self.mind is not None:
            self.mind.focus_search()

    @property
    def mind(self) -> "OpenMind | None":
        """The Open Mind on the soul shown (None before one is), built when first wanted: its views took ~100 ms
        of the UI thread at every opening (measured with bench/ui_child.py anima-opening, a 1,000-message soul), and
        most openings never show it."""
        if self._mind is None and self.companion is not None:
            from .mind.panel import OpenMind

            self._mind = OpenMind(self.companion)
            self._mind.proposals.pending.connect(self.show_pending)
            self._mind.forgotten.connect(self.forgotten)
            self._mind.note_pending(self._pending_count)
            self._mind.hide()
            self.split.addWidget(self._mind)
            self._mind.setAccessibleName("Open Mind")
            access.name_controls(self._mind)
            self.split.setSizes(window_state.split_sizes(self.settings) or [650, 450])
        return self._mind

    def _written_elsewhere(self) -> None:
        """Another program committed something: the open view and the count of proposals that wait follow it."""
        self.refresh_mind()
        self.refresh_pending()

    def refresh_mind(self) -> None:
        """Load the Open Mind's open view again, when it is built and shown."""
        if self._mind is not None and self._mind.isVisible():
            self._mind.refresh()

    def export(self) -> None:
        from .dialogs.core_io import ExportDialog

        companion = self.companion
        if companion is None:  # as _with_names: nothing to export
            return
        self._with_names(lambda known: ExportDialog(companion, self, known=known).exec())

    def import_(self) -> None:
        from .dialogs.core_io import ImportDialog

        old = self.companion
        if old is None:
            return
        # The models stay loaded: the companion opened next, on the imported soul or this one again, uses them.
        dialog = ImportDialog(
            old.home, replacing=old.home.exists(), parent=self, before_swap=lambda: old.close(models=False)
        )
        accepted = dialog.exec()
        soul = dialog.result_value if accepted else dialog.reopened
        if soul is not None:  # the imported soul, or the one here opened again after a refused swap closed it
            self.companion = None  # closed: what is typed meanwhile waits for the new one
            self.open_companion(lambda: old.on_soul(soul), lambda error: errors.show(self, error))

    def passphrase(self) -> None:
        from .dialogs.unlock import ChangePassphraseDialog

        if self.companion is None:  # as _with_names: no soul to change it for
            return
        home = self.companion.home
        self._with_names(lambda known: ChangePassphraseDialog(home, self, known=known).exec())

    def _with_names(self, open_dialog) -> None:
        """Read the companion's name and the person's (a thief's first guesses, for a new passphrase) off the UI
        thread, then open_dialog(names): a turn may hold the soul for seconds, and the menu must not freeze."""
        companion = self.companion
        if companion is None:
            return

        def opened(names) -> None:
            if companion is self.companion:  # not a soul swapped out meanwhile
                open_dialog(names)

        tasks.run(lambda: (companion.name, companion.user_name), opened, lambda e: errors.show(self, e), self)

    def _thread_ended(self) -> None:
        if self.closing:
            self.close()

    def open_settings(self) -> None:
        from anima.settings import Settings

        from .dialogs.settings import SettingsDialog

        dialog = SettingsDialog(self.settings or Settings.load(), self)
        if dialog.exec():
            from .dialogs.first_model import switch_if_changed

            switch_if_changed(self, dialog.settings, dialog.result_value)
            if dialog.result_value is not None:
                theme.use(dialog.result_value.theme)  # live: the rest takes effect at the next start

    def choose_mind(self) -> None:
        """The menu's "Choose the mind…" (and the first run): a real model instead of the tiny one, at once."""
        from .dialogs.first_model import choose_mind

        choose_mind(self)

    def quit_asked(self) -> None:
        """The person asked to close (the menu, Ctrl+Q, the title bar's button: closeEvent)."""
        if self._unsent_may_go():
            self._asked = True
            self.close()

    def _unsent_may_go(self) -> bool:
        """Whether closing may go on: messages the banner keeps to send once there is room (or once the soul is
        free), and those queued behind them, are saved nowhere, so the person says whether to lose them."""
        from PySide6.QtWidgets import QMessageBox

        waiting = int(self.disk_banner.waiting and bool(self.input.toPlainText().strip())) + len(self.queued)
        if not waiting or self.closing:
            return True
        said = "A message you sent has" if waiting == 1 else f"{waiting} messages you sent have"
        answer = QMessageBox.question(
            self,
            TITLE,
            f"{said} not been saved yet: they wait for room on the disk, or for the other program to "
            "finish. Closing now loses them. Close anyway?",
            QMessageBox.StandardButton.Close | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Close

    def closeEvent(self, event) -> None:
        # The title bar's close button (spontaneous: the window system's) asks as the menu does; a close from code
        # (the app quitting after a failure, a test) does not stop for a question.
        asked, self._asked = self._asked, False
        if event.spontaneous() and not asked and self.reaching_out.to_tray():  # it lives on in the tray
            event.ignore()
            return
        if event.spontaneous() and not asked and not self._unsent_may_go():
            event.ignore()
            return
        self.closing = True
        self.reaching_out.stop()
        self.stop_reply()
        if self.reflecting is not None:
            self.reflecting.companion.interrupt()  # stops deep reflection at the model's next token
        if any(t is not None and t.isRunning() for t in (self.worker, self.reflecting)):
            # A model can be slow to notice the cancel, and the window must not freeze meanwhile: it stays, unusable,
            # and closes for real when the thread ends (_thread_ended). The turn keeps what it keeps, as on Stop;
            # the app quits then, and closes the soul after it.
            event.ignore()
            self.setEnabled(False)
            self.statusBar().showMessage("Closing: waiting for your companion to stop…")
            return
        self._stop_reflecting()
        self.idle.stop()
        self.poll.stop()
        self.elsewhere.stop()
        if self.settings is not None:
            mind_open = self._mind is not None and self._mind.isVisible()
            window_state.remember(self, self.settings, self.split, mind_open)
        super().closeEvent(event)
