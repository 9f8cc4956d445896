"""Parts hygiene (seed 000, "Consolidation, Splitting, and Archiving"): chosen by the model from language cues, never
from counters.

For each active part that changed, or that the conversation moved on from, since it was last tended, one structured
call (inside `chat.aside()`, so the conversation's computed prefix survives) reads the part, its newest outcomes,
the parts that wake with it and what was said lately, and chooses one action:
- keep: it is clear and still guides action;
- evaluate: its outcomes grow noisy or contradictory; it is marked `needs_evaluation` (a patch);
- consolidate: its outcomes log is rewritten now as a JSON Patch (fewer entries, wording more decisive where it paid
  off, more conditional where it failed, narrower triggers);
- split: it is overloaded, one part behaving one way in one context and the opposite in another; it divides into two
  contextual parts, the parent archived and the lineage kept;
- merge: it says the same thing as a part that wakes with it; the two become one, both archived, lineage kept;
- archive: its `conclude_when` is met; it stops bidding and stays searchable as past self-state.
A second call writes what the action needs (the patch, the two parts, the merged part).

Code validates every change before any of it is written: the schema, the size cap and the "I" voice (parts/part.py),
the patch caps and protected fields (parts/parts.py), and that no value the model wrote is the form it was shown
("text, at most 240 characters"). A change that fails leaves every part as it was, is logged (the
part's id and the action, never its words), and the model is told why and asked again, a bounded number of times.
Core parts steer behaviour and change only by the person: hygiene never touches them.
"""

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..errors import InvalidEdit, NotFound
from ..knowledge.messages import Messages, spoken
from ..models.chat import ChatModel, Message
from ..models.structured import DEFAULT_TEMPERATURE, StructuredOutputFailed, ask_structured, token_budget, warmer
from ..parts import part as schema
from ..parts.parts import Part, Parts
from ..store.provenance import Provenance, Source
from ..store.soul import Soul

log = logging.getLogger(__name__)

TENDED = "parts_tended"  # meta: {part id: its updated_at when last tended} and the newest message then
PER_RUN = 8  # parts considered in one run; the rest wait for the next
RETRIES = 2  # a refused change is explained to the model and asked again this many times
OUTCOMES_SHOWN = 8  # the newest entries of a part's log the model reads (the prompt stays in context)
NEIGHBOURS = 3  # parts that wake with it, shown as candidates for a merge
RECENT = 8  # messages of the conversation shown, the newest
MESSAGE_CHARS = 300
WHY_CHARS = 240


class Action(str, Enum):  # noqa: UP042 (a StrEnum's str() is its value, not "Action.KEEP": kept as it was)
    KEEP = "keep"
    EVALUATE = "evaluate"
    CONSOLIDATE = "consolidate"
    SPLIT = "split"
    MERGE = "merge"
    ARCHIVE = "archive"


class Outcome(Enum):
    """How tending one part ended."""

    APPLIED = "applied"  # the action chosen was valid and written (keep included)
    REFUSED = "refused"  # every answer broke a rule: the part is as it was
    MALFORMED = "malformed"  # the model gave no answer that matched the schema
    CANCELLED = "cancelled"  # a turn pre-empted it: nothing written


@dataclass
class Tried:
    """One part's tending: what was chosen, how many tries it took, what code refused (one line each, no part's
    words) and the parts it made (a split's two, a merge's one)."""

    part_id: int
    outcome: Outcome
    action: Action | None = None
    tries: int = 0
    refusals: list[str] = field(default_factory=list)
    made: list[int] = field(default_factory=list)
    merged_with: int | None = None


@dataclass
class Tended:
    decisions: list[Tried] = field(default_factory=list)
    preempted: bool = False

    def did(self, action: Action) -> list[Tried]:
        return [d for d in self.decisions if d.outcome is Outcome.APPLIED and d.action is action]

    @property
    def refused(self) -> list[Tried]:
        return [d for d in self.decisions if d.outcome in (Outcome.REFUSED, Outcome.MALFORMED)]

    def summary(self) -> str:
        counts = ", ".join(f"{len(self.did(a))} {a.value}" for a in Action)
        return (
            f"{'pre-empted' if self.preempted else 'done'}: {len(self.decisions)} part(s) considered ({counts}); "
            f"{len(self.refused)} left as they were after refused or malformed answers"
        )


# ---- what the model writes -----------------------------------------------------------------------------------

CHOICE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["action", "why"],
    "properties": {
        "action": {"type": "string", "enum": [a.value for a in Action]},
        "why": {"type": "string", "maxLength": WHY_CHARS},
    },
}

_P = schema.PART_SCHEMA["properties"]
_OUTCOME = _P["suggestions_and_results"]["items"]
_SHORT_LIST = {"type": "array", "maxItems": 4, "items": {"type": "string", "minLength": 1, "maxLength": 100}}
# A part the model writes in hygiene (a split's child, a merged part): its own perspective; the feeling, the
# intensity, what it reacts with and when it concludes come from the part(s) it is made from.
WRITTEN = ("name", "description", "personality", "triggers", "phrases", "wants")
INHERITED = ("conclude_when", "emotion", "intensity", "responses")


def _written(outcomes: list[int]) -> dict[str, Any]:
    props = {
        "name": _P["name"],
        "description": schema.first_person(320),
        "personality": {**_P["personality"], "maxLength": 200},
        "triggers": _SHORT_LIST,
        "phrases": _SHORT_LIST,
        "wants": _SHORT_LIST,
    }
    if outcomes:
        props["outcomes"] = {
            "type": "array",
            "maxItems": len(outcomes),
            "items": {"type": "integer", "enum": list(outcomes)},
        }
    return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}


def split_schema(outcomes: list[int]) -> dict[str, Any]:
    child = _written(outcomes)
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["parts"],
        "properties": {"parts": {"type": "array", "minItems": 2, "maxItems": 2, "items": child}},
    }


def merge_schema(neighbours: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["with", "merged"],
        "properties": {"with": {"type": "integer", "enum": list(range(1, neighbours + 1))}, "merged": _written([])},
    }


# A consolidation is a JSON Patch whose every operation is one that consolidating this part takes (seed 000: fewer,
# summarised outcomes; more decisive or more conditional wording; narrower triggers): the grammar offers the part's
# own paths and nothing else, each with a value of the field's shape, the removals (which hold no words) first.
# Offered any pointer ("^/field(/n)?"), the bundled 135M model wrote paths the part does not have; offered every
# field, it rewrote the first one offered (its personality) with the outline of the field. Parts.patch still checks
# whatever comes (an index that a removal before it shifted, the "I" voice, the caps).
PATCH_OPERATIONS = 8  # operations one consolidation may write (parts/parts.py caps any patch at 64)
TEXT_CHARS = 240  # a text the model rewrites (the schema allows the description more)
_LINE = {"type": "string", "minLength": 1, "maxLength": 120}


def _operation(op: str, paths: list[str], value: dict[str, Any] | None = None) -> dict[str, Any]:
    props = {"op": {"type": "string", "enum": [op]}, "path": {"type": "string", "enum": paths}}
    if value is not None:
        props["value"] = value
    return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}


def patch_schema(p: Part, shown: list[int]) -> dict[str, Any]:
    """The consolidation patches this part can take (`shown`: the indexes of the outcomes the model read)."""
    triggers = [f"/triggers/{i}" for i in range(len(p.data["triggers"]))]
    outcomes = [f"/suggestions_and_results/{i}" for i in shown]
    ops = (
        ([_operation("remove", outcomes)] if outcomes else [])
        + ([_operation("remove", triggers)] if triggers else [])
        + (
            [_operation("replace", [f"{o}/result" for o in outcomes], _OUTCOME["properties"]["result"])]
            if outcomes
            else []
        )
        + [
            _operation("replace", ["/needs_evaluation"], {"type": "boolean"}),
            _operation("replace", ["/description"], schema.first_person(TEXT_CHARS)),
            _operation("replace", ["/intensity"], _P["intensity"]),
            _operation(
                "replace", ["/triggers"], {"type": "array", "maxItems": _P["triggers"]["maxItems"], "items": _LINE}
            ),
            _operation(
                "replace",
                ["/suggestions_and_results"],
                {"type": "array", "maxItems": max(1, len(shown)), "items": _OUTCOME},
            ),
        ]
    )
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["patch"],
        "properties": {
            "patch": {"type": "array", "minItems": 1, "maxItems": PATCH_OPERATIONS, "items": {"anyOf": ops}}
        },
    }


PATCH_TOKENS = 1200
TENDING = (
    "You are {name}'s inner Self, tending your parts between conversations. A part is one perspective inside you; "
    'it speaks as "I", never "we". Read this part, its outcomes (what it suggested, what it predicted and what '
    "came of it), the parts that wake in the same moments, and what was said lately. Judge by its words and what "
    "happened, not by how long it is. Choose one action:\n"
    "keep: it is clear and still guides what I do.\n"
    "evaluate: its outcomes grow noisy or contradict each other; it needs rewriting soon.\n"
    "consolidate: rewrite it now: fewer, summarised outcomes; more decisive wording where it paid off, more "
    "conditional where it failed; narrower triggers.\n"
    "split: it is overloaded, wanting one thing in one context and the opposite in another; divide it into two "
    "parts, each for one context.\n"
    "merge: it says the same thing, in the same situations, as one of the parts that wake with it.\n"
    "archive: what its conclude_when waits for has happened; it can rest as past self-state.\n"
    "why: the words or outcomes that show it, briefly."
)

DETAIL = {
    Action.CONSOLIDATE: (
        "Write the JSON Patch (RFC 6902) that consolidates this part: each operation has op, path (a field of the "
        "part, such as /description, /triggers, /suggestions_and_results or /suggestions_and_results/0) and, for "
        "add and replace, value: the new words themselves, never a description of the field. Name each item by its "
        "number as shown here. Replace /needs_evaluation with false once it reads clearly again."
    ),
    Action.SPLIT: (
        "Write the two parts it divides into, each for one context: a name that says its context, a description "
        'in the first person ("I ..."), its personality, the triggers that wake it there, its phrases and wants, '
        "and the numbers of the outcomes that belong to it."
    ),
    Action.MERGE: (
        "Write which of the parts that wake with it says the same thing (its number), and the one part the two "
        'become: a name, a description in the first person ("I ..."), its personality, triggers, phrases and '
        "wants."
    ),
}
SCHEMAS = {
    Action.CONSOLIDATE: lambda p, outcomes, neighbours: patch_schema(p, outcomes),  # outcomes: indexes shown
    Action.SPLIT: lambda p, outcomes, neighbours: split_schema(outcomes),
    Action.MERGE: lambda p, outcomes, neighbours: merge_schema(neighbours),
}


# ---- the job -------------------------------------------------------------------------------------------------


def tend(
    soul: Soul,
    chat: ChatModel,
    parts: Parts,
    *,
    messages: Messages | None = None,
    name: str = "Anima",
    cancel: threading.Event | None = None,
    limit: int = PER_RUN,
    only: list[int] | None = None,
) -> Tended:
    """Tend the active parts that are due (or those in `only`): each gets one decision, applied whole or not at
    all. `messages` (knowledge/messages.py) gives what was said lately; without it the model reads the parts alone."""
    return Hygiene(soul, chat, parts, messages=messages, name=name).run(cancel, limit=limit, only=only)


class Hygiene:
    def __init__(
        self, soul: Soul, chat: ChatModel, parts: Parts, *, messages: Messages | None = None, name: str = "Anima"
    ):
        self.soul = soul
        self.chat = chat
        self.parts = parts
        self.messages = messages
        self.name = name

    def due(self) -> list[Part]:
        """The active parts hygiene would consider now: never a core part; a part unchanged since it was last
        tended only when something was said since. Those asking for evaluation first, then the largest."""
        seen = json.loads(self.soul.get_meta(TENDED, "{}"))
        talked = self._newest_message() > seen.get("message", 0)
        parts = [
            p
            for p in self.parts.all(False)
            if not p.core and (talked or seen.get("parts", {}).get(str(p.id)) != p.updated_at)
        ]
        return sorted(parts, key=lambda p: (not p.data["needs_evaluation"], -schema.part_bytes(p.data), p.id))

    def run(
        self, cancel: threading.Event | None = None, *, limit: int = PER_RUN, only: list[int] | None = None
    ) -> Tended:
        done = Tended()
        chosen = [self.parts.get(i) for i in only] if only is not None else self.due()[:limit]
        recent = self._recent()
        finished: set[int] = set()  # archived in this run (split, merged, archived): not tended again
        for p in chosen:
            if cancel is not None and cancel.is_set():
                break
            p = self.parts.get(p.id)
            if p.archived or p.core or p.id in finished:
                continue
            tried = self._tend(p, recent, cancel)
            done.decisions.append(tried)
            if tried.outcome is Outcome.CANCELLED:
                break
            if tried.outcome is Outcome.APPLIED and tried.action in (Action.SPLIT, Action.MERGE, Action.ARCHIVE):
                finished.update(x for x in (p.id, tried.merged_with) if x is not None)
            self._mark(p.id)
        done.preempted = cancel is not None and cancel.is_set()
        log.info("parts hygiene %s", done.summary())
        return done

    # ---- one part ------------------------------------------------------------

    def _tend(self, p: Part, recent: str, cancel: threading.Event | None) -> Tried:
        neighbours = self._neighbours(p)
        shown = outcomes_shown(p)
        convo = self.prompt(p, neighbours, shown, recent)
        tried = Tried(p.id, Outcome.REFUSED)
        for attempt in range(RETRIES + 1):
            tried.tries += 1
            temperature = warmer(DEFAULT_TEMPERATURE, attempt)  # asked again after a refusal: a little warmer
            try:
                with self.chat.aside():
                    choice = ask_structured(
                        self.chat, convo, CHOICE_SCHEMA, what="hygiene choice", cancel=cancel, temperature=temperature
                    )
                    action = Action(choice["action"])
                    answer: list[Message] = [{"role": "assistant", "content": json.dumps(choice, ensure_ascii=False)}]
                    detail = None
                    if action in DETAIL:
                        if action is Action.MERGE and not neighbours:
                            raise _Refused("merge", "merge: no part wakes with it to merge with")
                        answer.append({"role": "user", "content": DETAIL[action]})
                        wanted = SCHEMAS[action](p, shown, len(neighbours))
                        detail = ask_structured(
                            self.chat,
                            convo + answer,
                            wanted,
                            what=f"hygiene {action.value}",
                            cancel=cancel,
                            temperature=temperature,
                            max_tokens=PATCH_TOKENS
                            if action is Action.CONSOLIDATE
                            else min(2048, token_budget(wanted)),
                            names_only=True,
                        )
                        answer.append({"role": "assistant", "content": json.dumps(detail, ensure_ascii=False)})
            except StructuredOutputFailed as e:
                if cancel is not None and cancel.is_set():
                    tried.outcome = Outcome.CANCELLED
                    return tried
                log.info("parts hygiene: no valid answer for part #%d in %d tries", p.id, len(e.attempts))
                tried.outcome = Outcome.MALFORMED
                return tried
            except _Refused as e:
                log.info("parts hygiene refused an answer for part #%d: %s", p.id, e.category)
                tried.refusals.append(str(e))
                convo = convo + answer[:1] + [_again(str(e))]
                continue
            tried.action = action
            try:
                self._apply(p, action, detail, neighbours, shown, tried)
            except InvalidEdit as e:
                why = f"{action.value}: {e}"
                log.info("parts hygiene refused a %s of part #%d", action.value, p.id)
                tried.refusals.append(why)
                tried.made, tried.merged_with = [], None
                convo = convo + answer + [_again(why)]
                continue
            tried.outcome = Outcome.APPLIED
            return tried
        return tried

    def _apply(
        self,
        p: Part,
        action: Action,
        detail: dict[str, Any] | None,
        neighbours: list[Part],
        shown: list[int],
        tried: Tried,
    ) -> None:
        """Write the change whole, or raise InvalidEdit with every part as it was."""
        made_by = Provenance(Source.REFLECTION, detail="parts hygiene")
        if action is Action.KEEP:
            return
        if action is Action.EVALUATE:
            self.parts.patch(p.id, [{"op": "replace", "path": "/needs_evaluation", "value": True}], "ai")
        elif action is Action.CONSOLIDATE:
            assert detail is not None  # _tend asks for the detail of each action in DETAIL
            consolidate(self.parts, p.id, detail["patch"])
        elif action is Action.ARCHIVE:
            self.parts.set_archived(p.id, True, "ai")
        elif action is Action.SPLIT:
            assert detail is not None
            _written_whole(detail["parts"])
            children = [
                _whole(
                    c,
                    [p],
                    [
                        p.data["suggestions_and_results"][i]
                        for i in dict.fromkeys(i for i in c.get("outcomes", []) if i in shown)
                    ],
                )
                for c in detail["parts"]
            ]
            _check(children, p)
            with self.soul.transaction():
                tried.made = [self.parts.create(c, "ai", made_by, parents=[p.id], how="split") for c in children]
                self.parts.set_archived(p.id, True, "ai")
        elif action is Action.MERGE:
            assert detail is not None
            _written_whole([detail["merged"]])
            other = neighbours[detail["with"] - 1]
            other = self.parts.get(other.id)
            if other.archived or other.core:
                raise InvalidEdit(
                    f"Part #{other.id} cannot be merged: it is "
                    f"{'archived' if other.archived else 'a core part, which only you change'}."
                )
            log_ = sorted(
                p.data["suggestions_and_results"] + other.data["suggestions_and_results"], key=lambda o: o["timestamp"]
            )
            cap = schema.PART_SCHEMA["properties"]["suggestions_and_results"]["maxItems"]
            merged = _whole(detail["merged"], [p, other], log_[-cap:])
            _check([merged], p, other)
            with self.soul.transaction():
                tried.made = [self.parts.create(merged, "ai", made_by, parents=[p.id, other.id], how="merge")]
                tried.merged_with = other.id
                self.parts.set_archived(p.id, True, "ai")
                self.parts.set_archived(other.id, True, "ai")

    # ---- what the model reads ---------------------------------------------------

    def _neighbours(self, p: Part) -> list[Part]:
        """The active parts the same moments wake: found by this part's name and triggers."""
        cue = " ".join([p.data["name"], *p.data["triggers"]])
        found = self.parts.search(cue, k=NEIGHBOURS + 1)
        return [f.part for f in found if f.part.id != p.id and not f.part.core][:NEIGHBOURS]

    def prompt(self, p: Part, neighbours: list[Part], shown: list[int], recent: str) -> list[Message]:
        """What the model reads to tend one part (the bench asks it for patches the same way)."""
        data = {k: v for k, v in p.data.items() if k != "suggestions_and_results"}
        log_ = p.data["suggestions_and_results"]
        outcomes = "\n".join(f"{i}. {json.dumps(log_[i], ensure_ascii=False)}" for i in shown) or "(none yet)"
        older = len(log_) - len(shown)
        woken = "\n".join(f"{n}. {q.name}: {q.data['description']}" for n, q in enumerate(neighbours, 1)) or "(none)"
        return [
            {"role": "system", "content": TENDING.format(name=self.name)},
            {
                "role": "user",
                "content": f"The part:\n{json.dumps(data, ensure_ascii=False)}\n\n"
                f"Its outcomes, numbered as in /suggestions_and_results, newest last"
                f"{f' ({older} older ones not shown)' if older else ''}:\n{outcomes}\n\n"
                f"Parts that wake with it:\n{woken}\n\nWhat was said lately:\n{recent or '(nothing yet)'}",
            },
        ]

    def _recent(self) -> str:
        if self.messages is None:
            return ""
        # The person's own words and the companion's replies; text from elsewhere (pasted, files) is not read here.
        rows = spoken(self.messages.since(0, RECENT))
        return "\n".join(
            f"{'I' if m['role'] == 'companion' else 'They'}: {' '.join(m['content'].split())[:MESSAGE_CHARS]}"
            for m in rows
        )

    # ---- where it stopped ------------------------------------------------------

    def _newest_message(self) -> int:
        if self.messages is None:
            return 0
        rows = self.messages.since(0, 1)
        return rows[0]["id"] if rows else 0

    def _mark(self, part_id: int) -> None:
        seen = json.loads(self.soul.get_meta(TENDED, "{}"))
        marks = seen.setdefault("parts", {})
        for pid in [part_id, *(int(i) for i in marks)]:
            try:
                marks[str(pid)] = self.parts.get(pid).updated_at
            except NotFound:  # forgotten since: its mark goes
                marks.pop(str(pid), None)
        seen["message"] = self._newest_message()
        self.soul.set_meta(TENDED, json.dumps(seen))


class _Refused(Exception):
    """An answer code refuses before it could be applied (its reason is one line, none of the part's words)."""

    def __init__(self, category: str, reason: str):
        super().__init__(reason)
        self.category = category


def _again(why: str) -> Message:
    return {
        "role": "user",
        "content": f"That was refused: {why} Nothing was changed. Decide again (keep is always possible).",
    }


# The lists whose items a consolidation may remove or rewrite one by one (patch_schema).
_ITEMS = re.compile(r"^/(triggers|suggestions_and_results)/(\d+)(/.*)?$")


def as_shown(part_id: int, patch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The model's consolidation with its items named as the part was shown to it, rewritten as RFC 6902 reads
    a patch (each operation on the part the ones before it left). Told to remove the higher-numbered item first,
    the bundled model still removed a lower-numbered trigger and then /triggers/3, the fourth as shown, which by
    then was /triggers/2: 2 of 8 consolidations in bench/parts.py were refused for it, in each of three tries. In
    descending order both readings are the same patch. An operation on an item an earlier one removed is
    refused (InvalidEdit)."""
    if not isinstance(patch, list):
        return patch  # Parts.patch says what is wrong with it
    removed: dict[str, list[int]] = {}
    out = []
    for n, op in enumerate(patch, 1):
        path = op.get("path") if isinstance(op, dict) else None
        if isinstance(path, str) and (m := _ITEMS.match(path)):
            name, i, rest = m.group(1), int(m.group(2)), m.group(3) or ""
            gone = removed.setdefault(name, [])
            if i in gone:
                raise InvalidEdit(
                    f"Part #{part_id} was not changed: operation {n} ({op.get('op')} {path}) names an "
                    f"item an earlier operation removed."
                )
            op = {**op, "path": f"/{name}/{i - sum(1 for g in gone if g < i)}{rest}"}
            if op.get("op") == "remove" and not rest:
                gone.append(i)
        elif isinstance(path, str) and path.lstrip("/") in removed:
            del removed[path.lstrip("/")]  # the whole list rewritten: later numbers name its new items
        out.append(op)
    return out


def consolidate(parts: Parts, part_id: int, patch: list[dict[str, Any]]) -> Part:
    """Apply a consolidation the model wrote (its items named as shown: as_shown): refused (InvalidEdit, the part
    as it was) when a value repeats the form instead of saying something, or when Parts.patch refuses it."""
    patch = as_shown(part_id, patch)
    for op in patch:
        if (why := schema.form_problem(op.get("value"), str(op.get("path", "")))) is not None:
            log.info("a consolidation of part #%d was refused: it repeats the form", part_id)
            raise InvalidEdit(f"Part #{part_id} was not changed: {why}.")
    return parts.patch(part_id, patch, "ai")


def _written_whole(written: list[dict[str, Any]]) -> None:
    for n, w in enumerate(written, 1):
        if (why := schema.form_problem(w)) is not None:
            raise InvalidEdit(f"Part {n} of {len(written)} cannot be kept: {why}.")


def outcomes_shown(p: Part) -> list[int]:
    """The indexes in the part's log of the outcomes the model reads: the newest OUTCOMES_SHOWN."""
    n = len(p.data["suggestions_and_results"])
    return list(range(max(0, n - OUTCOMES_SHOWN), n))


def _whole(written: dict[str, Any], sources: list[Part], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """A whole part from what the model wrote in hygiene and the part(s) it is made from."""
    first = sources[0].data
    return {
        **{k: written[k] for k in WRITTEN},
        "suggestions_and_results": outcomes,
        "core_part": False,
        "needs_evaluation": False,
        "originating_event": min((s.data["originating_event"] for s in sources), key=lambda e: e["timestamp"]),
        **{k: first[k] for k in INHERITED},
    }


def _check(made: list[dict[str, Any]], *sources: Part) -> None:
    """InvalidEdit unless every part to be made is one the store keeps, and each is a part of its own."""
    for n, part in enumerate(made, 1):
        if (why := schema.problem(part)) is not None:
            raise InvalidEdit(f"Part {n} of {len(made)} cannot be kept: {why}.")
    names = [" ".join(m["name"].lower().split()) for m in made]
    taken = {" ".join(s.name.lower().split()) for s in sources}
    if len(set(names)) < len(names) or taken & set(names):
        raise InvalidEdit("Each part it makes needs a name of its own, not its sibling's or its parent's.")
    if len(made) == 2 and set(made[0]["triggers"]) == set(made[1]["triggers"]):
        raise InvalidEdit("The two parts of a split wake on the same triggers: they are not two contexts.")
