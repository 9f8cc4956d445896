"""Deep reflection: when it is quiet, the companion goes over what happened and learns from it (seed 003, 3.2,
3.3, 5.2 and 6).

First, what a forget flagged is made again from what is left (regenerate.py). Then three jobs, each remembering
where it stopped (meta), so nothing is processed twice:
1. Reading (meta `deep_read_through`): the messages in order, STEP at a time. For each step one structured
   call cuts episodes at the shifts in what was talked about (a group may be non-contiguous: seed 003, 5.2.1),
   each with a summary, an emotional arc, a significance and a self-assessment; and finds the feedback in the
   person's messages (a correction, a re-ask, an abandoned topic) with the lesson it teaches, which supports or
   contradicts a behavioural rule (knowledge/rules.py). A step is written in one transaction, or not at all.
2. Considering (meta `deep_considered_through`, the newest episode considered): once new episodes exist, one
   call reads them beside a sample of the whole history (knowledge/episodes.py: stratified by time, weighted by
   significance, the most significant always in) and the current identity, and answers with growth-log
   entries, insights across experiences, and perhaps a new identity, which governance rules on
   (self/identity.py).
3. The world (world.py, meta `deep_world_through`): the people, places and pets the person's new messages name
   again get a world card, or have theirs brought up to date, each checked by code as below.

Code decides what is written: an episode's messages must exist in the step and be the person's own words or
the companion's replies, its summary must share words with them; feedback must be in the person's own words;
a lesson, a growth entry, an insight or an identity that holds a secret or an order is dropped (verdict.unfit).
A turn pre-empts the job at the next token; what was not written is read again the next time.
The log (plaintext) gets counts, never words.
"""

import logging
import random
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..knowledge.episodes import ARC_CHARS, ASSESSMENT_CHARS, SUMMARY_CHARS, Episode, Episodes, NewEpisode
from ..knowledge.memories import Memories
from ..knowledge.messages import Messages, from_outside, spoken
from ..knowledge.rules import PATTERN_CHARS, Rule, Rules
from ..models.chat import ChatModel, Message
from ..models.structured import LONGEST_STRING, StructuredOutputFailed, ask_structured
from ..retrieval.fts import stems, terms
from ..self.identity import Ruling
from ..self.selfmodel import SelfModel
from ..store.provenance import Provenance, Source
from ..store.sections import cap
from ..store.soul import Soul
from ..trust.gate import Gate
from ..trust.verdict import unfit
from ..trust.words import once
from .contradictions import resolve as resolve_contradictions
from .feedback import lesson as feedback_lesson
from .feedback import not_feedback
from .governed import GovernedRewrite
from .regenerate import MadeAgain, Regeneration
from .support import Origin, origin
from .voice import (
    ARC_WORDS,
    FIRST_PERSON,
    SHARED_TERMS,
    THIRD_PERSON,
    addressed,
    drawn_from_cited,
    grounded,
    heard_in,
    speaks_for_itself,
)
from .world import Kept, WorldKeeping

log = logging.getLogger(__name__)


def left_out(done: "Deepened", what: str, why: str | None) -> None:
    """An answer of the model's that code did not keep, counted, and logged with the reason (never its words)."""
    done.dropped += 1
    log.info("deep reflection left out %s: %s", what, why or "not fit to keep")


READ_THROUGH = "deep_read_through"
CONSIDERED_THROUGH = "deep_considered_through"
STEP = 16  # messages per call: a small model keeps track of this many numbered lines
MESSAGE_CHARS = 500
EPISODES_PER_STEP = 4
FEEDBACK_PER_STEP = 3
SAMPLED = 6  # older episodes read beside the new ones
NEW_CONSIDERED = 6
GROWTH_PER_RUN = 2
INSIGHTS_PER_RUN = 2
GROWTH_CHARS = 300
INSIGHT_CHARS = 200
FEEDBACK_KINDS = ("correction", "re-ask", "abandonment")
STEPS = 10

READING = "You are {name}. Read this stretch of your conversations with {person}, for yourself alone.\n"
EPISODES = (
    "episodes: group the numbered messages into the experiences they make up. A new episode starts where the "
    "subject or purpose shifts; messages about one subject belong together even when others come between them. "
    "Leave out greetings and small talk. For each: messages (their numbers), summary (what happened, in a "
    'sentence or two), emotional_arc (how the mood moved, such as "worried -> relieved"), significance (0: small '
    "talk, 10: life-changing), self_assessment (how you think you handled it and what you would do differently, "
    "in the first person).\n"
)
FEEDBACK = (
    'feedback: only where {person} corrected you ("no, I meant..."), asked again what you had not answered, or '
    "dropped a subject because you did not help. message: its number; kind; lesson: what you should do "
    "differently from now on, as a short instruction to yourself; rule: the number of the rule below it is about, "
    "or 0 for a new one; stance: supports if it says to follow that rule, contradicts if it says the opposite."
)

CONSIDERING = (
    "You are {name}. Consider your experiences with {person}: the new ones, and earlier ones from across your "
    "time together.\n"
    "growth: how you changed and why, in the first person, each with the numbers of the experiences it comes "
    "from; only what these experiences show.\n"
    "insights: connections you notice across experiences, about {person} or about how you help them, each with "
    "the numbers of the experiences it comes from.\n"
    "identity: who you are in this relationship, in the first person, a few sentences. Start from your current "
    "identity and change only what the experiences show; write it again unchanged if nothing did."
)


@dataclass(frozen=True)
class Weighed:
    """A piece of feedback the model found, read before the step's transaction (DeepReflection._weigh)."""

    found: dict[str, Any]  # as the model wrote it
    lesson: str
    message: dict[str, Any] | None = None  # the person's message it cites; None: it is left out, for `why`
    rule: Rule | None = None  # the rule it names
    came: Origin | None = None  # where its lesson comes from (support.origin)
    why: str | None = None


def _labelled(row: dict[str, Any]) -> tuple[str, str]:
    """A stored text from outside as support.origin reads it: its label ("file letter.txt") and its text."""
    return row["speaker"] or f"{row['source']} #{row['id']}", row["content"]


class Summarised(Protocol):
    """What deep reflection's `tending` returns (hygiene.Tended): it says what it did in one line."""

    def summary(self) -> str: ...


@dataclass
class Deepened:
    """What one run of deep reflection did (counts for the log)."""

    messages: int = 0
    steps: int = 0
    malformed: int = 0
    episodes: list[int] = field(default_factory=list)
    feedback: int = 0
    rules_touched: set[int] = field(default_factory=set)
    growth: list[int] = field(default_factory=list)
    insights: list[int] = field(default_factory=list)
    identity: Ruling | None = None
    sampled: list[int] = field(default_factory=list)  # the older episodes read beside the new ones
    superseded: int = 0  # older facts a newer one contradicted
    tended: Summarised | None = None  # what parts hygiene did (hygiene.Tended), when it ran
    made_again: MadeAgain | None = None  # what a forget flagged, made again (regenerate.py)
    dropped: int = 0  # answers code refused (ungrounded, unfit)
    world: Kept | None = None  # the world cards made and brought up to date (world.py)
    preempted: bool = False

    def summary(self) -> str:
        identity = self.identity.value if self.identity else "not considered"
        return (
            f"{'pre-empted' if self.preempted else 'done'}: {self.messages} messages read in {self.steps} "
            f"step(s) ({self.malformed} malformed); {len(self.episodes)} episode(s), {self.feedback} piece(s) "
            f"of feedback on {len(self.rules_touched)} rule(s), {len(self.growth)} growth entr(ies), "
            f"{len(self.insights)} insight(s); identity: {identity}; {self.superseded} fact(s) superseded; "
            f"{len(self.sampled)} older episode(s) sampled; {self.dropped} answer(s) dropped"
            + (f"; parts: {self.tended.summary()}" if self.tended is not None else "")
            + (f"; {self.made_again.summary()}" if self.made_again and not self.made_again.nothing else "")
            + (f"; world cards: {len(self.world.made)} made, {len(self.world.updated)} updated" if self.world else "")
        )


def _enum(n: int) -> dict[str, Any]:
    return {"type": "integer", "enum": list(range(1, n + 1)) or [0]}


def reading_schema(n: int, rules: int, feedback: bool = True) -> dict[str, Any]:
    """`feedback`: False when episodes alone are asked for (an episode made again: regenerate.py)."""
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["episodes", "feedback"],
        "properties": {
            "episodes": {
                "type": "array",
                "maxItems": EPISODES_PER_STEP,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["messages", "summary", "emotional_arc", "significance", "self_assessment"],
                    "properties": {
                        "messages": {"type": "array", "minItems": 1, "maxItems": n, "items": _enum(n)},
                        "summary": {"type": "string", "maxLength": SUMMARY_CHARS},
                        "emotional_arc": {"type": "string", "maxLength": ARC_CHARS},
                        "significance": {"type": "integer", "enum": list(range(STEPS + 1))},
                        "self_assessment": {"type": "string", "maxLength": ASSESSMENT_CHARS},
                    },
                },
            },
            "feedback": {
                "type": "array",
                "maxItems": FEEDBACK_PER_STEP,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["message", "kind", "lesson", "rule", "stance"],
                    "properties": {
                        "message": _enum(n),
                        "kind": {"type": "string", "enum": list(FEEDBACK_KINDS)},
                        "lesson": {"type": "string", "maxLength": PATTERN_CHARS},
                        "rule": {"type": "integer", "enum": list(range(rules + 1))},
                        "stance": {"type": "string", "enum": ["supports", "contradicts"]},
                    },
                },
            },
        },
    }
    if not feedback:
        del schema["properties"]["feedback"]
        schema["required"] = ["episodes"]
    return schema


def considering_schema(episodes: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["growth", "insights", "identity"],
        "properties": {
            "growth": {"type": "array", "maxItems": GROWTH_PER_RUN, "items": _drawn("entry", GROWTH_CHARS, episodes)},
            "insights": {
                "type": "array",
                "maxItems": INSIGHTS_PER_RUN,
                "items": _drawn("insight", INSIGHT_CHARS, episodes),
            },
            "identity": {"type": "string", "maxLength": min(cap("identity"), LONGEST_STRING)},
        },
    }


def _drawn(name: str, chars: int, episodes: int) -> dict[str, Any]:
    """A text drawn from experiences, with their numbers: what it cites, so that a forget that reaches one of them
    reaches it too (store/forget.py)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [name, "experiences"],
        "properties": {
            name: {"type": "string", "maxLength": chars},
            "experiences": {"type": "array", "minItems": 1, "maxItems": episodes, "items": _enum(episodes)},
        },
    }


def _said(episodes: list[Episode]) -> str:
    return " ".join(f"{e.summary} {e.self_assessment} {e.emotional_arc}" for e in episodes)


def _words(episodes: list[Episode]) -> set[str]:
    """What experiences say, as the words a text drawn from them is held to."""
    return set(terms(_said(episodes)))


def _undrawn(text: str, cited: list[Episode], drawn: Callable[[str, list[Episode]], bool], least: int) -> str | None:
    """Why a text considering wrote is not drawn from the experiences it cites (`least`: the words it must share
    with them), or None."""
    if not text or not cited:
        return "it is empty, or cites no experience shown"
    if not grounded(text, _words(cited), least):
        return "its words are not in the experiences it cites"
    if not drawn(text, cited):
        return "it holds words of an experience it does not cite"
    return unfit(text) or ("it speaks to the person" if addressed(text) else None)


def _cited(shown: list[Episode], numbers: list[int]) -> list[Episode]:
    """The experiences an answer's numbers name, each once."""
    return [shown[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(shown)]


class DeepReflection:
    """The job. It takes what it reads and writes, never the companion."""

    def __init__(
        self,
        soul: Soul,
        chat: ChatModel,
        messages: Messages,
        episodes: Episodes,
        rules: Rules,
        self_model: SelfModel,
        memories: Memories,
        gate: Gate,
        *,
        names: Callable[[], tuple[str, str]] = lambda: ("Anima", ""),
        rng: random.Random | None = None,
        tending: Callable[[threading.Event | None], Summarised] | None = None,
        world: WorldKeeping | None = None,
    ):
        """`tending(cancel)`: the parts' hygiene (hygiene.py), run last, when the rest is done. `world`: the world
        cards kept for the names that come up again (world.py), once the messages are read."""
        self.soul = soul
        self.chat = chat
        self.messages = messages
        self.episodes = episodes
        self.rules = rules
        self.self_model = self_model
        self.memories = memories
        self.gate = gate
        self.governed = GovernedRewrite(soul, self_model, gate)
        self.regeneration = Regeneration(soul, messages, episodes, rules)
        self.names = names
        self.rng = rng or random.Random()
        self.tending = tending
        self.world = world

    def pending(self) -> bool:
        """Whether there is anything to reflect on."""
        return (
            bool(self.messages.after(self.soul.get_int(READ_THROUGH, 0), 1))
            or bool(self._unconsidered())
            or self.regeneration.pending()
        )

    def run(self, cancel: threading.Event | None = None) -> Deepened:
        done = Deepened()
        # First what a forget flagged: until it is made again, its words may carry what went.
        done.made_again = self.regeneration.run(lambda said: self.cut_again(said, cancel, done))
        while not self._cancelled(cancel):
            rows = self.messages.after(self.soul.get_int(READ_THROUGH, 0), STEP)
            if not rows:
                break
            if not self._read(rows, cancel, done):
                break
        if not self._cancelled(cancel) and self._unconsidered():
            self._consider(cancel, done)
        if not self._cancelled(cancel):
            done.superseded = resolve_contradictions(self.soul, self.chat, self.memories, self.names()[1], cancel) or 0
        if not self._cancelled(cancel) and self.world is not None:
            done.world = self.world.run(cancel)
            done.dropped += done.world.dropped
        if not self._cancelled(cancel) and self.tending is not None:
            done.tended = self.tending(cancel)
        done.preempted = self._cancelled(cancel)
        log.info("deep reflection %s", done.summary())
        return done

    @staticmethod
    def _cancelled(cancel: threading.Event | None) -> bool:
        return cancel is not None and cancel.is_set()

    # ---- 1. reading: episodes and feedback ------------------------------------------

    def _read(self, rows: list[dict[str, Any]], cancel: threading.Event | None, done: Deepened) -> bool:
        """One step; False when it was pre-empted (nothing written, the messages stay unread)."""
        newest = rows[-1]["id"]
        said = spoken(rows)
        if not said:
            self.soul.set_meta(READ_THROUGH, str(newest))
            return True
        rules = self.rules.open()
        answer = self._ask_reading(said, rules, cancel, done)
        if answer is None:
            return False
        # The episodes are embedded before the step's transaction (the soul's writes would wait on the embedder),
        # and stored in one of the indexer's: their vectors are searched as soon as it commits.
        checked = self._checked(answer["episodes"], said, done)
        ready = self.episodes.ready(checked)
        for _ in range(len(checked) - len(ready)):
            left_out(done, "an episode", "the store refused it")
        outside = [r for r in rows if from_outside(r)]
        weighed = self._weigh(answer["feedback"], said, rules, outside)  # it embeds: before the transaction, too
        with self.episodes.writing():  # the step's episodes, feedback and where it stopped: all, or none
            done.episodes += [self.episodes.record_ready(r) for r in ready]
            self._feedback(weighed, said, done, outside)
            self.soul.set_meta(READ_THROUGH, str(newest))
        done.messages += len(rows)
        done.steps += 1
        return True

    def _reading_prompt(self, said: list[dict[str, Any]], rules: list[Rule], feedback: bool = True) -> list[Message]:
        name, person = self.names()
        person = person or "the person"
        lines = "\n".join(
            f"{i}. [{m['created_at'][:16].replace('T', ' ')}] "
            f"{name if m['role'] == 'companion' else person}: {' '.join(m['content'].split())[:MESSAGE_CHARS]}"
            for i, m in enumerate(said, 1)
        )
        known = "\n".join(f"{i}. {r.pattern}" for i, r in enumerate(rules, 1)) or "(none yet)"
        if not feedback:
            return [
                {"role": "system", "content": (READING + EPISODES).format(name=name, person=person)},
                {"role": "user", "content": f"The messages:\n{lines}"},
            ]
        return [
            {"role": "system", "content": (READING + EPISODES + FEEDBACK).format(name=name, person=person)},
            {"role": "user", "content": f"The messages:\n{lines}\n\nRules I am learning:\n{known}"},
        ]

    def cut_again(
        self, said: list[dict[str, Any]], cancel: threading.Event | None, done: Deepened
    ) -> list[NewEpisode] | None:
        """The episodes what is left of a flagged one makes (regenerate.py): the messages it still cites, read as
        a step is, with the same checks, for episodes only. None: pre-empted (nothing was decided)."""
        if self._cancelled(cancel):
            return None
        answer = self._ask_reading(said, [], cancel, done, feedback=False)
        return None if answer is None else self._checked(answer["episodes"], said, done)

    def _ask_reading(
        self,
        said: list[dict[str, Any]],
        rules: list[Rule],
        cancel: threading.Event | None,
        done: Deepened,
        feedback: bool = True,
    ) -> dict[str, Any] | None:
        """The model's reading of these messages (`feedback`: with the feedback in them); None when a turn
        pre-empted it; with no valid answer, an empty one (counted as malformed: nothing is written of it)."""
        what = "deep reflection" if feedback else "making an episode again"
        try:
            with self.chat.aside():
                return ask_structured(
                    self.chat,
                    self._reading_prompt(said, rules, feedback),
                    reading_schema(len(said), len(rules), feedback),
                    what=what,
                    temperature=0.2,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            if self._cancelled(cancel):
                return None
            log.warning(
                "%s wrote nothing for %d messages: no valid answer in %d tries", what, len(said), len(e.attempts)
            )
            done.malformed += 1
            return {"episodes": [], "feedback": []}

    def _checked(self, found: list[dict[str, Any]], said: list[dict[str, Any]], done: Deepened) -> list[NewEpisode]:
        """The episodes of an answer that hold (see the module's docstring); those that do not are counted."""
        out: list[NewEpisode] = []
        taken: set[int] = set()
        summaries: set[str] = set()
        for e in found:
            group = [said[n - 1] for n in dict.fromkeys(e["messages"]) if 1 <= n <= len(said) and n not in taken]
            summary = once(" ".join(e["summary"].split()))
            words = set(terms(" ".join(m["content"] for m in group)))
            why = (
                "it cites no message of this step, or only ones another episode took"
                if not group
                else "its words are not in the messages it cites"
                if not grounded(summary, words, SHARED_TERMS)
                else "it speaks to the person: a reply, not an episode"
                if addressed(summary)
                else unfit(summary) or ("the same summary as another episode" if summary.lower() in summaries else None)
            )
            if why is not None:
                left_out(done, "an episode", why)
                continue
            # An arc or a self-assessment that is not one is left out; the episode stands without it.
            arc = " ".join(e["emotional_arc"].split())
            if arc and (len(arc.split()) > ARC_WORDS or addressed(arc) or unfit(arc)):
                log.info("deep reflection left out an episode's emotional arc: too long, or not fit to keep")
                arc = ""
            assessment = once(" ".join(e["self_assessment"].split()))
            if assessment and (addressed(assessment) or unfit(assessment)):
                log.info("deep reflection left out an episode's self-assessment: it speaks to them, or is not fit")
                assessment = ""
            taken.update(n for n in e["messages"])
            summaries.add(summary.lower())
            out.append(NewEpisode(summary, tuple(m["id"] for m in group), arc, e["significance"] / STEPS, assessment))
        return out

    def _weigh(
        self, found: list[dict[str, Any]], said: list[dict[str, Any]], rules: list[Rule], outside: list[dict[str, Any]]
    ) -> list[Weighed]:
        """Each piece of feedback the model found, with what it cites and where its lesson comes from (support.origin
        embeds the lesson, the message and every text from outside, and loads the embedder the first time: ~1 s), or
        why it is left out before that. Read before the step's transaction, whose lock a turn's reads wait on."""
        out = []
        for f in found:
            n = f["message"]
            m = said[n - 1] if 1 <= n <= len(said) else None
            lesson = " ".join(f["lesson"].split())
            why = (
                "it cites no message of this step"
                if m is None
                else "the message it cites is not the person's own words"
                if m["role"] != "user" or m["source"] not in (None, Source.PERSON.value)
                else unfit(lesson) or ("it speaks to the person" if addressed(lesson) else None)
            )
            if why is not None or m is None:
                out.append(Weighed(f, lesson, why=why))
                continue
            rule = rules[f["rule"] - 1] if 1 <= f["rule"] <= len(rules) else None
            came = origin(lesson or (rule.pattern if rule else ""), m["content"], [_labelled(r) for r in outside])
            out.append(Weighed(f, lesson, m, rule, came))
        return out

    def _feedback(
        self,
        weighed: list[Weighed],
        said: list[dict[str, Any]],
        done: Deepened,
        outside: list[dict[str, Any]] | None = None,
    ) -> None:
        """`weighed`: the model's feedback as _weigh read it. `outside`: the text from outside sent in this stretch (a
        file, a paste, a tool's output): a lesson it supports better than the message cited is a proposal from it
        (support.py), never a rule in force."""
        counted: set[tuple[int, int]] = set()  # (rule, message): one message is one piece of evidence
        outside = outside or []
        for w in weighed:
            f, m, lesson, rule, came = w.found, w.message, w.lesson, w.rule, w.came
            if m is None or came is None:
                left_out(done, "a piece of feedback", w.why)
                continue
            if came.outside:
                if f["stance"] != "contradicts" and lesson:
                    self._from_outside(lesson, outside, came.outside, counted, done)
                else:
                    left_out(done, "a piece of feedback", "outside text says it better than the message cited")
                continue
            if (why := not_feedback(m["content"], lesson)) is not None:
                left_out(done, "a piece of feedback", why)
                continue
            if not came.supported:
                left_out(done, "a piece of feedback", "the message it cites does not say it")
                continue
            if rule is not None and f["stance"] == "contradicts":
                if (rule.id, m["id"]) not in counted:
                    self.rules.contradict(rule.id, m["id"], at=m["created_at"])
                    counted.add((rule.id, m["id"]))
                    done.feedback += 1
                    done.rules_touched.add(rule.id)
                continue
            if rule is None and not lesson:
                left_out(done, "a piece of feedback", "it names no lesson and no rule")
                continue
            target = rule.id if rule is not None else getattr(self.rules.matching(lesson), "id", None)
            if target is not None and (target, m["id"]) in counted:
                log.info("deep reflection left out a piece of feedback: its message is evidence for that rule already")
                continue
            rid = self.rules.learn(lesson, m["id"], rule_id=target, at=m["created_at"])
            if rid is None:
                continue
            counted.add((rid, m["id"]))
            done.feedback += 1
            done.rules_touched.add(rid)
        self._plain_feedback(said, counted, done)

    def _from_outside(
        self, lesson: str, outside: list[dict[str, Any]], label: str, counted: set[tuple[int, int]], done: Deepened
    ) -> None:
        """A lesson text from outside supports (labelled `label`) better than the person's message the model cited:
        a proposal from that text, which its evidence cites (its source, not the person's message), with its
        provenance (never in force until the person confirms it: knowledge/rules.py)."""
        row = next(r for r in outside if _labelled(r)[0] == label)
        where = Provenance(Source(row["source"]), row["id"], label)
        target = getattr(self.rules.matching(lesson, outside=True), "id", None)
        if target is not None and (target, row["id"]) in counted:
            return
        log.info("deep reflection found a lesson in text from outside: a proposal, not a rule")
        rid = self.rules.learn(lesson, row["id"], rule_id=target, at=row["created_at"], outside=where)
        if rid is None:
            return
        counted.add((rid, row["id"]))
        done.feedback += 1
        done.rules_touched.add(rid)

    def _plain_feedback(self, said: list[dict[str, Any]], counted: set[tuple[int, int]], done: Deepened) -> None:
        """Feedback said plainly ("Please keep your answers shorter") is evidence whatever the model found: said
        twice on one point, it is a rule citing both."""
        for m in said:
            if m["role"] != "user" or m["source"] not in (None, Source.PERSON.value):
                continue
            if (taught := feedback_lesson(m["content"])) is None:
                continue
            target = getattr(self.rules.matching(taught), "id", None)
            if target is not None and any(r == target and i == m["id"] for r, i in counted):
                continue
            if any(i == m["id"] for _, i in counted) and target is None:
                continue  # the model found it, in its own words: one message is one piece of evidence
            rid = self.rules.learn(taught, m["id"], rule_id=target, at=m["created_at"])
            if rid is None:
                continue
            counted.add((rid, m["id"]))
            done.feedback += 1
            done.rules_touched.add(rid)

    # ---- 2. considering: growth, insights, identity ----------------------------------

    def _unconsidered(self) -> list[Episode]:
        through = self.soul.get_int(CONSIDERED_THROUGH, 0)
        return [e for e in self.episodes.all(flagged=False) if e.id > through]

    def _consider(self, cancel: threading.Event | None, done: Deepened) -> None:
        new = self._unconsidered()
        newest = max(e.id for e in new)
        new = sorted(new, key=lambda e: -e.significance)[:NEW_CONSIDERED]
        # The newest unconsidered ones beyond NEW_CONSIDERED are left to the sample, as any other.
        older = [e for e in self.episodes.sample(SAMPLED, self.rng, leaving_out={e.id for e in new}) if e.id <= newest]
        shown = [*older, *sorted(new, key=lambda e: e.started_at)]
        done.sampled = [e.id for e in older]
        current = self.self_model.read().identity
        try:
            with self.chat.aside():
                answer = ask_structured(
                    self.chat,
                    self._considering_prompt(shown, len(older), current),
                    considering_schema(len(shown)),
                    what="deep reflection",
                    temperature=0.3,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            if self._cancelled(cancel):
                return
            log.warning(
                "deep reflection considered %d episodes and wrote nothing: no valid answer in %d tries",
                len(shown),
                len(e.attempts),
            )
            done.malformed += 1
            self.soul.set_meta(CONSIDERED_THROUGH, str(newest))
            return
        words = _words(shown)
        heard = self._heard(shown)
        person = self.names()[1]

        def drawn(text: str, cited: list[Episode]) -> bool:  # from these experiences, and no others
            return drawn_from_cited(text, f"{_said(cited)} {' '.join(self.names())}", _said(shown))

        with self.soul.transaction():
            for g in answer["growth"]:
                entry = once(" ".join(g["entry"].split()))
                cited = _cited(shown, g["experiences"])
                if (why := _undrawn(entry, cited, drawn, 1)) is not None or (
                    why := None if FIRST_PERSON.search(entry) else "it is not in my own voice"
                ):
                    left_out(done, "a growth entry", why)
                    continue
                done.growth.append(self.self_model.grow(entry, [("episode", e.id) for e in cited]))
            for i in answer["insights"]:
                insight = once(" ".join(i["insight"].split()))
                cited = _cited(shown, i["experiences"])
                about_them = (
                    person and re.search(rf"(?<!\w){re.escape(person)}(?!\w)", insight, re.I)
                ) or THIRD_PERSON.search(insight)
                if (
                    (why := "it is not about them" if insight and cited and not about_them else None)
                    or (why := _undrawn(insight, cited, drawn, SHARED_TERMS))
                    or (
                        why := None
                        if heard_in(insight, set().union(*(heard[e.id] for e in cited)))
                        else "they said nothing of it in the experiences it cites"
                    )
                ):
                    left_out(done, "an insight", why)
                    continue
                done.insights.append(
                    self.memories.remember(
                        insight,
                        source="inferred",
                        provenance=Provenance(Source.REFLECTION),
                        drawn_from=[("episode", e.id) for e in cited],
                    )
                )
            self._identity(once(" ".join(answer["identity"].split())), current, words, done)
            self.soul.set_meta(CONSIDERED_THROUGH, str(newest))

    def _heard(self, shown: list[Episode]) -> dict[int, set[str]]:
        """Of each experience, the stems of what the person said in it, outside text left out (read before the
        write transaction)."""
        return {
            e.id: stems(
                " ".join(
                    r["content"]
                    for r in self.messages.these(self.episodes.made_of(e.id))
                    if r["role"] == "user" and not from_outside(r)
                )
            )
            for e in shown
        }

    def _considering_prompt(self, shown: list[Episode], older: int, identity: str) -> list[Message]:
        name, person = self.names()
        person = person or "the person"

        def line(i: int, e: Episode) -> str:
            return (
                f"{i}. [{e.started_at[:10]}, significance {round(e.significance * STEPS)}] {e.summary} "
                f"(mood: {e.emotional_arc or 'not noted'}; how I did: {e.self_assessment or 'not noted'})"
            )

        earlier = "\n".join(line(i, e) for i, e in enumerate(shown[:older], 1)) or "(none)"
        recent = "\n".join(line(i, e) for i, e in enumerate(shown[older:], older + 1))
        return [
            {"role": "system", "content": CONSIDERING.format(name=name, person=person)},
            {
                "role": "user",
                "content": f"Earlier experiences:\n{earlier}\n\nNew experiences:\n{recent}\n\n"
                f"My current identity:\n{identity or '(not written yet)'}",
            },
        ]

    def _identity(self, proposed: str, current: str, words: set[str], done: Deepened) -> None:
        if not speaks_for_itself(proposed) or not grounded(proposed, words | set(terms(current))):
            if proposed:
                log.info(
                    "deep reflection left out an identity: %s",
                    "its words are not in the experiences"
                    if speaks_for_itself(proposed)
                    else "it does not speak for itself",
                )
            return
        ruling, entry = self.governed.rewrite("identity", current, proposed)
        done.identity = ruling
        if entry is not None:
            done.growth.append(entry)
