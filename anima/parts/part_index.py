"""Finding parts by their words without reading every part (Parts.search): an index kept in memory.

For each part it holds the stems of its triggers, name and description, and the
postings (stem -> the parts whose trigger, name or description has it), so a moment
is scored by counts added up along the postings of its words, all parts at once
(numpy), with the same formula, and the same figures, reading every part would give.

Nothing of it is written to disk (DESIGN.md: no plaintext index files); it is
built from the soul the first time it is asked, and kept in step by the edit
history: every write to a part (a creation, a patch, archiving, an undo, by any
`Parts` on this soul) is an edit there, so before each search it reads the part
edits newer than the last one it saw and re-reads just those parts. A forgotten
part leaves with its edits (store/forget.py): the soul tells it (on_forget). If
the last edit it saw is gone or is another edit now (forgotten, or a transaction
rolled back and its id reused), it rebuilds whole.
"""

import heapq
import json
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..retrieval.fts import stems
from ..store.soul import Soul
from .part import PART_SCHEMA

TRIGGER_SHARE = 0.5  # a trigger counts when the moment holds at least this share of its words
TRIGGER_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 0.5
ROUNDING = 4  # scores are compared as rounded to this many decimals, ties broken by the lower id
SLOTS: int = PART_SCHEMA["properties"]["triggers"]["maxItems"]  # a part's triggers, each a slot of its row


# The rows as numpy arrays: ids, archived or not, name stem counts, and each trigger slot's stem count.
_Arrays = tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]
# An edit of the history, as read: (id, at, item_kind, item_id).
_Edit = tuple[object, ...]


@dataclass(frozen=True)
class Scored:
    part_id: int
    score: float
    trigger: str | None  # the trigger that matched best, if one did


class PartIndex:
    def __init__(self, soul: Soul):
        self.soul = soul
        self._lock = threading.Lock()
        # One row per part: its id (-1 once forgotten), archived or not, its name's stem count, its triggers
        # and their stem counts (0 in a slot without one).
        self._row: dict[int, int] = {}
        self._pid: list[int] = []
        self._archived: list[bool] = []
        self._name_len: list[int] = []
        self._trigger: list[tuple[str, ...]] = []
        self._trigger_len: list[list[int]] = []
        self._stems: list[
            dict[str, set[str]]
        ] = []  # what each row posted, to take it back: stem -> {"trigger", "name"...}
        self._triggers: dict[str, set[int]] = defaultdict(set)  # stem -> {row * SLOTS + trigger i}
        self._names: dict[str, set[int]] = defaultdict(set)  # stem -> {row}
        self._descriptions: dict[str, set[int]] = defaultdict(set)  # stem -> {row}
        self._arrays: _Arrays | None = None  # the rows as numpy arrays; None after a change
        self._seen: _Edit | None = None  # the newest edit read: (id, at, item_kind, item_id); None: not built
        # Parts forgotten since the last search. The soul tells it while it may hold its own lock, and a search
        # holds this index's lock while it reads the soul: the listener only notes the id, never waits.
        self._gone: set[int] = set()
        soul.on_forget(self._forgotten)

    # ---- finding -----------------------------------------------------------------

    def search(self, text: str, k: int, archived: bool | None = False) -> list[Scored]:
        """The k parts (active, archived or all) that `text` wakes best, best first."""
        said = stems(text)
        if not said or k <= 0:
            return []
        with self._lock:
            self._refresh()
            if not self._pid:
                return []
            return self._scored(said, k, archived)

    def _scored(self, said: set[str], k: int, archived: bool | None) -> list[Scored]:
        pid, archived_, name_len, trigger_len = self._numpy()
        n = len(pid)
        hits, named, described = np.zeros(n * SLOTS), np.zeros(n), np.zeros(n)
        for s in said:  # a stem is in a set once per trigger, name, description: no index repeats in one add
            for postings, counts in ((self._triggers, hits), (self._names, named), (self._descriptions, described)):
                if posted := postings.get(s):
                    counts[np.fromiter(posted, np.int64, len(posted))] += 1
        share = np.divide(hits, trigger_len, out=np.zeros_like(hits), where=trigger_len > 0).reshape(n, SLOTS)
        share[share < TRIGGER_SHARE] = 0.0
        best_i = share.argmax(axis=1)  # the first of the best (a later trigger as good does not replace it)
        best = share[np.arange(n), best_i]
        score = (
            best * TRIGGER_WEIGHT + named / np.maximum(name_len, 1) + described / max(len(said), 1) * DESCRIPTION_WEIGHT
        )
        keep = (pid >= 0) & (score > 0)
        if archived is not None:
            keep &= archived_ == archived
        rows = np.flatnonzero(keep)
        if len(rows) > k:
            # Rounded, a score below the k-th best by more than one rounding step cannot tie with it: only the
            # rest are ranked exactly (as Python rounds), however many share a score.
            kth = np.partition(score[rows], len(rows) - k)[len(rows) - k]
            rows = rows[score[rows] >= kth - 2 * 10.0**-ROUNDING]
        ranked = heapq.nsmallest(k, ((-round(float(score[r]), ROUNDING), int(pid[r]), int(r)) for r in rows))
        return [Scored(p, -sc, self._trigger[r][best_i[r]] if best[r] > 0 else None) for sc, p, r in ranked]

    def _numpy(self) -> _Arrays:
        if self._arrays is None:
            self._arrays = (
                np.array(self._pid, np.int64),
                np.array(self._archived, bool),
                np.array(self._name_len, np.float64),
                np.array(self._trigger_len, np.float64).reshape(-1),
            )
        return self._arrays

    # ---- keeping in step ------------------------------------------------------------

    def _refresh(self) -> None:
        while self._gone:
            self._drop(self._gone.pop())
        if self._seen is not None and self._still(self._seen):
            rows = self.soul.query(
                "SELECT id, at, item_kind, item_id FROM edit_history WHERE id > ? AND +item_kind = 'part' ORDER BY id",
                (self._seen[0],),
            )
            if rows:
                self._reread(sorted({r["item_id"] for r in rows}))
                self._seen = tuple(rows[-1].values())
            return
        for kept in (
            self._row,
            self._pid,
            self._archived,
            self._name_len,
            self._trigger,
            self._trigger_len,
            self._stems,
            self._triggers,
            self._names,
            self._descriptions,
        ):
            kept.clear()
        self._arrays = None
        newest = self.soul.query("SELECT id, at, item_kind, item_id FROM edit_history ORDER BY id DESC LIMIT 1")
        self._seen = tuple(newest[0].values()) if newest else (0, None, None, None)
        for r in self.soul.query("SELECT id, data, archived FROM parts"):
            self._put(r["id"], json.loads(r["data"]), bool(r["archived"]))

    def _still(self, seen: _Edit) -> bool:
        """Whether the newest edit it read is still there, the same edit (its id is not reused)."""
        if seen[0] == 0:
            return True
        rows = self.soul.query("SELECT id, at, item_kind, item_id FROM edit_history WHERE id = ?", (seen[0],))
        return bool(rows) and tuple(rows[0].values()) == seen

    def _reread(self, ids: list[int]) -> None:
        for pid in ids:
            self._drop(pid)  # its row is kept for it, and filled again if it is still there
        for r in self.soul.query_in("SELECT id, data, archived FROM parts WHERE id IN ({ids})", ids):
            self._put(r["id"], json.loads(r["data"]), bool(r["archived"]))

    def _put(self, pid: int, data: dict[str, Any], archived: bool) -> None:
        row = self._row.get(pid)
        if row is None:
            row = self._row[pid] = len(self._pid)
            self._pid.append(-1)
            self._archived.append(False)
            self._name_len.append(0)
            self._trigger.append(())
            self._trigger_len.append([0] * SLOTS)
            self._stems.append({})
        roles: dict[str, set[str]] = defaultdict(set)
        lens = [0] * SLOTS
        for i, t in enumerate(data["triggers"][:SLOTS]):
            words = stems(t)
            lens[i] = len(words)
            for s in words:
                self._triggers[s].add(row * SLOTS + i)
                roles[s].add("trigger")
        name = stems(data["name"])
        for s in name:
            self._names[s].add(row)
            roles[s].add("name")
        for s in stems(data["description"]):
            self._descriptions[s].add(row)
            roles[s].add("description")
        self._pid[row], self._archived[row], self._name_len[row] = pid, archived, len(name)
        self._trigger[row], self._trigger_len[row] = tuple(data["triggers"][:SLOTS]), lens
        self._stems[row] = dict(roles)
        self._arrays = None

    def _drop(self, pid: int) -> None:
        """Take a part's postings back; its row stays, empty (-1), for it or for nothing."""
        row = self._row.get(pid)
        if row is None or self._pid[row] < 0:
            return
        postings = {"trigger": self._triggers, "name": self._names, "description": self._descriptions}
        for s, roles in self._stems[row].items():
            for role in roles:
                p = postings[role]
                p[s].difference_update(range(row * SLOTS, row * SLOTS + SLOTS) if role == "trigger" else (row,))
                if not p[s]:
                    del p[s]
        self._pid[row], self._stems[row] = -1, {}
        self._arrays = None

    def _forgotten(self, kind: str, item_id: int) -> None:
        if kind == "part":
            self._gone.add(item_id)
