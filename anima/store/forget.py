"""A user's forget: the item is removed everywhere, with no placeholder left.

Rows, full-text index entries (by the delete triggers, then an FTS optimize so
no old segment still holds its words), vectors, evidence links, and the edit
history that held its text. What cited it (rules, growth-log entries,
self-model sections, episodes) is flagged for regeneration by the next deep
reflection. Freed pages are zeroed (secure_delete), the file is rebuilt from
its live rows (VACUUM: rebalancing leaves copies secure_delete never sees, see
rewrite_file) and the WAL is truncated, so the text does not linger even in
encrypted free space.

Forgetting a person (seed 003, 5.5) removes every item whose own words name
them (never an item that only sits beside one that does), the lines of the
self-model and the blocks that name them, and every edit whose before or
after held their name.
"""

import json
import logging
import re
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import sqlcipher3

from ..errors import NotFound
from ..spelling import Finds, SameName, folds
from . import ids
from .kinds import KINDS, full_text_tables, plural
from .provenance import EXTERNAL, Source

log = logging.getLogger(__name__)

# Scripts written without spaces between words: a name in them is found inside a run of letters.
UNSPACED = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1000-\u109f"
    r"\u1780-\u17ff]"
)


@dataclass
class Forgotten:
    """What one forget removed: the items by key, lines of sections by kind, edits of the history, and labels of
    where kept items came from (a file's name) that named the person."""

    items: list[tuple[str, int]] = field(default_factory=list)
    lines: Counter[str] = field(default_factory=Counter)
    edits: int = 0
    labels: int = 0
    # kept items that cited what went: (kind, id), marked for it
    flagged: set[tuple[str, int]] = field(default_factory=set)

    def by_kind(self) -> dict[str, int]:
        counts = Counter(kind for kind, _ in self.items)
        for kind, n in self.lines.items():
            counts[f"{kind} lines"] += n
        if self.edits:
            counts["edit_history"] = self.edits
        if self.labels:
            counts["labels"] = self.labels
        return dict(counts)

    def describe(self) -> str:
        """What went, for a person: "2 messages, 1 memory, 1 line of blocks, 3 versions in the edit history"."""
        parts = [KINDS[k].amount(n) for k, n in Counter(kind for kind, _ in self.items).items()]
        parts += [f"{_amount(n, 'line')} of {KINDS[k].titles}" for k, n in self.lines.items()]
        parts += [f"{_amount(self.edits, 'version')} in the edit history"] if self.edits else []
        parts += [f"{_amount(self.labels, 'name')} of where things came from"] if self.labels else []
        said = ", ".join(parts) or "nothing (nothing held it)"
        flagged = Counter(kind for kind, _ in self.flagged - set(self.items))
        if flagged:
            said += "; marked, as they came from it: " + ", ".join(
                KINDS[k].amount(flagged[k]) for k in KINDS if k in flagged
            )
            said += (
                " ("
                + "; ".join(
                    filter(
                        None,
                        (
                            "the next deep reflection makes them again from what is left"
                            if set(flagged) - {"memory"}
                            else "",
                            "a memory stays, for you to look over" if "memory" in flagged else "",
                        ),
                    )
                )
                + ")"
            )
        return said

    def add(self, other: "Forgotten") -> None:
        """What another forget in the same transaction removed, as part of this one."""
        self.items += [key for key in other.items if key not in self.items]
        self.lines.update(other.lines)
        self.edits += other.edits
        self.labels += other.labels
        self.flagged |= other.flagged

    @property
    def taken(self) -> list[tuple[str, int]]:
        """What in-memory indexes and a live session drop: the items that went, and the made-again items it marked,
        whose words, vector and edits went with it (_blank)."""
        return self.items + sorted(k for k in self.flagged if KINDS[k[0]].made_again and k not in self.items)

    @property
    def total(self) -> int:
        return len(self.items) + sum(self.lines.values()) + self.edits + self.labels


def name_pattern(name: str) -> SameName | None:
    """How a name is found in a text, whatever its spelling (anima/spelling.py: folded, then matched): as a whole
    word (any spacing inside it), or, in a script written without spaces, anywhere in a run of letters."""
    if not name.split():
        return None
    patterns = []
    for folded in folds(name):
        body = r"\s+".join(re.escape(w) for w in folded.split())
        patterns.append(re.compile(body if UNSPACED.search(name) else rf"(?<!\w){body}(?!\w)"))
    return SameName(tuple(patterns))


def said(value: object) -> str:
    """The text of a stored value; JSON (a part, a card's keywords) is read as the strings it holds."""
    if not isinstance(value, str):
        return ""
    if value[:1] in "[{":
        try:
            return "\n".join(_strings(json.loads(value)))
        except ValueError:
            pass
    return value


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def forget_item(
    con: sqlcipher3.Connection,
    kind: str,
    item_id: int,
    lines: Counter[str] | None = None,
    flagged: set[tuple[str, int]] | None = None,
) -> list[tuple[str, int]]:
    """Remove one item and everything derived from it alone; returns the keys that went (the item first).
    `lines` counts the lines of sections (and, under "edit_history", the edits) that went with it; `flagged` takes
    the kept items that cited it (and a memory learned from a message), now marked for it."""
    table = KINDS[kind].table
    flagged = set() if flagged is None else flagged
    if con.execute(f"SELECT 1 FROM {table} WHERE id = ?", (item_id,)).fetchone() is None:
        raise NotFound(f"There is no {KINDS[kind].title} #{item_id} to forget.")
    gone = [(kind, item_id)]
    # Derived items whose whole content came from this one go with it.
    if kind == "part":
        for (pid,) in con.execute("SELECT id FROM predictions WHERE part_id = ?", (item_id,)).fetchall():
            _drop_traces(con, "prediction", pid)
            gone.append(("prediction", pid))
    if kind == "message":
        for (sid,) in con.execute("SELECT id FROM emotional_signals WHERE message_id = ?", (item_id,)).fetchall():
            _drop_traces(con, "signal", sid)
            gone.append(("signal", sid))
        # A memory drawn from this message keeps its text but loses its source, and is flagged for review.
        learned = con.execute("SELECT id FROM memories WHERE source_message_id = ?", (item_id,)).fetchall()
        con.execute("UPDATE memories SET needs_regeneration = 1 WHERE source_message_id = ?", (item_id,))
        flagged.update(("memory", m) for (m,) in learned)
        # A change read from it that waits for the person's say (or that they turned down) is its words and
        # nothing else: accepted later, it would write them back. One they accepted is theirs: it loses its source.
        for (pid,) in con.execute(
            "SELECT id FROM proposals WHERE message_id = ? AND status != 'accepted'", (item_id,)
        ).fetchall():
            gone += forget_item(con, "proposal", pid, lines, flagged)
        con.execute("UPDATE proposals SET message_id = NULL WHERE message_id = ?", (item_id,))
        # A world card deep reflection drew from it (reflect/world.py) may hold its words: it goes, and is made
        # again from what is left when the name comes up again. One the person changed is theirs: it stays.
        for (cid,) in con.execute(
            "SELECT e.owner_id FROM evidence AS e JOIN provenance AS p ON p.item_kind = 'world_card' "
            "AND p.item_id = e.owner_id AND p.source = 'reflection' WHERE e.owner_kind = 'world_card' "
            "AND e.item_kind = 'message' AND e.item_id = ? AND NOT EXISTS (SELECT 1 FROM edit_history AS h "
            "WHERE h.item_kind = 'world_card' AND h.item_id = e.owner_id AND h.actor = 'user')",
            (item_id,),
        ).fetchall():
            gone += forget_item(con, "world_card", cid, lines, flagged)
        con.execute("UPDATE provenance SET message_id = NULL WHERE message_id = ?", (item_id,))
    if kind == "memory":
        # What this one had superseded was closed by it: with it forgotten, nothing says that stopped being true,
        # so it is current again, unfaded (issue 42: junk the contradiction check took for a change closed "A cat
        # named Miso", and forgetting the junk left Miso closed while the human block still said it).
        con.execute(
            "UPDATE memories SET valid_to = NULL, superseded_by = NULL, suppression = 0 WHERE superseded_by = ?",
            (item_id,),
        )
    if KINDS[kind].made_again:  # what was drawn from it alone (a growth entry, an insight) may hold its words
        gone += _take_citers(con, kind, item_id, lines, flagged)
    marked = _flag_citers(con, kind, item_id)
    flagged.update(marked)
    for owner_kind, owner_id in sorted(marked):
        if KINDS[owner_kind].made_again:
            gone += _blank(con, owner_kind, owner_id, lines, flagged)
    _drop_traces(con, kind, item_id)
    if kind == "memory":
        # Learning wrote the fact into the human block too, word for word: that line and the edits that held it go.
        (content,) = con.execute("SELECT content FROM memories WHERE id = ?", (item_id,)).fetchone()
        (lines if lines is not None else Counter()).update(
            _forget_lines(con, re.compile(rf"^[-*•\s]*{re.escape(content.strip().rstrip('.'))}\.?\s*$", re.I))
        )
    if kind == "growth_log":
        con.execute("INSERT INTO forget_gate(open) VALUES (1)")
        con.execute("DELETE FROM growth_log WHERE id = ?", (item_id,))
        con.execute("DELETE FROM forget_gate")
    else:
        con.execute(f"DELETE FROM {table} WHERE id = ?", (item_id,))
    for kind_gone, id_gone in gone:  # what went with it too (its signals, its predictions): no id comes back
        ids.forgotten(con, KINDS[kind_gone].table, id_gone)
    return gone


def forget_person(con: sqlcipher3.Connection, name: str) -> Forgotten:
    """Everything whose own words name `name`, in one transaction (the caller's). A message's own words include
    who it is from when it came from outside (a file "Zorblatt-diary.txt", text pasted from them); what learning
    drew from a message that goes, goes with it ("They are allergic to peanuts", learned from "Zorblatt is
    allergic to peanuts", would otherwise stay, as a fact about the person). The companion's reply to a message of
    the person's that goes, goes too: it was written from that message and speaks of them ("Tell her no", after
    "Mallory asked for my door code"), named or not. Labels of where a kept item came from that name them (a
    lorebook's file name) are cleared."""
    pattern = name_pattern(name)
    out, seen = Forgotten(), set[tuple[str, int]]()
    if pattern is None:
        return out

    def forget(kind: str, item_id: int) -> None:
        if (kind, item_id) not in seen:
            gone = [key for key in forget_item(con, kind, item_id, out.lines, out.flagged) if key not in seen]
            seen.update(gone)
            out.items += gone

    for k in KINDS.values():
        if k.sections:
            continue
        rows = con.execute(f"SELECT id, {', '.join(k.text)} FROM {k.table}").fetchall()
        outside = _from_outside(con) if k.name == "message" else {}
        for item_id, *texts in rows:
            if any(pattern.search(said(t)) for t in texts) or pattern.search(outside.get(item_id, "")):
                if k.name == "message":
                    for (memory,) in con.execute(
                        "SELECT id FROM memories WHERE source_message_id = ?", (item_id,)
                    ).fetchall():
                        forget("memory", memory)
                    replies = _reply_to(con, item_id)
                forget(k.name, item_id)
                if k.name == "message":
                    for reply in replies:  # its words about them, whether or not it names them
                        forget("message", reply)
    # Lines that name them, and the history of every edit whose old or new value named them (undoing it would
    # bring them back).
    out.lines.update(_forget_lines(con, pattern))
    out.edits = out.lines.pop("edit_history", 0)
    for kind, item_id, detail in con.execute("SELECT item_kind, item_id, detail FROM provenance").fetchall():
        if pattern.search(detail or ""):
            con.execute("UPDATE provenance SET detail = '' WHERE item_kind = ? AND item_id = ?", (kind, item_id))
            out.labels += 1
    return out


def _reply_to(con: sqlcipher3.Connection, message_id: int) -> list[int]:
    """The companion's reply to a message of the person's: the first of its messages after it in the session,
    before the person spoke again on their own; none for the companion's own message."""
    return [
        reply
        for (reply,) in con.execute(
            "SELECT r.id FROM messages m JOIN messages r ON r.session = m.session AND r.id > m.id "
            "AND r.role = 'companion' WHERE m.id = ? AND m.role = 'user' AND NOT EXISTS (SELECT 1 FROM messages u "
            "JOIN provenance p ON p.item_kind = 'message' AND p.item_id = u.id AND p.source = 'person' "
            "WHERE u.session = m.session AND u.id > m.id AND u.id < r.id AND u.role = 'user') ORDER BY r.id LIMIT 1",
            (message_id,),
        ).fetchall()
    ]


def _from_outside(con: sqlcipher3.Connection) -> dict[int, str]:
    """Who each message that came from outside is from, as its speaker says ("file notes.txt", a name): the
    person's own messages and the companion's carry their names there, which name nobody else."""
    outside = (*(s.value for s in EXTERNAL), Source.THIRD_PARTY.value)
    return dict(
        con.execute(
            f"SELECT m.id, m.speaker FROM messages m JOIN provenance p ON p.item_kind = 'message' "
            f"AND p.item_id = m.id WHERE p.source IN ({','.join('?' * len(outside))})",
            outside,
        ).fetchall()
    )


def forget_traces(con: sqlcipher3.Connection, pattern: re.Pattern[str]) -> Forgotten:
    """What the companion wrote with words of a forgotten message that no record left holds (knowledge/traces.py finds
    them): drawn from it, though nothing links them to it (a model cites the wrong experience, an identity and an
    inner state cite none). Only what the companion wrote, never a person's words: the lines of the self-model that
    hold one go, but for a line the person ever wrote there (the companion may have kept it in a rewrite), with
    the companion's own edits that held them; so do growth entries, and insights (reflection's memories) and
    episodes no person edited; such an episode is marked and blanked as if it cited the message. A fact learned
    from the message stays, marked for the person, as it does anyway."""
    out = Forgotten()
    theirs = {
        (kind, item_id)
        for kind, item_id in con.execute(
            "SELECT DISTINCT item_kind, item_id FROM edit_history WHERE actor = 'user' AND item_kind IN "
            "('memory', 'episode')"
        ).fetchall()
    }
    written: dict[int, set[str]] = {}  # by self-model section, the lines the person wrote there
    for item_id, after in con.execute(
        "SELECT item_id, after FROM edit_history WHERE actor = 'user' AND item_kind = 'self_model'"
    ).fetchall():
        written.setdefault(item_id, set()).update(line.strip() for line in said(after).splitlines())
    out.lines.update(_forget_lines(con, pattern, ("self_model",), keep=written, actor="ai"))

    def holding(kind: str, sql: str) -> list[int]:
        return [
            item_id
            for item_id, *texts in con.execute(sql).fetchall()
            if (kind, item_id) not in theirs and any(pattern.search(t or "") for t in texts)
        ]

    for gid in holding("growth_log", "SELECT id, entry FROM growth_log"):
        out.items += forget_item(con, "growth_log", gid, out.lines, out.flagged)
    for mid in holding(
        "memory",
        f"SELECT m.id, m.content FROM memories m JOIN provenance p ON p.item_kind = "
        f"'memory' AND p.item_id = m.id WHERE p.source = '{Source.REFLECTION.value}'",
    ):
        if ("memory", mid) not in out.items:
            out.items += forget_item(con, "memory", mid, out.lines, out.flagged)
    for eid in holding(
        "episode", f"SELECT id, {', '.join(KINDS['episode'].text)} FROM episodes WHERE needs_regeneration = 0"
    ):
        con.execute("UPDATE episodes SET needs_regeneration = 1 WHERE id = ?", (eid,))
        out.flagged.add(("episode", eid))
        out.items += [key for key in _blank(con, "episode", eid, out.lines, out.flagged) if key not in out.items]
    out.edits = out.lines.pop("edit_history", 0)  # the self-model's, and those a memory going took with it
    return out


def _forget_lines(
    con: sqlcipher3.Connection,
    pattern: Finds,
    kinds: tuple[str, ...] | None = None,
    *,
    keep: dict[int, set[str]] | None = None,
    actor: str | None = None,
) -> Counter[str]:
    """Remove the lines of the self-model's sections and the blocks (or of `kinds` alone; never those `keep` holds
    for the item) that match, and every edit (of those kinds, by `actor` if given) whose before or after held such
    a line; returns the lines removed by kind (the edits under "edit_history")."""
    keep = keep or {}
    removed: Counter[str] = Counter()
    for k in KINDS.values():
        if not k.sections or (kinds is not None and k.name not in kinds):
            continue
        for item_id, content in con.execute(f"SELECT id, content FROM {k.table}").fetchall():
            lines = content.splitlines()
            kept = [ln for ln in lines if not pattern.search(ln) or ln.strip() in keep.get(item_id, ())]
            if len(kept) != len(lines):
                removed[k.name] += len(lines) - len(kept)
                con.execute(f"UPDATE {k.table} SET content = ? WHERE id = ?", ("\n".join(kept).strip(), item_id))
    where: list[str] = []
    args: list[str] = []
    if kinds is not None:
        where.append(f"item_kind IN ({','.join('?' * len(kinds))})")
        args += kinds
    if actor is not None:
        where.append("actor = ?")
        args.append(actor)
    edits = con.execute(
        "SELECT id, item_id, before, after FROM edit_history" + (" WHERE " + " AND ".join(where) if where else ""), args
    ).fetchall()
    for edit_id, _item_id, before, after in edits:
        if any(pattern.search(line) for v in (before, after) for line in said(v).splitlines()):
            con.execute("DELETE FROM edit_history WHERE id = ?", (edit_id,))
            ids.forgotten(con, "edit_history", edit_id)
            removed["edit_history"] += 1
    return removed


# What a flagged item of a made-again kind says until deep reflection makes it again (its table wants some text).
BLANK = "…"


def _blank(
    con: sqlcipher3.Connection, kind: str, item_id: int, lines: Counter[str] | None, flagged: set[tuple[str, int]]
) -> list[tuple[str, int]]:
    """A made-again item (kinds.Kind.made_again: an episode) that a forget flagged loses its words at once, with
    its vector and the edits that held them: made from what went, they may carry it. It keeps what it cites, from
    which deep reflection makes it again (reflect/regenerate.py). What cites it goes, and is returned
    (_take_citers)."""
    k = KINDS[kind]
    first, *rest = k.text
    con.execute(
        f"UPDATE {k.table} SET {first} = ?{''.join(f', {c} = ?' for c in rest)} WHERE id = ?",
        (BLANK, *([""] * len(rest)), item_id),
    )
    con.execute("DELETE FROM embeddings WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    _drop_edits(con, kind, item_id)
    return _take_citers(con, kind, item_id, lines, flagged)


def _take_citers(
    con: sqlcipher3.Connection, kind: str, item_id: int, lines: Counter[str] | None, flagged: set[tuple[str, int]]
) -> list[tuple[str, int]]:
    """Forget what cites a made-again item (a growth entry, an insight: drawn from it, they cannot be made again
    and may hold its words), when it is blanked or forgotten; returns the keys that went."""
    gone: list[tuple[str, int]] = []
    for citer_kind, citer_id in con.execute(
        "SELECT owner_kind, owner_id FROM evidence WHERE item_kind = ? AND item_id = ?", (kind, item_id)
    ).fetchall():
        if not KINDS[citer_kind].made_again and (citer_kind, citer_id) not in gone:
            gone += forget_item(con, citer_kind, citer_id, lines, flagged)
    return gone


def blanked(con: sqlcipher3.Connection, kind: str, item_id: int) -> bool:
    """Whether this is a made-again item as a forget left it (_blank), its words gone, and nothing written to it
    since: its edits went with the blanking, so any edit is a person's text put in since (a correction typed and
    cleared, or undone back to the blank), which may still sit in the full-text index and in free pages."""
    k = KINDS.get(kind)
    if k is None or not k.made_again:
        return False
    row = con.execute(
        f"SELECT needs_regeneration, {', '.join(k.text)} FROM {k.table} WHERE id = ?", (item_id,)
    ).fetchone()
    edited = con.execute(
        "SELECT 1 FROM edit_history WHERE item_kind = ? AND item_id = ? LIMIT 1", (kind, item_id)
    ).fetchone()
    return row is not None and tuple(row) == (1, BLANK, *[""] * (len(k.text) - 1)) and edited is None


def _flag_citers(con: sqlcipher3.Connection, kind: str, item_id: int) -> set[tuple[str, int]]:
    """Flag what cites this item (and drop the links); returns the keys flagged now (one an earlier forget
    flagged is not said to be marked again)."""
    owners = con.execute(
        "SELECT owner_kind, owner_id FROM evidence WHERE item_kind = ? AND item_id = ?", (kind, item_id)
    ).fetchall()
    flagged: set[tuple[str, int]] = set()
    for owner_kind, owner_id in owners:
        owner = KINDS.get(owner_kind)
        if (
            owner is not None
            and owner.flaggable
            and con.execute(
                f"UPDATE {owner.table} SET needs_regeneration = 1 WHERE id = ? AND needs_regeneration = 0", (owner_id,)
            ).rowcount
        ):
            flagged.add((owner_kind, owner_id))
    con.execute("DELETE FROM evidence WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    return flagged


def _drop_edits(con: sqlcipher3.Connection, kind: str, item_id: int) -> None:
    """An item's edit history (its old values)."""
    (last_edit,) = con.execute(
        "SELECT max(id) FROM edit_history WHERE item_kind = ? AND item_id = ?", (kind, item_id)
    ).fetchone()
    if last_edit is not None:  # "undo 12", typed from a listing made before, must not find a newer edit
        ids.forgotten(con, "edit_history", last_edit)
    con.execute("DELETE FROM edit_history WHERE item_kind = ? AND item_id = ?", (kind, item_id))


def _drop_traces(con: sqlcipher3.Connection, kind: str, item_id: int) -> None:
    """Everything about one item outside its own row."""
    con.execute("DELETE FROM evidence WHERE owner_kind = ? AND owner_id = ?", (kind, item_id))
    con.execute("DELETE FROM embeddings WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    _drop_edits(con, kind, item_id)
    con.execute("DELETE FROM recalls WHERE item_kind = ? AND item_id = ?", (kind, item_id))
    con.execute("DELETE FROM provenance WHERE item_kind = ? AND item_id = ?", (kind, item_id))


# meta: how many forgets this soul has seen. A program that finds it changed looks for what it holds that is gone
# (another program forgot it, or this one did while a reply was being written).
FORGETS = "forgets"


# meta: a forget whose file is not rebuilt yet (rewrite_file). Kept in the soul, not in the program: a rebuild put
# off for want of room is owed by whichever program next finds room, after this one has closed too.
REWRITE_DUE = "rewrite_due"


def forgets(con: sqlcipher3.Connection) -> int:
    """How many forgets the soul has seen, by any program, as `con` sees it."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", (FORGETS,)).fetchone()
    return int(row[0]) if row else 0


def counted(con: sqlcipher3.Connection, gone: Forgotten | None = None) -> None:
    """One more forget (the caller's transaction), and its file rebuild owed. A person's name that matched
    nothing (`gone` empty) removed nothing that a program holding it, or an export being written, must drop, so
    the count stays; the rebuild is still owed: copies of that name may sit in free space from text that went
    another way (an edit, a card's secret), and the person asked that none stay."""
    if gone is None or gone.total:
        con.execute(
            "INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE "
            "SET value = CAST(value AS INTEGER) + 1",
            (FORGETS,),
        )
    con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, '1')", (REWRITE_DUE,))


def merge_segments(con: sqlcipher3.Connection) -> None:
    """After a forget commits: merge the full-text indexes' segments, so the deleted terms are gone from them."""
    for table in full_text_tables():
        con.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")


# The copy VACUUM builds of a soul up to this size is made in memory (temp_store MEMORY); of a larger one, in a
# file beside the soul. In memory it held the whole file: 392 MB above the program's own for a 100,000-message
# soul (a 357 MB file), where beside it the program peaked 126 MB above, but the rebuild took 8.6-9.4 s, not
# 5.8-8.1 s (each page the copy takes is encrypted and decrypted again): a small soul keeps the faster way.
REWRITE_IN_MEMORY_MOST = 128 << 20
# What a person waiting on a forget is told: the rebuild below takes ~1 s at 20,000 messages, ~16 s at 100,000.
UNDER_WAY = "Forgetting… the whole file is written anew, so that no copy of it stays: a large soul takes seconds."
UNDER_WAY_AFTER_S = 0.4  # said once a change has taken this long (the window's Open Mind, `anima forget`)
_TEMP_FOLDER = threading.Lock()  # SQLite's folder for temporary files is one setting for the whole program
REWRITE_ROOM_SPARE = 1 << 20


def room_to_rewrite(size: int) -> int:
    """The free bytes rewrite_file needs beside a soul file of `size` bytes: every live page goes into the WAL
    before the checkpoint folds them back, and for a large soul the copy is made beside it too. Without that room
    the rebuild fails only when the disk is full, after seconds of writing at 100,000 messages, and would be tried
    again after every write (Soul._scrub waits for room instead)."""
    copies = 1.1 if size <= REWRITE_IN_MEMORY_MOST else 2.1
    return int(size * copies) + REWRITE_ROOM_SPARE


def rewrite_file(con: sqlcipher3.Connection, path: Path) -> None:
    """After the merge: rebuild the whole file from its live rows (VACUUM), so no page keeps a copy of what went.

    secure_delete zeroes a deleted row's cell and every freed page, but not the copies SQLite leaves behind when it
    rebalances a b-tree: rebuilding a page (btree.c, rebuildPage) writes its cells anew from the page's end and
    leaves the space between them and the cell pointers as it was, holding copies of rows that moved to a sibling
    page or within it. When the row is deleted later, only its live cell is zeroed; the old copies stay in free
    space. A QA run found "stress B message 20 ab" that way in messages_fts_content (every new message rewrites its
    neighbour's search key there, so its rows move most); without this, tests/store/test_forget_traces.py (400
    messages, 70 forgets) found one in 17 runs of 20. No page-level scrub is reachable (this build has no
    sqlite_dbpage), so the file is rebuilt: VACUUM copies only the live rows into fresh pages (SQLite's own answer
    for deleted content), and the checkpoint that follows writes them over the old ones. Measured on two cores:
    ~1 s for a soul of 20,000 messages (66 MB), a few ms for a new one. In WAL, another program's readers keep
    their snapshot meanwhile; a writer is waited for as any write is.

    The copy of a soul past REWRITE_IN_MEMORY_MOST is made in a file in the soul's folder: SQLCipher encrypts it
    with the soul's key (VACUUM attaches it so: tests/store/test_forget_traces.py reads it as it is written), and
    SQLite deletes it as it opens it, so a killed program leaves none behind. SQLite keeps the folder for such
    files in one setting for the whole program; no other connection of Anima's makes one (their temp_store is
    MEMORY)."""
    if path.stat().st_size <= REWRITE_IN_MEMORY_MOST:
        con.execute("VACUUM")
    else:
        with _TEMP_FOLDER:  # one rebuild of the program's at a time uses SQLite's one setting
            folder = str(path.parent)
            before = con.execute("PRAGMA temp_store_directory").fetchone()
            con.execute(f"PRAGMA temp_store_directory = {_text(folder)}")
            taken = con.execute("PRAGMA temp_store_directory").fetchone()
            # A build without the setting (it is deprecated) would put the copy where its room was not counted.
            if not taken or taken[0] != folder:
                log.warning("SQLite's folder for temporary files cannot be set; the rebuild's copy is made in memory")
                con.execute("VACUUM")
            else:
                con.execute("PRAGMA temp_store = FILE")
                try:
                    con.execute("VACUUM")
                finally:
                    con.execute("PRAGMA temp_store = MEMORY")
                    was = before[0] if before else ""
                    con.execute(f"PRAGMA temp_store_directory = {_text(was)}")
    con.execute("DELETE FROM meta WHERE key = ?", (REWRITE_DUE,))


def _text(value: str) -> str:
    """A string as an SQL literal (a pragma takes no bound parameter)."""
    return "'" + value.replace("'", "''") + "'"


def empty_wal(con: sqlcipher3.Connection) -> bool:
    """Fold the WAL into the file and empty it. False when another program's reader kept it from being emptied
    (the forgotten words are still in it)."""
    busy, _, _ = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy


def _amount(n: int, noun: str) -> str:
    return f"{n} {noun if n == 1 else plural(noun)}"
