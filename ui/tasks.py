"""Running the core off the UI thread: the window never waits on the model or the disk."""

import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot

from anima.errors import KnownError

if TYPE_CHECKING:
    from anima.companion import Companion

    from .chat.transcript import Bubble


def note(error: BaseException, **said: object) -> None:
    """Attach to an error what the UI thread is told with it (its traceback's text, whether the message was saved,
    the ids it was stored under): attributes its type does not declare, read with getattr."""
    for name, value in said.items():
        setattr(error, name, value)


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(object)


class _Job(QRunnable):
    def __init__(self, fn: Callable, signals: _Signals):
        super().__init__()
        self.fn, self.signals = fn, signals

    @Slot()
    def run(self):
        try:
            result = self.fn()
        except Exception as e:  # handed to the UI thread, which shows it or re-raises a bug
            note(e, __traceback_text__=traceback.format_exc())
            self._tell(self.signals.failed, e)
        else:
            self._tell(self.signals.done, result)

    @staticmethod
    def _tell(signal, value) -> None:
        try:
            signal.emit(value)
        except RuntimeError:
            # The application quit while this ran (its objects are deleted as the process ends): there is no
            # window left to tell, and a traceback on the terminal would only alarm (seen at `--first-paint`).
            pass


_keep: set = set()


def run(fn: Callable, done: Callable | None = None, failed: Callable | None = None, parent: QObject | None = None):
    """Call fn() on a pool thread; done(result) or failed(error) are then called on the UI thread, unless
    `parent` (the widget they report to) was deleted meanwhile."""
    # Kept alive here until it has fired, not by a parent: a window closed meanwhile must not
    # delete it under the worker's feet.
    signals = _Signals()
    _keep.add(signals)
    if done:
        signals.done.connect(_while_alive(parent, done))
    if failed:
        signals.failed.connect(_while_alive(parent, failed))
    signals.done.connect(lambda _: _keep.discard(signals))
    signals.failed.connect(lambda _: _keep.discard(signals))
    QThreadPool.globalInstance().start(_Job(fn, signals))
    return signals


def _while_alive(parent: QObject | None, fn: Callable) -> Callable:
    """`fn`, skipped once `parent` is deleted: a window closed while the disk was measured for its banner had the
    answer reach the deleted banner ("Internal C++ object (DiskBanner) already deleted")."""
    if parent is None:
        return fn

    def call(value) -> None:
        if shiboken6.isValid(parent):
            fn(value)

    return call


def while_open(widget: QObject, fn: Callable) -> Callable:
    """`fn`, called only while `widget` still exists: work off the thread (a download, a measure) may end after
    its dialog closed. An error that is a bug and not one of ours is raised all the same: never lost with it."""

    def call(*args) -> None:
        if shiboken6.isValid(widget):
            fn(*args)
        elif args and isinstance(args[0], Exception) and not isinstance(args[0], KnownError):
            raise args[0]

    return call


class TurnWorker(QThread):
    """Streams one turn's reply: `recorded` with the ids the message was stored under (as soon as it is, so that a
    forget during the reply takes its bubble at once), a `piece` signal per token, then `finished_turn` or
    `failed`."""

    recorded = Signal(object)
    piece = Signal(str)
    finished_turn = Signal(object)
    failed = Signal(object)
    bubble: "Bubble"  # the bubble of the message it answers: set by the window as it starts it

    def __init__(self, companion: "Companion", text: str, cancel, parent=None, external=(), begin=None):
        """`begin(cancel)`: a turn on the last exchange (a reply made again, a message edited, a reply continued:
        chat/message_actions.py) in place of a new message's."""
        super().__init__(parent)
        self.companion, self.text, self.cancel, self.external = companion, text, cancel, list(external)
        self.begin = begin

    def run(self):
        turn = None
        try:
            if self.begin is not None:
                turn = self.begin(self.cancel)
            else:
                turn = self.companion.turn(self.text, self.cancel, external=self.external)
            self.recorded.emit(list(turn.user_ids))
            for p in turn:
                self.piece.emit(p)
        except Exception as e:  # shown in the window; a bug is re-raised there
            note(e, __traceback_text__=traceback.format_exc())
            # A full disk before it was recorded: the window gives it back (the turn says so when it failed after).
            note(e, message_saved=getattr(e, "message_saved", False) or turn is not None)
            if turn is not None:
                note(e, user_ids=turn.user_ids)  # the stored messages, for their bubble
            self.failed.emit(e)
        else:
            self.finished_turn.emit(turn)


class ReflectWorker(QThread):
    """Deep reflection in its own thread (the design's background reflector): `began` once it reflects, then
    `finished_reflecting` with what it did (anima's Deepened; None when there was nothing to reflect on, or when it
    failed, which the companion tells its failure listeners) or `failed` with an error it raised. A turn started
    meanwhile pre-empts it at the model's next token (the conversation tells the reflector); it goes on next time."""

    began = Signal()
    finished_reflecting = Signal(object)
    failed = Signal(object)

    def __init__(self, companion: "Companion", only_if_pending: bool, parent=None):
        super().__init__(parent)
        self.companion, self.only_if_pending = companion, only_if_pending

    def run(self):
        try:
            if not self.companion.can_reflect_deeply(self.only_if_pending):
                done = None
            else:
                # The work after the last turn first (learning, quick reflection): Reflector.deepen waits for it
                # before it marks itself under way, and a turn sent in that wait would not pre-empt it. Waiting
                # here shortens that gap to the instant between the two calls.
                self.companion.settle()
                self.began.emit()
                done = self.companion.reflect_deeply()
        except Exception as e:  # shown in the window; a bug is re-raised there
            note(e, __traceback_text__=traceback.format_exc())
            self.failed.emit(e)
        else:
            self.finished_reflecting.emit(done)
