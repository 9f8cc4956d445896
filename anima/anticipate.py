"""Between turns: recall for the exchange that just ended, and have the model read it ahead of time.

A turn's first token waits for the model to read every token it has not read
before: the new message, and the note of what was recalled for it. So after
each reply, while the person reads and types, the companion recalls what the
exchange brings to mind and evaluates that note into the model's context
(seed 003's sleep-time compute, at the smallest scale). The next turn then
finds it already read, and adds only what its own message newly brings up.

Only for backends that keep their computed prefix in this process (llama.cpp);
a turn that starts meanwhile waits for it (it would wait for the model anyway).
"""

import logging
import threading

from .workspace import Entry, render_note

log = logging.getLogger(__name__)

ANTICIPATED_ITEMS = 3


class Anticipation:
    def __init__(self, companion):
        self.companion = companion
        self.serial = 0  # bumped by every turn: an anticipation from before it is stale
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def turn_started(self) -> None:
        """A turn begins: what was read ahead is used if it is done; what is still being prepared is
        finished first (the turn would wait for the model anyway), never thrown away half-read."""
        self.wait()
        with self.lock:
            self.serial += 1

    def after(self, user_text: str, reply_text: str) -> None:
        c = self.companion
        if not c.chat.capabilities.keeps_prefix:
            return
        serial = self.serial
        self.thread = threading.Thread(target=self._run, args=(serial, f"{user_text}\n{reply_text}"),
                                       name="anticipate", daemon=True)
        self.thread.start()

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()

    def _run(self, serial: int, exchange: str) -> None:
        c = self.companion
        present = c.transcript_keys()
        found = [r for r in c.recall(exchange, ANTICIPATED_ITEMS + len(present))
                 if r.key not in present and r.relevant]
        items = found[:ANTICIPATED_ITEMS]
        if not items or self.serial != serial:
            return
        note = Entry("system", render_note("", "", items), frozenset(r.key for r in items))
        ws = c.workspace()
        messages = ws.prefix(c.self_model.read(), c.name, c.transcript, note)
        if messages is None or self.serial != serial:
            return  # it would not fit without trimming: leave the prefix alone
        c.chat.stream(messages, max_tokens=1, temperature=0.0).read()  # the model reads the note now
        with self.lock:
            if self.serial == serial:
                c.transcript.append(note)
                log.info("anticipated %d items for the next turn", len(items))
