"""Reaching out: the companion speaks first when something it holds falls due, within limits the person sets.

What falls due: a working-memory note on its last day (self/working_memory.py: "Check in about the recital on
Thursday (until 2026-05-14)" is held through the 14th, and the 14th is the last day it can still be asked about),
and a part's prediction whose time has come and that was not judged yet (seed 000, parts/predictions.py), if it
fell due within DUE_WITHIN (an old one is no reason to write today).

The limits, from the person's settings: off, or at most `per_day` messages a local day; none in quiet hours
(22:00-08:00 unless they say otherwise; a span that wraps midnight wraps); never twice about the same note or
prediction. Never while the person is typing or talking with it (they wrote within TALKING_S), never while it
would make the person wait: a turn that begins stops it (Conversation.interrupt), and it writes nothing then.

The message is the model's, in one short paragraph that names what it is about; an answer that is not (more than
one paragraph, too long, in the person's voice, not about the note) is replaced by a plain sentence made from
the note itself, and the log says so (never with the words). It is stored as the companion's own message that
opens the conversation (Conversation.greet), with a provenance that says why: forgotten like any message.

What it has spoken of is remembered in the soul's meta (REMEMBERED): a prediction by its id, a note by a hash of
its words, so the record outlives a forgotten message without keeping what it said.
"""

import enum
import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from ..knowledge.messages import Messages
from ..models.chat import ChatModel, Message
from ..parts.predictions import Predictions
from ..self import working_memory
from ..self.selfmodel import SelfModel
from ..settings import Settings
from ..store.provenance import Provenance, Source
from ..store.soul import Soul
from ..trust.text import clean
from .live import Conversation

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]  # an aware datetime in the person's own zone: their day and their quiet hours
REMEMBERED = "reached_out"  # meta key: {"about": [keys spoken of], "at": [when it reached out, ISO]}
KEPT_TIMES = 64  # of "at": enough for any cap a day
KEPT_ABOUT = 1000  # of "about": far more notes and predictions than fall due in the weeks one is kept
DUE_WITHIN = timedelta(days=2)  # a prediction due longer ago than this is not a reason to write
TALKING_S = 15 * 60  # the person wrote this recently: they are talking with it, not to be interrupted
MESSAGE_CHARS = 400  # one short paragraph
MESSAGE_TOKENS = 120
PERSONA_CHARS = 600
MOST_PER_DAY = 24

PROMPT = (
    "You are {name}, {person}'s companion.{persona}\n"
    "{person} has not written: you are the one starting a conversation, with one message. Why you write now: {why}.\n"
    "Write that one message to {person}: one short, warm paragraph (one to three sentences) that says plainly "
    "what made you write, naming it. Speak as yourself to them. Write only your own words: no name before them, "
    "no quotation marks around the whole, nothing {person} would say."
)


class Outcome(enum.Enum):
    """How one look ended: it reached out, or why it did not."""

    SENT = "sent"
    OFF = "off"  # the person turned reaching out off
    QUIET_HOURS = "quiet hours"
    ENOUGH_TODAY = "enough today"  # the day's cap is reached
    TYPING = "typing"  # the person is typing (at the start, or by the time the message was written)
    TALKING = "talking"  # the person wrote a moment ago
    NOTHING_DUE = "nothing due"
    INTERRUPTED = "interrupted"  # a turn (or anything else the person asked for) began while it wrote


@dataclass(frozen=True)
class Limits:
    """What the person allows. `per_day` 0: off. Quiet hours from `quiet_from` to `quiet_to`, wrapping midnight
    when `quiet_from` is later; the same time twice: no quiet hours."""

    per_day: int = 1
    quiet_from: time = time(22, 0)
    quiet_to: time = time(8, 0)

    def quiet(self, at: time) -> bool:
        start, end = self.quiet_from, self.quiet_to
        if start == end:
            return False
        return start <= at < end if start < end else at >= start or at < end


def limits_of(settings: Settings) -> Limits:
    """The limits the person set in the app's settings (a time that does not read as one: the default)."""
    return Limits(
        max(0, min(settings.reach_out_per_day, MOST_PER_DAY)),
        clock_time(settings.quiet_from, Limits.quiet_from),
        clock_time(settings.quiet_to, Limits.quiet_to),
    )


def clock_time(text: str, otherwise: time) -> time:
    """ "22:00" as a time; `otherwise` for anything else."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", text.strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        return otherwise
    return time(int(m[1]), int(m[2]))


@dataclass(frozen=True)
class Due:
    """Something it may speak of: its key (what is remembered), what it says, and why in words."""

    key: str
    words: str  # the note, or what the part predicted
    why: str  # for the prompt and the provenance
    fallback: str  # the plain sentence when the model's answer is unusable


@dataclass
class ReachedOut:
    outcome: Outcome
    message_id: int | None = None
    text: str = ""
    about: str = ""  # what it spoke of, in words (the note, the prediction)
    fell_back: bool = False  # the model's answer was unusable: the plain sentence was sent
    checked: list[str] = field(default_factory=list)  # why each model answer was refused


class ReachingOut:
    def __init__(
        self,
        soul: Soul,
        chat: ChatModel,
        conversation: Conversation,
        self_model: SelfModel,
        predictions: Predictions,
        messages: Messages,
        clock: Clock,
    ):
        self.soul = soul
        self.chat = chat
        self.conversation = conversation
        self.self_model = self_model
        self.predictions = predictions
        self.messages = messages
        self.clock = clock
        self._running = threading.Lock()
        self._cancel = threading.Event()
        conversation.on_interrupt(self._yield)  # the person comes first

    def _yield(self) -> None:
        self._cancel.set()
        with self._running:  # it stops at the model's next token and writes nothing
            pass

    # ---- what falls due -----------------------------------------------------------------------------------------

    def due(self, now: datetime) -> list[Due]:
        """What it may speak of now, not yet spoken of: notes on their last day first (written order), then
        predictions, the longest due first."""
        spoken = set(self._remembered()["about"])
        notes = [
            _note(i)
            for i in working_memory.held_items(self.self_model.stored("working_memory"), now.date())
            if i.until == now.date()
        ]
        predictions = [
            _prediction(p.id, p.predicted_result, p.suggestion)
            for p in self.predictions.due(limit=50)
            if now - _aware(datetime.fromisoformat(p.due_at)) <= DUE_WITHIN
        ]
        return [d for d in (*notes, *predictions) if d.key not in spoken]

    def sent_today(self, now: datetime) -> int:
        today = now.date()
        return sum(1 for at in self._remembered()["at"] if _local_day(at, now) == today)

    def talking(self, now: datetime) -> bool:
        """The person wrote within TALKING_S (its own messages do not count: it may have reached out itself)."""
        for m in self.messages.newest(20):
            if m["role"] == "user":
                return now - _aware(datetime.fromisoformat(m["created_at"])) < timedelta(seconds=TALKING_S)
        return False

    # ---- one look -----------------------------------------------------------------------------------------------

    def look(self, limits: Limits, typing: Callable[[], bool] = lambda: False) -> ReachedOut:
        """Reach out now if the limits allow and something fell due; say how it ended. Blocks while the model
        writes (call it off the window's thread). `typing()` is asked before and again before it is sent."""
        now = self.clock()
        if limits.per_day <= 0:
            return ReachedOut(Outcome.OFF)
        if limits.quiet(now.time()):
            return ReachedOut(Outcome.QUIET_HOURS)
        if self.sent_today(now) >= limits.per_day:
            return ReachedOut(Outcome.ENOUGH_TODAY)
        if typing():
            return ReachedOut(Outcome.TYPING)
        if self.talking(now):
            return ReachedOut(Outcome.TALKING)
        due = self.due(now)
        if not due:
            return ReachedOut(Outcome.NOTHING_DUE)
        with self._running:
            self._cancel = cancel = threading.Event()
            return self._send(due[0], now, cancel, typing)

    def _send(self, d: Due, now: datetime, cancel: threading.Event, typing: Callable[[], bool]) -> ReachedOut:
        text, checked = self._write(d, cancel)
        if cancel.is_set():
            return ReachedOut(Outcome.INTERRUPTED, about=d.words)
        if typing():
            return ReachedOut(Outcome.TYPING, about=d.words)
        fell_back = text is None
        if text is None:
            log.info("reaching out: the model's message was unusable (%s); the plain sentence was sent", checked[-1])
            text = d.fallback
        with self.soul.transaction():  # remembered first: the transcript takes the message only once it is stored
            self._remember(d.key, now)
            message_id = self.conversation.greet(text, Provenance(Source.INFERENCE, detail=d.why))
        return ReachedOut(Outcome.SENT, message_id, text, d.words, fell_back, checked)

    def _write(self, d: Due, cancel: threading.Event) -> tuple[str | None, list[str]]:
        """The model's message, or None when its answer is unusable; and why each answer was refused."""
        name, person = self.conversation.names()
        person = person or "the person"
        # Its own voice: the persona, as the floor holds it (short: the message is one paragraph).
        persona = " ".join(self.self_model.read().persona.split())[:PERSONA_CHARS]
        persona = f" Who you are: {persona}" if persona else ""
        prompt: list[Message] = [
            {"role": "system", "content": PROMPT.format(name=name, person=person, why=d.why, persona=persona)},
            {"role": "user", "content": f"(Write your message to {person} now.)"},
        ]
        with self.chat.aside():
            answer = self.chat.complete(prompt, max_tokens=MESSAGE_TOKENS, temperature=0.7, cancel=cancel)
        problem = unusable(answer, d.words, (name, person))
        if problem is None:
            return " ".join(clean(answer).split()), []
        return None, [problem]

    # ---- what it remembers --------------------------------------------------------------------------------------

    def _remembered(self) -> dict[str, list[str]]:
        try:
            got = json.loads(self.soul.get_meta(REMEMBERED, "{}"))
        except ValueError:
            got = {}
        got = got if isinstance(got, dict) else {}
        return {k: [str(v) for v in got.get(k, []) if isinstance(v, str)] for k in ("about", "at")}

    def _remember(self, key: str, now: datetime) -> None:
        kept = self._remembered()
        kept["about"] = [*kept["about"], key][-KEPT_ABOUT:]
        kept["at"] = [*kept["at"], now.isoformat()][-KEPT_TIMES:]
        self.soul.set_meta(REMEMBERED, json.dumps(kept))


def unusable(answer: str, about: str, names: tuple[str, str]) -> str | None:
    """Why the model's message cannot be sent as it is (one line), or None when it can."""
    text = clean(answer).strip()
    if not text:
        return "empty"
    if re.search(r"\n\s*\n", text):
        return "more than one paragraph"
    if len(text) > MESSAGE_CHARS:
        return "too long"
    # The model writing a dialogue, or the person's side of one: a line that begins with a speaker's name.
    labels = {"user", "you", "me", "human", "assistant", *(n.lower() for n in names if n)}
    speakers = (re.match(r"\s*([\w .'-]{1,40}):", line) for line in text.splitlines())
    if any(m is not None and m[1].strip().lower() in labels for m in speakers):
        return "a line with a speaker's name"
    if re.match(r"[\"“]", text) and re.search(r"[\"”]$", text):
        return "in quotation marks"
    if not _shares_a_word(text, about):
        return "it does not say what it is about"
    return None


def _shares_a_word(text: str, about: str) -> bool:
    """Whether the message names what it is about: one of its words of four letters or more."""
    words = {w for w in re.findall(r"\w{4,}", about.lower())}
    return bool(words & set(re.findall(r"\w{4,}", text.lower())))


def _note(item: working_memory.Item) -> Due:
    # The same words are the same note, whatever day reflection holds it until.
    digest = hashlib.sha256(" ".join(item.note.lower().split()).encode()).hexdigest()[:16]
    return Due(
        f"note:{digest}",
        item.note,
        f'reached out about a note it held: "{item.note}"',
        f"I've been holding something in mind: {_sentence(item.note)} How are things with you?",
    )


def _prediction(prediction_id: int, predicted: str, suggestion: str) -> Due:
    return Due(
        f"prediction:{prediction_id}",
        predicted,
        f'reached out about what a part of it predicted: "{predicted}" (prediction #{prediction_id})',
        f"Earlier I thought that {_sentence(predicted[:1].lower() + predicted[1:])} I wondered how it turned out.",
    )


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _aware(at: datetime) -> datetime:
    """A stored time with no zone is UTC (the soul writes UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _local_day(at: str, now: datetime) -> date | None:
    try:
        return _aware(datetime.fromisoformat(at)).astimezone(now.tzinfo).date()
    except ValueError:
        return None
