"""Versions of a message, which one the conversation goes on from, and how a reply ended.

A reply made again, or a message edited and sent again, is a new version of the same place in the
conversation: a slot, named by the id of its first version. Every version stays in the soul (the person may
forget any of them, like any message); the soul records which one was chosen (the newest, until the person
steps to another, ‹ 1/2 ›), and the conversation's history (the next turn's prompt, a reopened session, the
window's pages) reads only that one. A message that `follows` a version (the reply to an edited message, and
that reply's own versions) is in the conversation only while that version is.

Recall leaves versions that were not chosen out (store/recallable.py): the person set them aside, and
recalling a reply they asked to have made again would bring back what they did not want said. A reply that
answered a version not chosen is still recalled: it is something that was said.

Branching happens at the conversation's end, as SillyTavern's swipes do (conversation/branch.py checks it):
once the conversation has gone on from a version, that choice stays recorded.
"""

from dataclasses import dataclass
from enum import Enum

import sqlcipher3

from ..store.soul import Soul, now


class Ending(Enum):
    """How a reply ended when it did not end by itself: shown on it ("Stopped", "Cut off — Continue")."""

    STOPPED = "stopped"  # the person stopped it
    CUT_OFF = "cut_off"  # it reached the reply's token limit


@dataclass(frozen=True)
class Placed:
    """Where a reply being stored goes: a new version of `version_of`, after the message `follows`, and how it
    ended (None: by itself)."""

    version_of: int | None = None
    follows: int | None = None
    ending: Ending | None = None


@dataclass(frozen=True)
class Versions:
    """A slot's versions as a person steps through them: which is shown (0-based) of how many, oldest first."""

    slot: int
    ids: tuple[int, ...]
    shown: int

    @property
    def count(self) -> int:
        return len(self.ids)


class Branches:
    def __init__(self, soul: Soul):
        self.soul = soul

    # ---- writing: in the caller's transaction (the message and its place together) ------------------------

    def add(self, con: sqlcipher3.Connection, message_id: int, of: int, follows: int | None = None) -> None:
        """`message_id` is a new version of `of`'s slot, and the chosen one; `follows`: the message it comes
        after (None: the one `of` follows, if any)."""
        row = con.execute("SELECT slot, follows FROM message_versions WHERE message_id = ?", (of,)).fetchone()
        slot, of_follows = (row[0], row[1]) if row else (of, follows)
        if row is None:  # the first version joins its slot as a second one is made
            con.execute("INSERT INTO message_versions VALUES (?, ?, ?)", (of, of, follows))
        con.execute(
            "INSERT OR REPLACE INTO message_versions VALUES (?, ?, ?)",
            (message_id, slot, follows if follows is not None else of_follows),
        )
        con.execute("INSERT OR REPLACE INTO version_chosen VALUES (?, ?, ?)", (slot, message_id, now()))

    def follow(self, con: sqlcipher3.Connection, message_id: int, follows: int) -> None:
        """`message_id` is in the conversation only while `follows` is (the reply to an edited message)."""
        con.execute(
            "INSERT INTO message_versions VALUES (?, ?, ?) ON CONFLICT(message_id) DO UPDATE SET follows = ?",
            (message_id, message_id, follows, follows),
        )

    def tie(self, con: sqlcipher3.Connection, message_id: int) -> None:
        """Everything of its session stored after `message_id` (its replies, what was sent with it) follows it:
        done as a new version of it is made, which takes its place with all of that."""
        for (later,) in con.execute(
            "SELECT id FROM messages WHERE session = (SELECT session FROM messages WHERE id = ?) AND id > ? "
            "AND id NOT IN (SELECT message_id FROM message_versions WHERE follows IS NOT NULL)",
            (message_id, message_id),
        ).fetchall():
            self.follow(con, later, message_id)

    def end(self, con: sqlcipher3.Connection, message_id: int, ending: Ending | None) -> None:
        """How the reply ended (None: by itself, as a continued reply may)."""
        if ending is None:
            con.execute("DELETE FROM reply_endings WHERE message_id = ?", (message_id,))
        else:
            con.execute("INSERT OR REPLACE INTO reply_endings VALUES (?, ?)", (message_id, ending.value))

    def place(self, con: sqlcipher3.Connection, reply_id: int, placed: Placed) -> None:
        if placed.version_of is not None:
            self.add(con, reply_id, placed.version_of, placed.follows)
        elif placed.follows is not None:
            self.follow(con, reply_id, placed.follows)
        if placed.ending is not None:
            self.end(con, reply_id, placed.ending)

    def choose(self, slot: int, message_id: int) -> None:
        """The person stepped to this version: the conversation goes on from it."""
        with self.soul.transaction() as con:
            if not con.execute(
                "SELECT 1 FROM message_versions WHERE slot = ? AND message_id = ?", (slot, message_id)
            ).fetchone():
                raise ValueError(f"message #{message_id} is not a version of slot {slot}")
            con.execute("INSERT OR REPLACE INTO version_chosen VALUES (?, ?, ?)", (slot, message_id, now()))

    # ---- reading ------------------------------------------------------------------------------------------

    def slot(self, message_id: int) -> int:
        rows = self.soul.query("SELECT slot FROM message_versions WHERE message_id = ?", (message_id,))
        return int(rows[0]["slot"]) if rows else message_id

    def versions(self, message_id: int) -> Versions:
        """The versions of `message_id`'s slot still stored, oldest first, and which of them is chosen."""
        slot = self.slot(message_id)
        ids = tuple(
            r["message_id"]
            for r in self.soul.query(
                "SELECT message_id FROM message_versions WHERE slot = ? ORDER BY message_id", (slot,)
            )
        ) or (message_id,)
        chosen = self._chosen(slot, ids)
        return Versions(slot, ids, ids.index(chosen))

    def _chosen(self, slot: int, ids: tuple[int, ...]) -> int:
        rows = self.soul.query("SELECT message_id FROM version_chosen WHERE slot = ?", (slot,))
        # The chosen one forgotten (its row went with it): the newest left is.
        return int(rows[0]["message_id"]) if rows and rows[0]["message_id"] in ids else ids[-1]

    def follows(self, message_id: int) -> int | None:
        rows = self.soul.query("SELECT follows FROM message_versions WHERE message_id = ?", (message_id,))
        return rows[0]["follows"] if rows else None

    def hidden(self, message_ids: list[int]) -> set[int]:
        """Those of these messages that are not in the conversation: versions not chosen, and what follows a
        message that is not (or that was forgotten)."""
        placed = {
            r["message_id"]: (r["slot"], r["follows"])
            for r in self.soul.query_in("SELECT * FROM message_versions WHERE message_id IN ({ids})", message_ids)
        }
        if not placed:
            return set()
        memo: dict[int, bool] = {}

        def out(i: int) -> bool:
            if i in memo:
                return memo[i]
            memo[i] = False  # a loop (which no write makes) ends here
            if i not in placed:
                more = self.soul.query("SELECT slot, follows FROM message_versions WHERE message_id = ?", (i,))
                if not more:
                    return bool(not self.soul.query("SELECT 1 FROM messages WHERE id = ?", (i,)))
                placed[i] = (more[0]["slot"], more[0]["follows"])
            follows = placed[i][1]
            versions = self.versions(i)
            memo[i] = versions.ids[versions.shown] != i or (follows is not None and out(follows))
            return memo[i]

        return {i for i in message_ids if i in placed and out(i)}

    def endings(self, message_ids: list[int]) -> dict[int, Ending]:
        return {
            r["message_id"]: Ending(r["ending"])
            for r in self.soul.query_in("SELECT * FROM reply_endings WHERE message_id IN ({ids})", message_ids)
        }

    def shown_versions(self, message_ids: list[int]) -> dict[int, Versions]:
        """The versions of those of these messages that have more than one."""
        slotted = {
            r["message_id"]
            for r in self.soul.query_in(
                "SELECT message_id FROM message_versions WHERE message_id IN ({ids})", message_ids
            )
        }
        found = {i: self.versions(i) for i in slotted}
        return {i: v for i, v in found.items() if v.count > 1}
