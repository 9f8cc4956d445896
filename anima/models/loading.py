"""Loading in the background: heavy models start loading early and nothing waits on them until used."""

import atexit
import logging
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")
log = logging.getLogger(__name__)

# Loads run one at a time, in the order they were started (a ticket each). Two at once, the chat model's and
# the embedder's imports and native set-up kept the window's thread from Python for longer: its longest stall at
# opening (bench/ui_child.py anima-opening, a 1,000-message soul, two cores, seven runs each) was 86-319 ms
# (median 204) with both loading together, 101-188 ms (median 159) one after the other; the two are ready
# ~0.3 s apart instead of together, and the first reply needs both anyway.
_turns = threading.Condition()
_tickets = 0  # handed out
_serving = 0  # the ticket whose load may run
_finished: set[int] = set()  # tickets after _serving whose turn is over already (a thread that never started)


class LoadSkipped(Exception):
    """The program ended before a load's turn came: it never ran."""


class Background(Generic[T]):
    """Runs `load` once in a daemon thread, in its turn (one load at a time); `get()` waits for it and re-raises
    what it raised."""

    def __init__(self, what: str, load: Callable[[], T]):
        self.what = what
        self._load = load
        self._done = threading.Event()
        self._value: T | None = None
        self._error: BaseException | None = None
        self._started = False
        self._lock = threading.Lock()
        self._begun = False  # its turn came and its load ran (under _turns)
        self._skipped = False  # the program is ending before its turn came: it never runs (under _turns)
        self.seconds: float | None = None  # the load's own, without its wait for its turn

    def start(self) -> "Background[T]":
        with self._lock:
            if not self._started:
                self._started = True
                ticket = _ticket()
                try:
                    threading.Thread(target=self._run, args=(ticket,), name=f"load {self.what}", daemon=True).start()
                except BaseException as e:  # no thread (the system's limit): its turn must not hold the others up
                    self._error = e
                    self._done.set()
                    _finish(ticket)
                    raise
                # Exiting while a native library loads in this thread aborts the process (see settle): let the
                # load end first, however the program ends.
                atexit.register(self.settle)
        return self

    def _run(self, ticket: int) -> None:
        with _turns:
            _turns.wait_for(lambda: _serving == ticket)
            self._begun = not self._skipped
        t = time.perf_counter()
        try:
            if not self._begun:
                raise LoadSkipped(f"the program ended before {self.what} loaded")
            self._value = self._load()
        except BaseException as e:  # handed to whoever calls get(); not swallowed
            self._error = e
        finally:
            self.seconds = time.perf_counter() - t
            if self._begun:
                log.info("%s loaded in %.2f s%s", self.what, self.seconds, " (failed)" if self._error else "")
            self._done.set()
            _finish(ticket)

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def settle(self) -> None:
        """As the program exits: wait for a load that has begun to end; one still waiting for its turn never
        begins. A process must not exit while a native library is loading in this thread: ONNX Runtime, for one,
        aborts it ("terminate called without an active exception", seen in about half of short `python -m
        anima` commands)."""
        with _turns:
            if not self._begun:
                self._skipped = True
                return
        self._done.wait()

    def get(self, timeout: float | None = None) -> T:
        self.start()
        if not self._done.wait(timeout):
            raise TimeoutError(f"{self.what} did not load within {timeout} s")
        if self._error is not None:
            raise self._error
        # Done without an error: the load returned, and its value (a T, None only if T allows it) is here.
        return cast(T, self._value)


def _ticket() -> int:
    global _tickets
    with _turns:
        _tickets += 1
        return _tickets - 1


def _finish(ticket: int) -> None:
    """`ticket`'s turn is over: the next one whose turn is not over yet may run."""
    global _serving
    with _turns:
        _finished.add(ticket)
        while _serving in _finished:
            _finished.discard(_serving)
            _serving += 1
        _turns.notify_all()
