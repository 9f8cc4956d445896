"""Quick reflection: right after the exchange, what is on the companion's mind, what to hold for a few days, and
how the person seemed (seed 003, 3.2 and 4).

One structured model call reads the messages since the last one it read (meta
`quick_read_through`; never one twice) and answers, within the caps of its
schema:
- the inner state: what the companion is processing now, in the first person; it replaces the old one and
  reaches the model as the next note's focus (conversation/live.py), never in the floor, so the computed
  prompt stays valid;
- working memory: items to hold, each for 1 to 14 days, and the numbers of items to let go
  (self/working_memory.py); lapsed items are pruned here and never shown anyway;
- an emotional read of the person, or none: valence, arousal, dominance, a label in context, a confidence,
  and the kind of evidence and the evidence itself.
Code then decides what is written (self/feelings.py): the trajectory against the
earlier signals; the confidence capped by the kind of evidence; a read whose
quoted evidence is not in their words dropped, and an inner state or a held
note that shares no word with the exchange; and when they say how they feel
(self/self_report.py), their statement is the signal and a contrary read is dropped.

All of it is written in one short transaction, or none of it: a malformed
answer writes nothing, and a turn that pre-empts the call leaves the messages
unread for the next run. The log (plaintext) gets counts, never words.
"""

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any

from ..knowledge.messages import Messages, spoken
from ..models.chat import ChatModel, Message
from ..models.structured import StructuredOutputFailed, ask_structured
from ..retrieval.fts import terms
from ..self import working_memory
from ..self.feelings import EVIDENCE_TYPES, MOST_CONFIDENT, Feelings, Reading, names_a_feeling, trajectory
from ..self.self_report import Stated, stated_feeling
from ..self.selfmodel import SelfModel
from ..store.sections import cap, title
from ..store.soul import Soul
from ..trust.verdict import unfit
from ..trust.words import once

log = logging.getLogger(__name__)


def left_out(what: str, why: str) -> None:
    """An answer of the model's that code did not keep, and why (the log holds no words of it)."""
    log.info("quick reflection left out %s: %s", what, why)


READ_THROUGH = "quick_read_through"
EVERY = "quick_reflection_every"  # meta: after every how many turns (0: never); 1 unless set
MESSAGES_PER_STEP = 8
MESSAGE_CHARS = 600
HELD_PER_STEP = 3
LABEL_CHARS = 60
LABEL_WORDS = 5  # a feeling is named in a few words ("anxious", "quietly proud"); a longer label is a claim
EVIDENCE_CHARS = 120
# A quoted piece of evidence must be mostly their words, or the read is dropped (a small model invents quotes).
GROUNDED = 0.5
# An inner state or a held note is about this exchange: it has a few words, one of them from it (a small model
# otherwise writes "1", or holds "no text is visible on this page" for a week).
INNER_WORDS, NOTE_WORDS = 3, 2

INSTRUCTIONS = (
    "You are {name}. You have just talked with {person}; read the newest exchange below and reflect on it, for "
    "yourself alone.\n"
    "read: how {person} seemed, only from what they wrote. noticed is false if nothing shows it. valence from -10 "
    "(unpleasant) to 10 (pleasant); arousal from 0 (calm) to 10 (activated); dominance from 0 (overwhelmed) to 10 "
    '(in control); label: a few words in context, such as "tired after the night shift"; confidence from 0 '
    "(a guess) to 10 (certain); "
    "evidence_type: explicit (they said how they feel), wording (how they wrote), or behaviour (what they did, "
    "such as short replies or changing the subject); evidence: their words quoted, or what they did.\n"
    "inner_state: what you are processing right now, in the first person: your focus, what is unresolved, "
    "what is on your mind. A few sentences.\n"
    "hold: only what is worth keeping in mind for a few days (something to ask about, a date they mentioned), "
    "each a short note and for how many days, 1 to 14; drop: the numbers of the items you hold that are done or "
    "no longer matter."
)


class Outcome(Enum):
    """How a run of quick reflection ended."""

    NOTHING_NEW = "nothing new"  # no message since the last run (lapsed items were still pruned)
    APPLIED = "applied"  # the answer was written (all of it, in one transaction)
    MALFORMED = "malformed"  # no valid answer within the tries: nothing written, the messages counted read
    PREEMPTED = "pre-empted"  # a turn came first: nothing written, the messages stay unread


@dataclass
class Reflected:
    """What one run changed (counts and sections for the log; the texts for the person's own terminal)."""

    outcome: Outcome
    messages: int = 0
    inner_state: str | None = None  # the new inner state, when it was replaced
    working_memory: str | None = None  # the section as written, when it changed
    held: list[str] = field(default_factory=list)  # new items, as lines
    let_go: int = 0  # items the model let go
    lapsed: int = 0  # items pruned past their day
    signal_id: int | None = None
    signal: dict[str, Any] | None = None
    overruled: int = 0  # reads dropped because the person said otherwise
    ungrounded: int = 0  # reads dropped because their evidence was not in the person's words

    def summary(self) -> str:
        """One line for the log: counts and names of sections, never the texts."""
        changed = [title(name) for name in ("inner_state", "working_memory") if getattr(self, name) is not None]
        return (
            f"{self.outcome.value}: {self.messages} messages read; changed: {', '.join(changed) or 'nothing'}; "
            f"{len(self.held)} held, {self.let_go} let go, {self.lapsed} lapsed; "
            f"{'a signal' if self.signal_id else 'no signal'}"
            f" ({self.overruled} read(s) overruled by their words, {self.ungrounded} ungrounded)"
        )


# The dimensions are asked for as whole steps of a tenth: a grammar holds a model to an enumeration of integers,
# not to the bounds of a number, and a small model otherwise writes an arousal of 2 or a confidence of 4.
STEPS = 10
SIGNED = {"type": "integer", "enum": list(range(-STEPS, STEPS + 1))}
UNSIGNED = {"type": "integer", "enum": list(range(STEPS + 1))}


def schema(items: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["read", "inner_state", "hold", "drop"],
        "properties": {
            "read": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "noticed",
                    "valence",
                    "arousal",
                    "dominance",
                    "label",
                    "confidence",
                    "evidence_type",
                    "evidence",
                ],
                "properties": {
                    "noticed": {"type": "boolean"},
                    "valence": SIGNED,
                    "arousal": UNSIGNED,
                    "dominance": UNSIGNED,
                    "label": {"type": "string", "maxLength": LABEL_CHARS},
                    "confidence": UNSIGNED,
                    "evidence_type": {"type": "string", "enum": list(EVIDENCE_TYPES)},
                    "evidence": {"type": "string", "maxLength": EVIDENCE_CHARS},
                },
            },
            "inner_state": {"type": "string", "maxLength": cap("inner_state")},
            "hold": {
                "type": "array",
                "maxItems": HELD_PER_STEP,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["note", "days"],
                    "properties": {
                        "note": {"type": "string", "maxLength": working_memory.NOTE_CHARS},
                        "days": {"type": "integer", "enum": list(range(1, working_memory.LONGEST_DAYS + 1))},
                    },
                },
            },
            "drop": {
                "type": "array",
                "maxItems": items,
                "items": {"type": "integer", "enum": list(range(1, items + 1)) or [0]},
            },
        },
    }


def about(text: str, exchange: set[str], least_words: int) -> bool:
    """Whether a line is about the exchange: a few words, one of them from the person's own words (`exchange`,
    the names of the person and the companion taken out: text from outside that names them is not about what
    the person said)."""
    return len(text.split()) >= least_words and bool(set(terms(text)) & exchange)


def read_from(text: str, theirs: list[dict[str, Any]]) -> str:
    """The person's message a line was most likely read from (the most shared words; the newest on a tie)."""
    words = set(terms(text))
    return max(theirs, key=lambda m: (len(words & set(terms(m["content"]))), m["id"]))["content"] if theirs else ""


class QuickReflection:
    """The job. It takes what it reads and writes, never the companion; `now()` is its clock (aware)."""

    def __init__(
        self,
        soul: Soul,
        chat: ChatModel,
        messages: Messages,
        self_model: SelfModel,
        feelings: Feelings,
        *,
        names: Callable[[], tuple[str, str]] = lambda: ("Anima", ""),
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.soul = soul
        self.chat = chat
        self.messages = messages
        self.self_model = self_model
        self.feelings = feelings
        self.names = names
        self.now = now

    def unread(self) -> tuple[list[dict[str, Any]], int | None]:
        """The newest few messages since the last run that are the person's own words or the companion's replies
        (text sent with a message is information, not how they are), oldest first; and the newest unread id."""
        rows = self.messages.since(self.soul.get_int(READ_THROUGH, 0), MESSAGES_PER_STEP)
        newest = rows[-1]["id"] if rows else None
        return spoken(rows), newest

    def run(self, cancel: threading.Event | None = None) -> Reflected:
        now = self.now()
        on = now.astimezone().date()
        stored = self.self_model.stored("working_memory")
        items = working_memory.parse(working_memory.held(stored, on))
        lapsed = len(working_memory.parse(stored)) - len(items)
        said, newest = self.unread()
        if not said:
            done = Reflected(Outcome.NOTHING_NEW, lapsed=lapsed)
            with self.soul.transaction():
                if lapsed:
                    done.working_memory = working_memory.render(items)
                    self.self_model.write("working_memory", done.working_memory, "ai")
                self._mark_read(newest)  # text sent with a message, and nothing else: nothing to reflect on
            return done
        if cancel is not None and cancel.is_set():
            return Reflected(Outcome.PREEMPTED)
        try:
            with self.chat.aside():
                answer = ask_structured(
                    self.chat,
                    self._prompt(said, items, on),
                    schema(len(items)),
                    what="quick reflection",
                    temperature=0.2,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            if cancel is not None and cancel.is_set():
                return Reflected(Outcome.PREEMPTED)
            # The error quotes what the model wrote about them: the log (plaintext) gets only its shape.
            log.warning(
                "quick reflection wrote nothing for %d messages: no valid answer in %d tries",
                len(said),
                len(e.attempts),
            )
            self._mark_read(newest)
            return Reflected(Outcome.MALFORMED, messages=len(said))
        done = self._apply(answer, said, items, on, now)
        done.lapsed = lapsed
        with self.soul.transaction():  # all of it, or none of it
            if done.inner_state is not None:
                self.self_model.write("inner_state", done.inner_state, "ai")
            if done.working_memory is not None or lapsed:
                done.working_memory = (
                    done.working_memory if done.working_memory is not None else working_memory.render(items)
                )
                self.self_model.write("working_memory", done.working_memory, "ai")
            if done.signal is not None:
                done.signal_id = self.feelings.notice(**done.signal)
            self._mark_read(newest)
        log.info("quick reflection %s", done.summary())
        return done

    def _mark_read(self, newest: int | None) -> None:
        if newest is not None:
            self.soul.set_meta(READ_THROUGH, str(newest))

    def _prompt(self, said: list[dict[str, Any]], items: list[working_memory.Item], on: date) -> list[Message]:
        name, person = self.names()
        person = person or "the person"
        exchange = "\n".join(
            f"{name if m['role'] == 'companion' else person}: {m['content'][:MESSAGE_CHARS]}" for m in said
        )
        inner = self.self_model.read().inner_state or "(nothing yet)"
        holding = "\n".join(f"{i}. {item.line()[2:]}" for i, item in enumerate(items, 1)) or "(nothing)"
        return [
            {"role": "system", "content": INSTRUCTIONS.format(name=name, person=person)},
            {
                "role": "user",
                "content": f"Today is {on.isoformat()}.\n\nThe newest exchange:\n{exchange}\n\n"
                f"What was on my mind:\n{inner}\n\nWhat I am holding:\n{holding}",
            },
        ]

    def _apply(
        self,
        answer: dict[str, Any],
        said: list[dict[str, Any]],
        items: list[working_memory.Item],
        on: date,
        now: datetime,
    ) -> Reflected:
        """What of a valid answer is written: decided here, in code, before anything is."""
        done = Reflected(Outcome.APPLIED, messages=len(said))
        name, person = self.names()
        # Grounded in what the person said, never in the companion's own reply (which may echo outside text).
        theirs = [m for m in said if m["role"] == "user"]
        exchange = set(terms(" ".join(m["content"] for m in theirs))) - set(terms(f"{name} {person}"))

        inner = once(" ".join(answer["inner_state"].split()))
        why = (
            "it is not about what they said"
            if not about(inner, exchange, INNER_WORDS)
            else "it is the one held already"
            if inner == self.self_model.read().inner_state
            else unfit(inner, said=read_from(inner, theirs), companion=name, orders=True)
        )
        if why is None:
            done.inner_state = inner
        elif inner:
            left_out("the inner state", why)
        # Working memory: the items kept, then the new ones that fit in the section (and in the floor).
        dropped = {n for n in answer["drop"] if 1 <= n <= len(items)}
        kept = [item for i, item in enumerate(items, 1) if i not in dropped]
        done.let_go = len(items) - len(kept)
        known = {item.note.lower() for item in kept}
        for n, h in enumerate(answer["hold"]):
            new = working_memory.item(once(h["note"]), h["days"], on)
            if (
                why := "it is not about what they said"
                if not about(new.note, exchange, NOTE_WORDS)
                else "it is held already"
                if new.note.lower() in known
                else unfit(new.note, said=read_from(new.note, theirs), companion=name, orders=True)
            ) is not None:
                left_out("a note to hold", why)
                continue
            text = working_memory.render([*kept, new])
            if len(text) > cap("working_memory") or not self.self_model.fits("working_memory", text):
                left_out(f"{len(answer['hold']) - n} note(s) to hold", "working memory is full")
                break
            kept.append(new)
            known.add(new.note.lower())
            done.held.append(new.line())
        if done.held or done.let_go:
            done.working_memory = working_memory.render(kept)
        done.signal = self._signal(answer["read"], said, now, done)
        return done

    def _signal(
        self, read: dict[str, Any], said: list[dict[str, Any]], now: datetime, done: Reflected
    ) -> dict[str, Any] | None:
        """The signal to record: their own statement when they made one (a contrary read is dropped), else the
        model's read when it noticed something and its evidence holds."""
        theirs = [m for m in said if m["role"] == "user"]
        if not theirs:
            return None
        stated: tuple[Stated, dict[str, Any]] | None = None
        for m in theirs:  # the newest statement wins
            if (s := stated_feeling(m["content"])) is not None:
                stated = (s, m)
        noticed = read["noticed"] and " ".join(read["label"].split()) and " ".join(read["evidence"].split())
        if stated is not None:
            s, m = stated
            if noticed and s.contradicts(read["valence"] / STEPS, read["label"]):
                left_out("an emotional read", "they said how they feel, and it says otherwise")
                done.overruled += 1
            reading = Reading(s.valence, s.arousal, s.dominance, 1.0, "explicit")
            return self._with_trajectory(s.label, f'they said "{s.quote}"', m["id"], now, reading)
        if not noticed:
            return None
        evidence = " ".join(read["evidence"].split())
        label = " ".join(read["label"].split())
        # A read is of a feeling, with evidence that keeps no secret and no order (what fades stays out of the log).
        name = self.names()[0]
        if (
            why := "its label names no feeling"
            if not names_a_feeling(label) or len(label.split()) > LABEL_WORDS
            else unfit(label, companion=name, orders=True) or unfit(evidence, companion=name)
        ) is not None:
            left_out("an emotional read", why)
            done.ungrounded += 1
            return None
        source = theirs[-1]
        if read["evidence_type"] != "behaviour":
            words = set(terms(evidence))
            if not words or len(words & set(terms(" ".join(m["content"] for m in theirs)))) < GROUNDED * len(words):
                left_out("an emotional read", "the evidence it quotes is not their words")
                done.ungrounded += 1
                return None
            source = max(theirs, key=lambda m: (len(words & set(terms(m["content"]))), m["id"]))
        kind = read["evidence_type"]
        reading = Reading(
            read["valence"] / STEPS,
            read["arousal"] / STEPS,
            read["dominance"] / STEPS,
            min(read["confidence"] / STEPS, MOST_CONFIDENT[kind]),
            kind,
        )
        return self._with_trajectory(label, evidence, source["id"], now, reading)

    def _with_trajectory(
        self, label: str, evidence: str, message_id: int, now: datetime, reading: Reading
    ) -> dict[str, Any]:
        moving = trajectory(self.feelings.earlier(now), reading.valence, reading.arousal)
        return {
            "signal": label,
            "evidence": evidence,
            "message_id": message_id,
            "reading": reading,
            "trajectory": moving,
            "at": now.astimezone(UTC).isoformat(timespec="microseconds"),
        }
