"""What another program on the same soul says, taken into this session's transcript.

The window and `anima chat` may hold one companion at once, each with its own
session. What the person says in one, the companion in the other reads before
its next reply, as its own session's turns are read: the person's words with
the text from outside sent with them, and the replies. SQLite's data version
moves only when another connection commits, so while nobody else writes, a
look is one pragma.
"""

import threading
from typing import Any

from ..knowledge.messages import Messages, from_outside
from ..parts.bids import HIDDEN
from ..workspace import Entry
from ..workspace.external import compose

KEPT = 200  # the newest messages said elsewhere taken in at one look (as many as a reopened session takes back)


class SaidElsewhere:
    def __init__(self, messages: Messages, session: str):
        self.messages = messages
        self._lock = threading.Lock()  # one look at a time: two would take the same messages in twice
        self.restart(session)

    def restart(self, session: str) -> None:
        """This session (a new one): what the soul holds already is earlier history, which recall brings back."""
        # The data version first: a commit between the two reads is read again at the next look, never lost.
        version = self.messages.soul.data_version()
        newest = self.messages.newest(1)
        with self._lock:
            self.session, self._version, self._to = session, version, newest[0]["id"] if newest else 0

    def unread(self) -> set[tuple[str, int]]:
        """The keys of the messages other sessions stored since the last look (catch_up takes them in at the next
        turn): what recall leaves to that. One pragma while no other program wrote."""
        with self._lock:
            if self.messages.soul.data_version() == self._version:
                return set()
            return {("message", i) for i in self.messages.ids_elsewhere(self._to, self.session)}

    def catch_up(self, hide: bool) -> tuple[list[dict[str, Any]], list[Entry]]:
        """The messages other sessions stored since the last look, oldest first (the newest KEPT of them, as
        Messages.elsewhere gives them), and the transcript's entries for them (text from outside HIDDEN: `hide`,
        as a turn hides it in isolation mode)."""
        with self._lock:
            version = self.messages.soul.data_version()
            if version == self._version:
                return [], []
            rows = self.messages.elsewhere(self._to, self.session, KEPT, newest=True)
            self._version = version
            if rows:
                self._to = rows[-1]["id"]
        return rows, entries(rows, hide)


def entries(rows: list[dict[str, Any]], hide: bool) -> list[Entry]:
    """Stored messages, oldest first, as the transcript holds a turn's: the text from outside sent with a message
    goes in its entry, labelled, as the turn composed it (HIDDEN: `hide`)."""
    made: list[Entry] = []
    typed: tuple[str, list[int]] | None = None  # the person's message being gathered, and its ids
    outside: list[tuple[str, str]] = []

    def close() -> None:
        nonlocal typed, outside
        if typed is not None:
            made.append(Entry("user", compose(typed[0], outside), frozenset(("message", i) for i in typed[1])))
        typed, outside = None, []

    for m in rows:
        external = from_outside(m)
        # Sent with the message gathered (it cites it), or, like it, sent with no typed words (none cites one).
        if external and typed is not None and m["sent_with"] == (typed[1][0] if typed[0] else None):
            typed[1].append(m["id"])
            outside.append((m["speaker"], HIDDEN if hide else m["content"]))
            continue
        close()
        if m["role"] == "companion":
            made.append(Entry("assistant", m["content"], frozenset({("message", m["id"])})))
        elif external:  # sent with no typed words
            typed, outside = ("", [m["id"]]), [(m["speaker"], HIDDEN if hide else m["content"])]
        else:
            typed = (m["content"], [m["id"]])
    close()
    return made
