"""The reflector: what the companion does while the person reads and types (seed 003, sleep-time compute).

After each reply, in one background thread and in this order:
1. learn: write down what the person just said about themselves (reflect/human.py), when they said anything;
2. read ahead: the parts the exchange wakes bid on it and the Self chooses (parts/bids.py, aside); recall for
   the exchange; and have the model read that note (recalled items, what was learned, the bids it follows) now
   (read_ahead.py);
3. predictions that fell due: each judged by the model as its part, and the part revised (parts/predictions.py);
4. creation from affect: did something in the exchange matter enough to the Self to deserve a part
   (reflect/parts.py)?
5. quick reflection, after every `every`th turn: inner state, working memory, an emotional read (quick.py).
   It comes after the read-ahead because it is the long one (seconds of the model writing on a laptop), and
   the next turn's first token should not wait for it: it runs aside (chat.aside), so what was read ahead stays.
And while they type, in the same thread after those: the parts bid on the draft, and the model reads along the
prompt their draft would make. Steps 2 to 4 run aside, and a turn pre-empts them (each stops at the next token).

Deep reflection (deep.py) runs when the caller says (the window when the person is idle, in its QThread;
`python -m anima reflect --deep`), in the caller's thread, after the work above, never beside it.

The person comes first: a turn that starts meanwhile pre-empts learning and
quick reflection (each stops at the next token, and its messages stay unread
for the next time) and waits only for the short read-ahead, which it would
wait for anyway because both use the one model.

The jobs take the conversation and the models; this class only schedules them
(the window runs it as it is; the terminal and the tests may call `settle`).
A job that fails is logged and told to `on_failure` listeners (the window's
status line): a KnownError with its message for people, anything else as a
bug. Neither reaches the next turn.
"""

import logging
import threading
from collections.abc import Callable

from ..conversation import Conversation
from ..errors import ForgottenMeanwhile, KnownError, SoulClosed
from ..parts.predictions import Evaluated, Evaluation
from ..store.soul import Soul
from ..trust.text import clean
from .deep import Deepened, DeepReflection
from .human import HumanNotes
from .parts import PartCreation
from .quick import Outcome, QuickReflection, Reflected
from .read_ahead import read_ahead, read_draft

log = logging.getLogger(__name__)


class Reflector:
    def __init__(
        self,
        conversation: Conversation,
        human_notes: HumanNotes,
        soul: Soul,
        *,
        learns: bool = True,
        quick: QuickReflection | None = None,
        every: int = 1,
        deep: DeepReflection | None = None,
        evaluation: Evaluation | None = None,
        creation: PartCreation | None = None,
    ):
        """`every`: quick reflection follows every `every`th turn (0: never). `evaluation`: judges predictions that
        fell due; `creation`: creates parts from affect (None: not between turns). `soul`: each job's writes are
        refused once a forget commits after the job began (Soul.unforgotten)."""
        self.conversation = conversation
        self.soul = soul
        self.human_notes = human_notes
        self.learns = learns
        self.quick = quick
        self.every = every
        self.deep = deep
        self.evaluation = evaluation
        self.creation = creation
        self._deep_lock = threading.Lock()  # held while deep reflection runs
        self._deep_state = threading.Lock()  # guards the two below, read by the turn's thread
        self._deep_cancel: threading.Event | None = None
        self._turns_started = 0
        self.unreflected = 0  # turns since quick reflection last ran to its end
        self.thread: threading.Thread | None = None
        self.preempt = threading.Event()
        self.learning = threading.Event()  # set when learning from the last exchange is done (or none began)
        self.learning.set()
        self.latest_draft = ""
        self._failure_listeners: list[Callable[[str], None]] = []
        conversation.on_interrupt(self.turn_started)  # the person comes first: told by the conversation

    def on_failure(self, listener: Callable[[str], None]) -> None:
        """`listener(what)` hears of a job that failed because of a bug; `what` never holds message text."""
        self._failure_listeners.append(listener)

    def tell(self, what: str) -> None:
        """Tell the failure listeners one line about work between turns that stopped."""
        for listener in self._failure_listeners:
            listener(what)

    def turn_started(self) -> None:
        """A turn begins, or something else the person asked for that needs the model or the soul (the
        conversation says which: Conversation.interrupt): learning stops where it is; a read-ahead in flight is
        finished, never thrown away half-read."""
        self.preempt.set()
        with self._deep_state:
            self._turns_started += 1
            deep = self._deep_cancel
        if deep is not None:
            deep.set()  # deep reflection stops at the model's next token; what it finished stays written
            with self._deep_lock:
                pass
        self.wait()

    def after(self, user_text: str, reply_text: str) -> None:
        self.unreflected += 1
        self.preempt = threading.Event()
        self.learning = learning = threading.Event()
        self.thread = threading.Thread(
            target=self._run,
            args=(self.conversation.serial, f"{user_text}\n{reply_text}", self.preempt, learning),
            name="reflector",
            daemon=True,
        )
        self.thread.start()

    def draft(self, text: str) -> None:
        """The person paused while typing `text`: read along, after what is already under way. Never blocks."""
        c = self.conversation
        reads = c.chat.capabilities.keeps_prefix
        if not reads and c.bidding is None:
            return
        self.latest_draft = text
        before, serial, preempt = self.thread, c.serial, self.preempt

        def run() -> None:
            if before is not None:
                before.join()
            if self.latest_draft != text or c.serial != serial or preempt.is_set():
                return  # typed on, or sent: a newer draft or the turn itself takes over
            if c.bidding is not None and (typed := clean(text)):
                self._guarded("weighing the parts' bids on a draft", c.weigh_draft, typed, preempt)
            if reads and not preempt.is_set():
                self._guarded("reading along a draft", read_draft, c, text)

        self.thread = threading.Thread(target=run, name="read-along", daemon=True)
        self.thread.start()

    def aside(self, what: str, job: Callable[[threading.Event], object]) -> object:
        """Run `job(preempt)` in the reflector's thread after the work under way (one model: never beside it), and
        wait for it; a turn that starts meanwhile sets `preempt` and waits for it to stop. Its result, or None
        when it failed (logged and told, as every job between turns) or a turn came first."""
        before, preempt, done = self.thread, self.preempt, []

        def run() -> None:
            if before is not None:
                before.join()
            if not preempt.is_set():
                self._guarded(what, lambda: done.append(job(preempt)))

        thread = self.thread = threading.Thread(target=run, name="reflector-aside", daemon=True)
        thread.start()
        thread.join()
        return done[0] if done else None

    @property
    def reflecting_deeply(self) -> bool:
        return self._deep_cancel is not None

    def deepens(self, only_if_pending: bool = False) -> bool:
        """Whether deep reflection can run: there is one, and (`only_if_pending`) it has something to reflect on."""
        return self.deep is not None and (not only_if_pending or self.deep.pending())

    def deepen(self) -> Deepened | None:
        """Deep reflection now, in the caller's thread, once the work between turns is done. A turn that starts
        meanwhile pre-empts it; the next call goes on where it stopped. None when it failed (told to listeners)."""
        deep = self.deep
        if deep is None:
            return None
        with self._deep_state:
            asked_after = self._turns_started
        with self._deep_lock:
            # Marked running before waiting on the work between turns, so a turn sent meanwhile stops it too; one
            # sent between the call and the mark saw nothing to stop, so it is counted instead.
            with self._deep_state:
                self._deep_cancel = cancel = threading.Event()
                if self._turns_started != asked_after:
                    cancel.set()
            done: list[Deepened] = []
            try:
                self.wait()
                if cancel.is_set():
                    return Deepened(preempted=True)
                self._guarded("reflecting deeply", lambda: done.append(deep.run(cancel)))
            finally:
                with self._deep_state:
                    self._deep_cancel = None
        return done[0] if done else None

    def reflect_now(self) -> Reflected:
        """Quick reflection now, in the caller's thread, on what it has not read yet (the conversation was
        interrupted first, so nothing else between turns uses the model meanwhile)."""
        if self.quick is None:  # made without quick reflection: the error it always raised
            raise AttributeError("'NoneType' object has no attribute 'run'")
        done = self.quick.run()
        if done.working_memory is not None:
            self.conversation.note_reflected(done.working_memory)
        return done

    def evaluate_now(self) -> list[Evaluated]:
        """Judge the predictions that fell due, now, in the caller's thread (the conversation was interrupted
        first)."""
        if self.evaluation is None:  # made without evaluation: the error it always raised
            raise AttributeError("'NoneType' object has no attribute 'run'")
        return self.evaluation.run()

    def wait(self) -> None:
        """Wait until the work between turns is done (a terminal fed by a pipe lets it finish, as a reader would)."""
        if self.thread is not None:
            self.thread.join()

    def learned(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until learning from the last exchange is done or gave way to a turn."""
        return self.learning.wait(timeout)

    def _run(self, serial: int, exchange: str, preempt: threading.Event, learning: threading.Event) -> None:
        c = self.conversation
        try:
            learned = not self.learns or self._guarded("learning about the person", self._learn, preempt)
        finally:
            learning.set()  # the turn's cue may say what was learned (Companion.noted)
        if not learned:
            return
        if c.chat.capabilities.keeps_prefix and not preempt.is_set():
            weighed = []
            if c.bidding is not None:
                self._guarded("weighing the parts' bids", lambda: weighed.append(c.weigh_exchange(exchange, preempt)))
            if not preempt.is_set():
                self._guarded("reading ahead", read_ahead, c, exchange, serial, weighed[0] if weighed else None)
        if self.evaluation is not None and not preempt.is_set():
            self._guarded("evaluating predictions", self.evaluation.run, preempt)
        if self.creation is not None and not preempt.is_set():
            self._guarded("considering a new part", self.creation.consider, exchange, c.last_reply, preempt)
        if self.quick is not None and 0 < self.every <= self.unreflected and not preempt.is_set():
            self._guarded("reflecting", self._reflect, preempt)

    def _learn(self, preempt: threading.Event) -> None:
        learned, block = self.human_notes.step(preempt)
        self.conversation.note_learned(learned, block)

    def _reflect(self, preempt: threading.Event) -> None:
        assert self.quick is not None  # _run reflects only with quick reflection
        done = self.quick.run(preempt)
        if done.outcome is not Outcome.PREEMPTED:
            self.unreflected = 0
        if done.working_memory is not None:
            self.conversation.note_reflected(done.working_memory)

    def _guarded(self, what: str, job: Callable[..., object], *args: object) -> bool:
        """Run one job; a failure is a bug, logged and told, and never reaches the next turn. What the job read
        before a forget (by this program or another) is not written after it (Soul.unforgotten)."""
        try:
            with self.soul.unforgotten():
                job(*args)
            return True
        except ForgottenMeanwhile:  # nothing of it was written; what it would read is read again next time
            log.info("%s put aside: something was forgotten while it ran", what)
            return False
        except SoulClosed:  # the companion closed under it (the window closed, an import): no one is left to tell
            log.info("%s stopped: the companion was closed", what)
            return False
        except KnownError as e:  # the person's or the machine's doing (a full disk, a floor too large): say it
            log.warning("%s stopped: %s", what, type(e).__name__)
            self.tell(f"{what[0].upper()}{what[1:]} stopped: {e}")
            return False
        except Exception:
            log.exception("%s failed", what)
            self.tell(f"{what[0].upper()}{what[1:]} failed (a bug; the log has the details).")
            return False
