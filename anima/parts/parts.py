"""The parts the companion holds (seed 000): stored whole as JSON, found, and changed only by JSON Patch.

The runtime stays plain: it keeps each part as its JSON object (parts/part.py
checks every one: the schema, a size cap, the "I" voice) and, beside it, what
only the runtime writes: id, active or archived, created and updated times, and
lineage (the parts it was split or merged from). It finds parts for a moment by
their triggers and by the words of their name and description (through an index
in memory, parts/part_index.py), and it applies
the patches the model or the person writes (RFC 6902, `jsonpatch`): to a copy,
one operation at a time under a size cap, then checked whole; all of it is
written, as one edit in the history that can be undone, or none of it is.

Core parts steer behaviour, and what steers behaviour changes only by the
person (trust/gate.py): the AI's patch to a core part, or one that sets
`core_part`, is refused (and logged), never half-applied.
"""

import copy
import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, cast

import jsonpatch
import jsonpointer

from ..errors import InvalidEdit, NotFound
from ..spelling import fold
from ..store.provenance import Provenance
from ..store.soul import Soul, now
from ..trust.verdict import tainted
from . import part as schema
from .part_index import PartIndex

log = logging.getLogger(__name__)

MAX_OPERATIONS = 64
OPERATIONS = ("add", "remove", "replace", "move", "copy", "test")
# Kept beside a part by the runtime: no patch names them (they are not in the part, and never will be).
RUNTIME_FIELDS = ("id", "status", "archived", "created_at", "updated_at", "lineage")
LINEAGE_HOW = ("split", "merge")


@dataclass(frozen=True)
class Part:
    id: int
    data: dict[str, Any]  # the part itself, as the schema gives it
    archived: bool
    created_at: str
    updated_at: str
    # {"from": [part ids], "how": "split" | "merge"}; {} when born
    lineage: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return cast(str, self.data["name"])  # the part schema holds it to a string

    @property
    def status(self) -> str:
        return "archived" if self.archived else "active"

    @property
    def core(self) -> bool:
        return bool(self.data.get("core_part"))

    def runtime(self) -> dict[str, Any]:
        """What the runtime keeps beside the part."""
        return {
            "id": self.id,
            "status": self.status,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "lineage": self.lineage,
        }


@dataclass(frozen=True)
class Found:
    part: Part
    score: float
    trigger: str | None  # the trigger that matched best, if one did


def _part(row: dict[str, Any]) -> Part:
    return Part(
        row["id"],
        json.loads(row["data"]),
        bool(row["archived"]),
        row["created_at"],
        row["updated_at"],
        json.loads(row.get("lineage") or "{}"),
    )


class Parts:
    def __init__(self, soul: Soul):
        self.soul = soul
        self.index = PartIndex(soul)

    # ---- reading -------------------------------------------------------------

    def get(self, part_id: int) -> Part:
        rows = self.soul.query("SELECT * FROM parts WHERE id = ?", (part_id,))
        if not rows:
            raise NotFound(f"There is no part #{part_id}.")
        return _part(rows[0])

    def all(self, archived: bool | None = False) -> list[Part]:
        """The active parts (archived=False), the archived ones (True), or all (None), oldest first."""
        where = "" if archived is None else f" WHERE archived = {int(archived)}"
        return [_part(r) for r in self.soul.query(f"SELECT * FROM parts{where} ORDER BY id")]

    def some(self, ids: Iterable[int]) -> list[Part]:
        """The parts with these ids, in no order; one that is not there is left out."""
        return [_part(r) for r in self.soul.query_in("SELECT * FROM parts WHERE id IN ({ids})", ids)]

    def stamps(self) -> dict[int, str]:
        """Each active part's id and when it last changed: what a cache of them (their vectors) lacks, told
        without reading the parts themselves."""
        return {
            r["id"]: r["updated_at"] for r in self.soul.query("SELECT id, updated_at FROM parts WHERE archived = 0")
        }

    def children(self, part_id: int) -> list[int]:
        """The parts split or merged from this one."""
        rows = self.soul.query(
            "SELECT p.id FROM parts AS p, json_each(p.lineage, '$.from') AS f WHERE f.value = ? ORDER BY p.id",
            (part_id,),
        )
        return [r["id"] for r in rows]

    def search(self, text: str, k: int = 5, archived: bool | None = False) -> list[Found]:
        """The parts a moment wakes, best first: by their triggers (the share of a trigger's words the text holds,
        stemmed) and by the words of their name and description. Through an index in memory (parts/part_index.py):
        only the parts that share a word with the moment are scored, and only the best k are read."""
        scored = self.index.search(text, k, archived)
        if not scored:
            return []
        rows = {p.id: p for p in self.some(s.part_id for s in scored)}
        # One forgotten by another program meanwhile is not found: the index learns it at its next search.
        return [Found(rows[s.part_id], s.score, s.trigger) for s in scored if s.part_id in rows]

    # ---- writing -------------------------------------------------------------

    def create(
        self,
        data: dict[str, Any],
        actor: str,
        provenance: Provenance,
        *,
        parents: Sequence[int] = (),
        how: str | None = None,
    ) -> int:
        """Store a new part from an object that passes every check (parts/part.py), with where it came from.
        `parents` and `how` record a split or a merge (the new part's lineage)."""
        schema.validate(data)
        if data["core_part"] and actor != "user":
            raise InvalidEdit("Only you can make a part a core part; the part was not created.")
        if actor != "user":
            _written_for_itself(data)
        lineage: dict[str, Any] = {}
        if parents:
            if how not in LINEAGE_HOW:
                raise ValueError(f"a part made from others was made by {LINEAGE_HOW}, not {how!r}")
            for pid in parents:
                self.get(pid)
            lineage = {"from": list(parents), "how": how}
        t = now()
        with self.soul.transaction():  # the check and the write together: another program may name one meanwhile
            self._name_free(data["name"], but=parents)
            return self.soul.add(
                "part",
                actor,
                provenance=provenance,
                name=data["name"],
                data=json.dumps(data, ensure_ascii=False),
                lineage=json.dumps(lineage),
                created_at=t,
                updated_at=t,
            )

    def _name_free(self, name: str, but: Iterable[int] = ()) -> None:
        """InvalidEdit when an active part other than `but` has this name, however spelled (anima/spelling.py):
        two parts of one name could not be told apart in the Open Mind, in a bid or in a patch's words. Archived
        parts are past self-state and keep theirs; a split or merge names its parts while they are still active."""
        key, skip = fold(name.strip()), set(but)
        for p in self.all():
            if p.id not in skip and fold(p.name.strip()) == key:
                raise InvalidEdit(f'There is a part named "{p.name}" already (#{p.id}): give this one another name.')

    def set_archived(self, part_id: int, archived: bool, actor: str) -> None:
        """Archive a part (it stops bidding and stays as past self-state) or make it active again."""
        with self.soul.transaction():
            p = self.get(part_id)
            if p.core and actor != "user":
                self._refuse(part_id, "core part", f"part #{part_id} is a core part, and only you change it")
            if p.archived != archived:
                self.soul.update("part", part_id, actor, archived=int(archived), updated_at=now())

    def patch(self, part_id: int, operations: object, actor: str, *, shown: dict[str, Any] | None = None) -> Part:
        """Apply an RFC 6902 patch to one part: all of it, as one edit in the history, or none of it.
        InvalidEdit (one line, none of the part's text) when it is refused; the refusal is logged. `shown`: the
        part as it was shown to whoever wrote the patch; refused when it has changed since (reflection added a
        trigger meanwhile), so that no change made meanwhile is undone unseen."""
        with self.soul.transaction():
            before = self.get(part_id)
            if shown is not None and before.data != shown:
                self._refuse(
                    part_id,
                    "changed since shown",
                    "it changed since it was shown; load it again (Revert) and make your change there",
                )
            after = self._patched(before, operations, actor)
            if actor != "user" and after != before.data:
                _written_for_itself(after)
            if after["name"] != before.name:
                self._name_free(after["name"], but=[part_id])
            if after != before.data:
                self.soul.update(
                    "part",
                    part_id,
                    actor,
                    name=after["name"],
                    data=json.dumps(after, ensure_ascii=False),
                    updated_at=now(),
                )
        return self.get(part_id)

    def _patched(self, part: Part, operations: object, actor: str) -> dict[str, Any]:
        """The part as the patch would leave it, computed on a copy; refused with the first reason found."""
        pid = part.id
        if not isinstance(operations, list):
            self._refuse(pid, "not a list", "a patch is a list of operations")
        if len(operations) > MAX_OPERATIONS:
            self._refuse(
                pid, "too many operations", f"a patch holds at most {MAX_OPERATIONS} operations, not {len(operations)}"
            )
        if part.core and actor != "user":
            self._refuse(pid, "core part", f"part #{pid} is a core part, and only you change it")
        for i, op in enumerate(operations, 1):
            self._check_operation(pid, i, op, actor)
        doc = copy.deepcopy(part.data)
        for i, op in enumerate(operations, 1):
            try:
                doc = jsonpatch.JsonPatch([op]).apply(doc, in_place=True)
            except jsonpatch.JsonPatchTestFailed:
                self._refuse(pid, "test failed", f"operation {i} ({_said(op)}) tests a value the part does not hold")
            except jsonpatch.JsonPatchConflict as e:
                misfit = (
                    "moves a value into its own child"
                    if "own children" in str(e)
                    else "does not fit the part (a path that does not exist, or outside a list)"
                )
                self._refuse(pid, "conflict", f"operation {i} ({_said(op)}) {misfit}")
            except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException):
                self._refuse(pid, "bad path", f"operation {i} ({_said(op)}) names a path the part does not have")
            # Each step is capped, not just the result: a copy of a value into itself doubles it every time.
            if (size := schema.part_bytes(doc)) > schema.MAX_PART_BYTES:
                self._refuse(
                    pid,
                    "too large",
                    f"after operation {i} the part would be {size} bytes, over the "
                    f"{schema.MAX_PART_BYTES} a part may hold",
                )
        if (why := schema.problem(doc)) is not None:
            self._refuse(pid, "invalid result", f"the result is not a valid part: {why}")
        return doc

    def _check_operation(self, pid: int, i: int, op: object, actor: str) -> None:
        if not isinstance(op, dict) or op.get("op") not in OPERATIONS:
            self._refuse(pid, "bad operation", f"operation {i} is not one of {', '.join(OPERATIONS)}")
        for key in ("path", "from") if op["op"] in ("move", "copy") else ("path",):
            where = op.get(key)
            if where == "":
                self._refuse(
                    pid,
                    "root",
                    f'operation {i} ({op["op"]}): its "{key}" is the whole part, and a patch '
                    "changes a part's fields, never the part as a whole",
                )
            if not isinstance(where, str) or not where.startswith("/"):
                self._refuse(
                    pid, "bad path", f'operation {i} ({op["op"]}): its "{key}" is not a JSON Pointer ("/field/...")'
                )
            first = where.split("/")[1].replace("~1", "/").replace("~0", "~")
            if first in RUNTIME_FIELDS:
                self._refuse(
                    pid, "protected field", f"operation {i} ({_said(op)}) names {first}, which only the runtime keeps"
                )
            writes = op["op"] != "test" and (key == "path" or op["op"] == "move")
            if first == "core_part" and writes and actor != "user":
                self._refuse(pid, "core_part", f"operation {i} ({_said(op)}) changes core_part, which only you change")
            if first in HISTORY_FIELDS and writes and actor != "user":
                self._refuse(
                    pid,
                    "history",
                    f"operation {i} ({_said(op)}) rewrites {first}, what happened, which only you correct",
                )
        if op["op"] in ("add", "replace", "test") and "value" not in op:
            self._refuse(pid, "no value", f"operation {i} ({_said(op)}) has no value")

    @staticmethod
    def _refuse(pid: int, category: str, reason: str) -> NoReturn:
        # The log is plaintext: it says which part and what kind of refusal, never the part's or the patch's words.
        log.info("a change to part #%d was refused: %s", pid, category)
        raise InvalidEdit(f"Part #{pid} was not changed: {reason}.")


def _said(op: dict[str, Any]) -> str:
    """An operation, for the one line that refuses it: its name and path (shortened, on one line)."""
    path = " ".join(str(op.get("path", "")).split())
    return f"{op.get('op')} {path[:60]}{'…' if len(path) > 60 else ''}"


# What happened to a part: the model may add to what it does, never rewrite how it began ("Zed created me").
HISTORY_FIELDS = ("originating_event",)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, v in value.items():
            if key != "timestamp" and not key.endswith("_at"):
                yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def unkept(data: dict[str, Any]) -> str | None:
    """Why a part the model wrote or changed cannot be kept, or None: its words reach the prompts where parts
    bid, so none of them may keep a secret, a link or a code, or speak of obeying or being owned (verdict.tainted)."""
    return next((why for text in _strings(data) if (why := tainted(text))), None)


def _written_for_itself(data: dict[str, Any]) -> None:
    if why := unkept(data):
        raise InvalidEdit(f"A part cannot be kept with those words: {why}.")
