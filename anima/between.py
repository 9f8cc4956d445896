"""Between turns: what the companion does while the person reads and types (seed 003, sleep-time compute).

After each reply, in one background thread and in this order:
1. learn: write down what the person just said about themselves (mind/human.py), when they said anything;
2. read ahead: recall for the exchange and have the model read that note now (anticipate.py).
And while they type, in the same thread after those: read along, the prompt their draft would make.

The person comes first: a turn that starts meanwhile pre-empts the learning
(it stops at the next token, and its messages stay unread for the next time)
and waits only for the short read-ahead, which it would wait for anyway
because both use the one model.
"""

import logging
import threading

from .anticipate import read_ahead, read_draft

log = logging.getLogger(__name__)


class BetweenTurns:
    def __init__(self, companion):
        self.companion = companion
        self.serial = 0  # bumped by every turn: work prepared before it is stale
        self.thread: threading.Thread | None = None
        self.preempt = threading.Event()
        self.lock = threading.Lock()
        self.latest_draft = ""

    def turn_started(self) -> None:
        """A turn begins: learning stops where it is; a read-ahead in flight is finished, never thrown away
        half-read."""
        self.preempt.set()
        self.wait()
        with self.lock:
            self.serial += 1

    def after(self, user_text: str, reply_text: str) -> None:
        self.preempt = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(self.serial, f"{user_text}\n{reply_text}",
                                                               self.preempt), name="between-turns", daemon=True)
        self.thread.start()

    def draft(self, text: str) -> None:
        """The person paused while typing `text`: read along, after what is already under way. Never blocks."""
        if not self.companion.chat.capabilities.keeps_prefix:
            return
        self.latest_draft = text
        before, serial = self.thread, self.serial

        def run():
            if before is not None:
                before.join()
            if self.latest_draft != text or self.serial != serial or self.preempt.is_set():
                return  # typed on, or sent: a newer draft or the turn itself takes over
            try:
                read_draft(self.companion, text)
            except Exception:
                log.exception("reading along a draft failed")

        self.thread = threading.Thread(target=run, name="read-along", daemon=True)
        self.thread.start()

    def wait(self) -> None:
        """Wait until the work between turns is done (a terminal fed by a pipe lets it finish, as a reader would)."""
        if self.thread is not None:
            self.thread.join()

    def _run(self, serial: int, exchange: str, preempt: threading.Event) -> None:
        c = self.companion
        try:
            if c.learns:
                learned = c.human_notes.step(preempt)
                with self.lock:
                    c.learned_unsaid += learned
            if c.chat.capabilities.keeps_prefix and not preempt.is_set():
                read_ahead(c, exchange, lambda: self.serial == serial, self.lock)
        except Exception:  # a failure here must never reach the next turn; the log has it
            log.exception("the work between turns failed")
