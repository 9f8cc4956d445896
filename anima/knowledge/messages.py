"""Messages: every turn of every conversation is stored, full-text indexed and embedded.

This is the one path by which a message enters the soul (the turn, the
terminal, imports of old chats and the retrieval benchmark all use it).
"""

from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import sqlcipher3

from .. import files
from ..errors import KnownError, NotFound
from ..retrieval import fts
from ..retrieval.indexer import Indexer
from ..store.ids import new_id
from ..store.provenance import EXTERNAL, Provenance, Source
from ..store.soul import Soul, now
from ..trust import secrets
from ..trust.text import clean
from .branches import Branches

_NEWEST = 2**63 - 1  # past SQLite's largest rowid: the page before it is the newest
# One conversation: messages of one session with no pause longer than this between them. A window left open
# for days is one session, and a person who comes back after an hour has started another talk.
PAUSE_HOURS = 1


class EmptyMessage(KnownError):
    def __init__(self) -> None:
        super().__init__("The message is empty; nothing was sent.")


# What a person types in one message, at most. A longer text is something pasted or a file's: sent as text from
# outside (External), which the turn reads as information, cut in the prompt (workspace/external.py) and kept
# whole. Measured before this limit: a typed line of 1,000,000 characters took 104 s and peaked at 802 MB in its
# turn (the parts' stems, the clerk's keys and the dates reader each read all of it); 16,000 characters is about
# 4,000 tokens, more than the default model's whole context gives a message.
TYPED_MOST = 16_000


class MessageTooLong(KnownError):
    def __init__(self, length: int) -> None:
        super().__init__(
            f"The message is {length:,} characters; one typed message holds at most {TYPED_MOST:,}. Nothing was "
            "sent: attach a long text as a file, or paste it (a paste is attached as text from outside)."
        )


@dataclass
class NewMessage:
    role: str
    content: str
    speaker: str = ""
    at: str | None = None
    session: str = "default"
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Embedded:
    """Messages cleaned and embedded, not yet stored (Messages.embedded, then Messages.store)."""

    messages: list[NewMessage]
    rows: list[dict[str, Any]]
    vectors: npt.NDArray[np.float32]  # one row per message


@dataclass(frozen=True)
class External:
    """Text sent with a message that the person did not type: pasted, a file, a tool's output, a card's text."""

    source: Source
    text: str
    name: str = ""  # the file's, the tool's or the card's name

    @property
    def label(self) -> str:
        """How it is named to the model and stored as the message's speaker ("pasted text", "file notes.txt")."""
        kind = {Source.PASTED: "pasted text", Source.FILE: "file", Source.TOOL: "tool output", Source.CARD: "card"}[
            Source(self.source)
        ]
        return f"{kind} {self.name}".strip()


ATTACHED_MOST = 1_000_000  # a text file beyond this is not a message's attachment


class NotAttachable(KnownError):
    pass


def attached_file(path: str | Path) -> External:
    """A text file sent with a message (the window's attach or drop, the terminal's /file); one that is missing,
    not a file (a folder, a device, a pipe), too large or not text is refused in words, and nothing of it is read
    past ATTACHED_MOST."""
    path = Path(path)
    try:
        data = files.read_regular(path, ATTACHED_MOST)
    except files.TooLarge:
        raise NotAttachable(
            f"{path.name} is larger than {ATTACHED_MOST // 1_000_000} MB; "
            "only text files up to that size can be attached."
        ) from None
    except files.NotRegularFile as e:
        raise NotAttachable(f"{path.name} is {e}, not a file; only text files can be attached.") from None
    except OSError as e:
        raise NotAttachable(f"{path.name} could not be read ({e.strerror or 'an error'}).") from None
    try:
        if b"\0" in data:
            raise UnicodeDecodeError("utf-8", data, 0, 1, "a NUL byte")
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotAttachable(f"{path.name} is not a text file (UTF-8); only text can be attached.") from None
    if not text.strip():
        raise NotAttachable(f"{path.name} is empty; nothing was attached.")
    return External(Source.FILE, text, path.name)


def spoken(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of some messages as `Messages.since` gives them, the person's own words and the companion's replies: what
    reflection reads. Text sent with a message (pasted, a file) is information, not how they are or what was lived."""
    return [r for r in rows if r["role"] == "companion" or r["source"] in (None, Source.PERSON.value)]


def conversation(soul: Soul, message_id: int) -> tuple[str, int]:
    """Which conversation message `message_id` belongs to: its session and the id of the conversation's first
    message (see PAUSE_HOURS). Read off the turn (deep reflection): it walks the session back to the last pause."""
    rows = soul.query(
        "WITH s AS (SELECT id, created_at, LAG(created_at) OVER (ORDER BY id) AS prev FROM messages "
        "WHERE session = (SELECT session FROM messages WHERE id = :id) AND id <= :id) "
        "SELECT (SELECT session FROM messages WHERE id = :id) AS session, max(id) AS first FROM s "
        "WHERE prev IS NULL OR (julianday(created_at) - julianday(prev)) * 24 > :pause",
        {"id": message_id, "pause": PAUSE_HOURS},
    )
    if not rows or rows[0]["first"] is None:
        raise NotFound(f"There is no message #{message_id}.")
    return rows[0]["session"], rows[0]["first"]


def started(soul: Soul) -> bool:
    """Whether the soul holds any message: a conversation has begun."""
    return bool(soul.query("SELECT 1 FROM messages LIMIT 1"))


def own_words(soul: Soul, after_id: int, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` of the person's messages after `after_id` in their own words (not text they pasted or
    attached: information, never their statement), newest first: id and content."""
    return soul.query(
        "SELECT id, content FROM messages WHERE role = 'user' AND id > ? AND id NOT IN "
        "(SELECT item_id FROM provenance WHERE item_kind = 'message' AND source != ?) "
        "ORDER BY id DESC LIMIT ?",
        (after_id, Source.PERSON.value, limit),
    )


def said_before(soul: Soul, message_id: int, limit: int = secrets.SPLIT_OVER) -> list[str]:
    """The person's own words in `message_id`'s session up to it (it included), the last `limit`, oldest first:
    what is read together for a secret split over several messages (trust/secrets.py `across`)."""
    rows = soul.query(
        "SELECT content FROM messages WHERE role = 'user' AND id <= :id "
        "AND session = (SELECT session FROM messages WHERE id = :id) AND id NOT IN "
        "(SELECT item_id FROM provenance WHERE item_kind = 'message' AND source != :person) "
        "ORDER BY id DESC LIMIT :limit",
        {"id": message_id, "person": Source.PERSON.value, "limit": limit},
    )
    return [str(r["content"]) for r in reversed(rows)]


def from_outside(row: dict[str, Any]) -> bool:
    """Whether a stored message, as `page` or `elsewhere` gives it (with its `source`), is text from outside sent
    with the person's message (pasted, a file, a tool's output), not their own words nor the companion's."""
    return row["role"] == "user" and row.get("source") is not None and Source(row["source"]) in EXTERNAL


# A message with where it came from (`source`: None for the companion's replies and for messages stored before
# provenance was kept); the caller adds its WHERE.
_PAGED = (
    "SELECT m.*, p.source AS source, p.message_id AS sent_with, p.detail AS detail FROM messages AS m "
    "LEFT JOIN provenance AS p ON p.item_kind = 'message' AND p.item_id = m.id "
)
_SOURCED = (
    "SELECT m.id, m.role, m.speaker, m.content, m.created_at, p.source AS source FROM messages AS m "
    "LEFT JOIN provenance AS p ON p.item_kind = 'message' AND p.item_id = m.id "
)


class Messages:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer
        self.branches = Branches(soul)  # versions of a message, and which one the conversation goes on from

    def record(
        self,
        role: str,
        content: str,
        *,
        speaker: str = "",
        at: str | None = None,
        session: str = "default",
        provenance: Provenance | None = None,
    ) -> int:
        return self.record_many([NewMessage(role, content, speaker, at, session, provenance)])[0]

    def record_many(self, messages: list[NewMessage], *, citing_first: bool = False) -> list[int]:
        """All of them or none (a full disk). `citing_first`: each after the first was sent with it (text from
        outside: a paste, a file) and its provenance cites the first's id, which exists only once it is stored."""
        return self.store(self.embedded(messages), citing_first=citing_first)

    def embedded(self, messages: list[NewMessage]) -> "Embedded":
        """Messages made ready to store: cleaned, and embedded (slow, and holding no lock), so that storing
        them inside a caller's transaction keeps other writers waiting for no model."""
        rows: list[dict[str, Any]] = []
        for m in messages:
            text = clean(m.content)
            if not text:
                raise EmptyMessage()
            rows.append(
                {
                    "session": m.session,
                    "role": m.role,
                    "speaker": m.speaker,
                    "content": text,
                    "created_at": m.at or now(),
                }
            )
        return Embedded(list(messages), rows, self.indexer.embed("message", rows))

    def writing(self) -> AbstractContextManager[sqlcipher3.Connection]:
        """One write transaction for messages and what goes with them: all of it is stored, or none, and the
        vectors join the index when it commits."""
        return self.indexer.transaction()

    def store(self, ready: "Embedded", *, citing_first: bool = False) -> list[int]:
        """Each message and its vector together (a full disk leaves both or neither), in writing()."""
        ids = []
        with self.writing() as con:
            for r, m in zip(ready.rows, ready.messages, strict=True):  # a row made of each message
                cur = con.execute(
                    "INSERT INTO messages(id, session, role, speaker, content, created_at) "
                    f"VALUES ({new_id('messages')}, :session, :role, :speaker, :content, :created_at)",
                    r,
                )
                ids.append(cur.lastrowid)
                if m.provenance is not None:
                    p = m.provenance
                    cited = ids[0] if citing_first and len(ids) > 1 else p.message_id
                    con.execute(
                        "INSERT INTO provenance VALUES ('message', ?, ?, ?, ?)",
                        (cur.lastrowid, Source(p.source).value, cited, p.detail),
                    )
            self.indexer.put("message", ids, ready.vectors)
        return ids

    def recent(self, session: str, limit: int = 50) -> list[dict[str, Any]]:
        """The session's newest `limit` messages in the conversation, oldest first: of a message with versions,
        only the one chosen (knowledge/branches.py)."""
        rows = self.soul.query("SELECT * FROM messages WHERE session = ? ORDER BY id DESC LIMIT ?", (session, limit))
        hidden = self.branches.hidden([r["id"] for r in rows])
        return [r for r in rows[::-1] if r["id"] not in hidden]

    def revise(self, message_id: int, content: str) -> None:
        """A reply's text as it now stands (continued where it was cut off): stored with its new vector, the old
        text kept in the edit history as the AI's edit."""
        text = clean(content)
        if not text:
            raise EmptyMessage()
        row = {**self.soul.get("message", message_id), "content": text}
        vectors = self.indexer.embed("message", [row])
        with self.writing():
            self.soul.update("message", message_id, "ai", content=text)
            self.indexer.put("message", [message_id], vectors)

    def since(self, message_id: int, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` messages after `message_id`, oldest first, each with where it came from (`source`:
        None for the companion's replies and for messages stored before provenance was kept)."""
        return self.soul.query(_SOURCED + "WHERE m.id > ? ORDER BY m.id DESC LIMIT ?", (message_id, limit))[::-1]

    def unanswered_opening(self) -> list[dict[str, Any]]:
        """What the companion said before the person ever wrote (an imported card's greeting), oldest first;
        nothing once they have written."""
        if self.soul.query("SELECT 1 FROM messages WHERE role = 'user' LIMIT 1"):
            return []
        return self.soul.query("SELECT * FROM messages WHERE role = 'companion' ORDER BY id")

    def after(self, message_id: int, limit: int) -> list[dict[str, Any]]:
        """The oldest `limit` messages after `message_id`, oldest first, as `since` gives them: a job that reads
        the whole history in order (deep reflection) and remembers where it stopped."""
        return self.soul.query(_SOURCED + "WHERE m.id > ? ORDER BY m.id LIMIT ?", (message_id, limit))

    def naming(self, word: str, limit: int = 50) -> list[dict[str, Any]]:
        """The person's messages whose words hold `word` (as the full-text index reads it: any case), newest
        first, at most `limit`, as `since` gives them (each with its `source`)."""
        phrase = '"' + word.replace('"', "") + '"'
        return self.soul.query(
            _SOURCED + "WHERE m.role = 'user' AND m.id IN "
            "(SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?) ORDER BY m.id DESC LIMIT ?",
            (f"content : {phrase}", limit),
        )

    def these(self, message_ids: Iterable[int]) -> list[dict[str, Any]]:
        """Some messages (those still stored), oldest first, as `since` gives them."""
        return sorted(self.soul.query_in(_SOURCED + "WHERE m.id IN ({ids})", message_ids), key=lambda r: r["id"])

    def newest(
        self, limit: int | None = 500, *, before: int | None = None, down_to: int | None = None
    ) -> list[dict[str, Any]]:
        """The newest messages, newest first, at most `limit` (None: all): those older than message `before`
        when it is given, and none older than message `down_to`. The Open Mind's conversation view reads the
        history so, a page at a time: a page is found by id, never by counting past the ones before it, so the
        oldest page of 100,000 messages comes as quickly as the newest."""
        return self.soul.query(
            "SELECT id, role, speaker, content, created_at FROM messages WHERE id < ? AND id >= ? "
            "ORDER BY id DESC LIMIT ?",
            (_NEWEST if before is None else before, 0 if down_to is None else down_to, -1 if limit is None else limit),
        )

    def find(
        self, words: str, limit: int | None = 500, *, before: int | None = None, down_to: int | None = None
    ) -> list[dict[str, Any]]:
        """The messages whose text holds every word of `words` (through the full-text index, as it stems them:
        "painting" finds "painted"), as `newest` gives them and paged the same way: the Open Mind's search."""
        ids = fts.newest_holding(self.soul, "message", words, "content", limit, before=before, down_to=down_to)
        rows = self.soul.query_in(
            "SELECT id, role, speaker, content, created_at FROM messages WHERE id IN ({ids})", ids
        )
        return sorted(rows, key=lambda r: r["id"], reverse=True)

    def page(
        self, before_id: int | None = None, limit: int = 50, *, session: str | None = None
    ) -> list[dict[str, Any]]:
        """Older history, newest last: for a window that loads it lazily as it is scrolled (of one conversation,
        `session`, or of all). Each row says where it came from (`source`, None before provenance was kept) and
        which message it was sent with (`sent_with`). Of a message with versions only the one chosen is in it,
        with `versions` (knowledge/branches.Versions) to step through them; a reply that did not end by itself
        says how it ended (`ending`, branches.Ending)."""
        before = before_id if before_id is not None else _NEWEST
        where, args = ("m.session = ? AND ", (session,)) if session is not None else ("", ())
        while True:
            rows = self.soul.query(_PAGED + f"WHERE {where}m.id < ? ORDER BY m.id DESC LIMIT ?", (*args, before, limit))
            hidden = self.branches.hidden([r["id"] for r in rows])
            shown = [r for r in rows if r["id"] not in hidden]
            if shown or len(rows) < limit:  # a page of versions set aside only: the one before it
                break
            before = rows[-1]["id"]
        ids = [r["id"] for r in shown]
        versions, endings = self.branches.shown_versions(ids), self.branches.endings(ids)
        return [{**r, "versions": versions.get(r["id"]), "ending": endings.get(r["id"])} for r in shown[::-1]]

    def elsewhere(self, after_id: int, session: str, limit: int, *, newest: bool = False) -> list[dict[str, Any]]:
        """Messages after `after_id` of sessions other than `session`, oldest first, as `page` gives them: what
        another program on this soul (`anima chat`, another window) said since a window read its history. The
        oldest `limit` of them, or the `newest`."""
        rows = self.soul.query(
            _PAGED + f"WHERE m.id > ? AND m.session != ? ORDER BY m.id {'DESC' if newest else ''} LIMIT ?",
            (after_id, session, limit),
        )
        return rows[::-1] if newest else rows

    def ids_elsewhere(self, after_id: int, session: str) -> list[int]:
        """The ids of every message after `after_id` of sessions other than `session`."""
        return [
            r["id"]
            for r in self.soul.query("SELECT id FROM messages WHERE id > ? AND session != ?", (after_id, session))
        ]
