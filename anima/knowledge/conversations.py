"""Conversations: one soul, many conversations (issue 39). A conversation is a session of messages.

The `conversations` table (store/migrations.py m014) is kept in step with the messages by triggers: when it was
last spoken in, how many messages it holds, and its title. This room reads it and changes the title; forgetting
a whole conversation goes through the soul's forgetting (Companion.forget_conversation), never a DELETE here, so
its words leave the indexes, the recalls and the traces too.
"""

import re
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidEdit, NotFound
from ..retrieval import fts
from ..store.soul import Soul
from ..trust.text import clean

TITLE_MOST = 60  # characters of a title: a sidebar row shows about this many
LISTED = 200  # conversations listed at once: a sidebar reads more as it is scrolled
FOUND = 50  # search results at once
SNIPPET = 80  # characters of a message shown around what was searched for
_QUOTES = "\"'`“”‘’«»"


@dataclass(frozen=True)
class Listed:
    """A conversation as the sidebar lists it."""

    session: str
    title: str  # never empty: the person's, the model's, or the first line of the first message
    created_at: str
    updated_at: str  # its last message's time
    messages: int
    titled: bool  # whether `title` was given (renamed, or by the model), not the first line standing in


@dataclass(frozen=True)
class Found:
    """A message that holds the words searched for."""

    session: str
    message_id: int
    snippet: str  # the message around the first word found, on one line
    at: str  # when it was said
    role: str


def first_line(text: str, most: int = TITLE_MOST) -> str:
    """A title made of a message: its first non-blank line, cut at a word to `most` characters (with an ellipsis),
    or the first `most` characters of a word longer than that."""
    line = next((ln.strip() for ln in clean(text).splitlines() if ln.strip()), "")
    # Its whitespace made single spaces, as far as the title reads: the whole of a pasted line of a million
    # characters took one regex call holding the GIL ~30 ms, at each listing of the conversations.
    words, length = [], -1
    for word in re.finditer(r"\S+", line):
        words.append(word.group())
        length += 1 + len(words[-1])
        if length > most:
            break
    line = " ".join(words)
    if len(line) <= most:
        return line
    cut = line[: most - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.-") + "…"


def valid_title(text: str) -> str | None:
    """A title as the model or a person wrote it, made one short line: None when it is not one (more than one line
    of words, empty, too long, quotes inside it rather than round it)."""
    lines = [ln.strip() for ln in clean(text).splitlines() if ln.strip()]
    if len(lines) != 1:
        return None
    title = lines[0].strip(_QUOTES + " ").removeprefix("Title:").strip(_QUOTES + " .")
    if not title or len(title) > TITLE_MOST or any(q in title for q in _QUOTES):
        return None
    return re.sub(r"\s+", " ", title)


class Conversations:
    def __init__(self, soul: Soul):
        self.soul = soul

    def listed(self, limit: int = LISTED, *, before: tuple[str, str] | None = None) -> list[Listed]:
        """The conversations, the most recently spoken in first, at most `limit`: those after `before` (the
        (updated_at, session) of the last one listed) when given. A page is found through the index, never by
        counting past the ones before it."""
        after = "WHERE (c.updated_at, c.session) < (?, ?) " if before is not None else ""
        rows = self.soul.query(
            "SELECT c.*, (SELECT content FROM messages WHERE session = c.session AND role = 'user' ORDER BY id "
            "LIMIT 1) AS first FROM conversations AS c " + after + "ORDER BY c.updated_at DESC, c.session DESC LIMIT ?",
            (*(before or ()), limit),
        )
        return [self._listed(r) for r in rows]

    def get(self, session: str) -> Listed:
        rows = self.soul.query(
            "SELECT c.*, (SELECT content FROM messages WHERE session = c.session AND role = 'user' ORDER BY id "
            "LIMIT 1) AS first FROM conversations AS c WHERE c.session = ?",
            (session,),
        )
        if not rows:
            raise NotFound("That conversation is no longer here: it was forgotten, or never had a message.")
        return self._listed(rows[0])

    @staticmethod
    def _listed(r: dict[str, Any]) -> Listed:
        title = r["title"] or first_line(r["first"] or "") or "A conversation"
        return Listed(r["session"], title, r["created_at"], r["updated_at"], r["messages"], r["title"] is not None)

    def count(self) -> int:
        return int(self.soul.query("SELECT count(*) AS n FROM conversations")[0]["n"])

    def rename(self, session: str, title: str) -> str:
        """The person's own title for a conversation; returns it as kept (one line, at most TITLE_MOST)."""
        kept = re.sub(r"\s+", " ", clean(title))
        if not kept:
            raise InvalidEdit("A conversation's title cannot be empty; the old one is kept.")
        if len(kept) > TITLE_MOST:
            kept = first_line(kept)
        with self.soul.transaction() as con:
            done = con.execute(
                "UPDATE conversations SET title = ?, titled_upto = NULL WHERE session = ?", (kept, session)
            ).rowcount
        if not done:
            raise NotFound("That conversation is no longer here: it was forgotten.")
        return kept

    def untitled_exchange(self, session: str) -> tuple[str, str, int] | None:
        """The first exchange of a conversation that has no title yet: the person's first message, the reply after
        it, and the reply's id (what a title made of them reads up to); None once it has a title, or before its
        first reply."""
        rows = self.soul.query(
            "SELECT m.id, m.role, m.content FROM conversations AS c JOIN messages AS m ON m.session = c.session "
            "WHERE c.session = ? AND c.title IS NULL ORDER BY m.id LIMIT 20",
            (session,),
        )
        said = next((i for i, r in enumerate(rows) if r["role"] == "user"), None)
        if said is None:
            return None
        reply = next((r for r in rows[said + 1 :] if r["role"] == "companion"), None)
        if reply is None:
            return None
        return rows[said]["content"], reply["content"], reply["id"]

    def titled(self, session: str, title: str, upto: int) -> bool:
        """The model's title for a conversation, made from its messages up to `upto`: kept only while it still has
        none (a rename meanwhile wins) and those messages are all still there (none was forgotten meanwhile)."""
        with self.soul.transaction() as con:
            return bool(
                con.execute(
                    "UPDATE conversations SET title = ?, titled_upto = ? WHERE session = ? AND title IS NULL "
                    "AND (SELECT count(*) FROM messages WHERE session = ? AND id <= ?) >= 2",
                    (title, upto, session, session, upto),
                ).rowcount
            )

    def newer_than(self, session: str, message_id: int) -> int:
        """How many messages of a conversation are `message_id` and after it: the page that reaches down to it."""
        return int(
            self.soul.query("SELECT count(*) AS n FROM messages WHERE session = ? AND id >= ?", (session, message_id))[
                0
            ]["n"]
        )

    def message_ids(self, session: str) -> list[int]:
        """Every message of a conversation, oldest first (what forgetting it forgets)."""
        return [r["id"] for r in self.soul.query("SELECT id FROM messages WHERE session = ? ORDER BY id", (session,))]

    def search(self, words: str, limit: int = FOUND) -> list[Found]:
        """The messages of every conversation that hold every word of `words` (the full-text index, stemmed:
        "painting" finds "painted"), newest first, each with a snippet around the first word found."""
        ids = fts.newest_holding(self.soul, "message", words, "content", limit)
        rows = self.soul.query_in(
            "SELECT id, session, role, content, created_at FROM messages WHERE id IN ({ids})", ids
        )
        wanted = [t for t in fts.terms(words) if t]
        found = [Found(r["session"], r["id"], snippet(r["content"], wanted), r["created_at"], r["role"]) for r in rows]
        return sorted(found, key=lambda f: f.message_id, reverse=True)


def snippet(text: str, words: list[str], most: int = SNIPPET) -> str:
    """`text` on one line, cut to about `most` characters around the first of `words` it holds (by a word's start:
    the index stems, so "paint" marks "painted")."""
    flat = re.sub(r"\s+", " ", clean(text))
    lower = flat.lower()
    at = min((i for w in words if (i := lower.find(w.lower()[:5])) >= 0), default=0)
    start = max(0, at - most // 3)
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    cut = flat[start : start + most]
    return ("…" if start else "") + cut + ("…" if start + most < len(flat) else "")
