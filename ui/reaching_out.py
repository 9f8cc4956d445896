"""The window's side of reaching out (anima/conversation/reaching_out.py): each LOOK_MS it asks the companion, off
the UI thread, whether to write first; a message it wrote shows in the transcript as the companion's, and a
notification shows it (the tray's, where there is a tray).

While reaching out is on and the desktop has a tray, the app lives on in it when the window is closed (Open,
Quit); with no tray, closing quits as it always did. Nothing is asked while the person types (the box holds text,
or a key was pressed within TYPING_S), while a reply or deep reflection is under way, or with no companion open
(a locked soul)."""

import logging
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon

from anima.errors import KnownError

from . import tasks

if TYPE_CHECKING:
    from anima.companion import Companion

LOOK_MS = 60_000
TYPING_S = 30  # a key pressed this recently: the person is still typing, even with the box empty again
NOTIFIED_MS = 10_000
log = logging.getLogger(__name__)


class ReachingOut(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.tray: QSystemTrayIcon | None = None
        self.looking = False
        # What the companion's thread asks (typing): plain values the UI thread keeps, never the widget itself.
        self._typed_at = -float("inf")
        self._has_text = False
        window.input.textChanged.connect(self._typed)
        self.timer = QTimer(self, interval=LOOK_MS)
        self.timer.timeout.connect(self.look)
        self.timer.start()

    def _typed(self) -> None:
        self._typed_at = time.monotonic()
        self._has_text = bool(self.window.input.toPlainText().strip())

    def typing(self) -> bool:
        """Whether the person is typing: text in the box, or a key pressed within TYPING_S (any thread)."""
        return self._has_text or time.monotonic() - self._typed_at < TYPING_S

    def limits(self):
        # Imported at the first look: importing the window takes no more of the core than it did.
        from anima.conversation.reaching_out import limits_of
        from anima.settings import Settings

        return limits_of(self.window.settings or Settings())

    def look(self) -> None:
        """Ask the companion, off the UI thread, whether to write first now."""
        w = self.window
        self.show_tray(self.limits().per_day > 0)
        companion = w.companion
        if companion is None or self.looking or w.closing or w.worker is not None or w.reflecting is not None:
            return
        if self.typing() or w.queued or w.reading_history or not companion.model_ready():
            return
        self.looking = True
        limits, typing = self.limits(), self.typing
        tasks.run(
            lambda: (companion, companion.reach_out(limits, typing)), lambda done: self._done(*done), self._failed, w
        )

    def _done(self, companion: "Companion", done) -> None:
        from anima.conversation.reaching_out import Outcome

        self.looking = False
        if done.outcome is not Outcome.SENT or self.window.companion is not companion:  # another soul since
            return
        self.window.transcript.add("companion", done.text, done.message_id)
        self.notify(companion.name, done.text)

    def _failed(self, error) -> None:
        self.looking = False
        if isinstance(error, KnownError):  # a full disk, a busy soul: the next look tries again
            log.info("reaching out did not happen: %s", type(error).__name__)
            return
        log.error("reaching out failed: %s", getattr(error, "__traceback_text__", error))
        self.window.show_background_failure("Reaching out failed (a bug; it is in the log).")

    # ---- the tray -------------------------------------------------------------------------------------------------

    def show_tray(self, on: bool) -> None:
        """The tray icon while reaching out is on and the desktop has a tray; none otherwise."""
        if on and self.tray is None and QSystemTrayIcon.isSystemTrayAvailable():
            tray = self.tray = QSystemTrayIcon(QApplication.windowIcon(), self)
            tray.setToolTip(self.window.windowTitle())
            menu = QMenu(self.window)
            opened, quit_ = QAction("Open", menu), QAction("Quit", menu)
            opened.triggered.connect(self.open)
            quit_.triggered.connect(self.quit)
            menu.addActions([opened, quit_])
            tray.setContextMenu(menu)
            tray.activated.connect(self._clicked)
            tray.messageClicked.connect(self.open)
            tray.show()
        elif not on and self.tray is not None:
            self.tray.hide()
            self.tray.deleteLater()
            self.tray = None

    def _clicked(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.open()

    def notify(self, title: str, text: str) -> None:
        if self.tray is not None:
            self.tray.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, NOTIFIED_MS)
        else:
            self.window.statusBar().showMessage(f"{title} wrote to you.", NOTIFIED_MS)

    def to_tray(self) -> bool:
        """The window's close button: hide in the tray and go on (True), when reaching out is on and there is one."""
        self.show_tray(self.limits().per_day > 0)
        if self.tray is None:
            return False
        self.window.hide()
        return True

    def open(self) -> None:
        w = self.window
        w.showNormal()  # a window shown again comes up on top; activating it gives it the keyboard
        w.activateWindow()

    def quit(self) -> None:
        """The tray's Quit: the window closes as its menu's Quit closes it (asking about messages not yet saved),
        shown first so that the app ends with it."""
        self.open()
        self.window.quit_asked()

    def stop(self) -> None:
        self.timer.stop()
        self.show_tray(False)
