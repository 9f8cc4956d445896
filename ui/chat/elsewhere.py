"""What another program on the same soul does, followed within seconds.

The window and `anima chat` (or a second window) may hold one companion at
once. Each stores its own conversation; this one shows the other's messages
as they are stored, and takes off the screen what the other forgot. Every
FOLLOW_MS it reads, off the UI thread, the soul's count of forgets and
SQLite's data version (which moves only when another connection commits):
while nobody else writes, a look is those two reads and nothing more.
"""

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from anima.errors import KnownError

from .. import errors, tasks
from .attachments import outside
from .transcript import Bubble, Transcript

if TYPE_CHECKING:
    from anima.companion import Companion

FOLLOW_MS = 2000
PAGE = 200  # messages said elsewhere read at one look; more are read at the next
log = logging.getLogger(__name__)


class Elsewhere(QObject):
    def __init__(
        self,
        transcript: Transcript,
        companion: Callable[[], "Companion | None"],
        waiting: Callable[[], list[Bubble]],
        wrote: Callable[[], None],
        parent: QObject,
    ):
        """`companion()`: the one shown now (None while none is). `waiting()`: the bubbles of this window's
        messages not stored yet (the one being answered, those queued), below which nothing stored goes.
        `wrote()`: another program committed something (the Open Mind's open view reads it again)."""
        super().__init__(parent)
        self.transcript, self.companion, self.waiting, self.wrote = transcript, companion, waiting, wrote
        self.forgets_seen: int | None = None  # the soul's count of forgets at the last look
        self.version_seen: int | None = None  # SQLite's data version at the last look
        # The newest message the transcript has of the soul's history (None: its first page is still being read),
        # and the data version when messages after it were last read (None: not yet).
        self._said_to: int | None = None
        self._said_version: int | None = None
        self._looking = False
        self._shown = 0  # bumped for each soul or history shown: a look begun before it reports nothing
        self.timer = QTimer(self, interval=FOLLOW_MS)
        self.timer.timeout.connect(self.look)
        self.timer.start()

    def reset(self) -> None:
        """Another soul is shown, or its history read again: nothing is known of it until its first page is."""
        self.forgets_seen = self._said_to = self._said_version = None
        self._shown += 1

    def history_read(self, page: list[dict]) -> None:
        """The newest page of the soul's history is shown: what another program says after it is shown too."""
        self._said_to = max((m["id"] for m in page), default=0)
        self._said_version = None
        self._shown += 1  # a look begun before the page was shown looked at a transcript without it

    @property
    def following(self) -> bool:
        """Whether the newest page of the soul's history is shown, from which what others say is followed."""
        return self._said_to is not None

    def stop(self) -> None:
        self.timer.stop()

    def look(self) -> None:
        companion = self.companion()
        if companion is None or self._looking:
            return
        self._looking = True
        shown, forgets, version = self.transcript.shown_ids(), self.forgets_seen, self.version_seen
        said_to, said_version, showing = self._said_to, self._said_version, self._shown

        def read():
            now = companion.data_version()
            said = []
            if said_to is not None and now != said_version:
                said = [{**m, "outside": outside(m)} for m in companion.said_elsewhere(said_to, PAGE)]
            return companion.gone_since(forgets, shown), now, said

        def done(result) -> None:
            self._looking = False
            if companion is not self.companion() or showing != self._shown:  # what it looked at is not shown
                return
            (self.forgets_seen, gone), self.version_seen, said = result
            if gone:
                self.transcript.forget(gone)
            if said_to is not None:
                self._said_version = self.version_seen if len(said) < PAGE else None
                if said:
                    self._said_to = said[-1]["id"]
                    self.transcript.said_elsewhere(said, self.waiting())
            # The first look has nothing to compare: once more is one read.
            if self.version_seen != version:
                self.wrote()

        def failed(error) -> None:
            self._looking = False
            if not isinstance(error, KnownError):
                self.timer.stop()  # said once, not every FOLLOW_MS
                window = self.parent()
                assert isinstance(window, QWidget)  # the window it follows what others say for
                errors.show(window, error)  # a bug: never swallowed
                return
            # The soul closing for an import, another program writing a long while: the next tick looks again.
            log.info("looking at what another program did failed (%s); looking again", type(error).__name__)

        tasks.run(read, done, failed, self)
