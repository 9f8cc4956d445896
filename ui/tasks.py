"""Running the core off the UI thread: the window never waits on the model or the disk."""

import traceback
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot


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
            e.__traceback_text__ = traceback.format_exc()
            self.signals.failed.emit(e)
        else:
            self.signals.done.emit(result)


_keep: set = set()


def run(fn: Callable, done: Callable | None = None, failed: Callable | None = None, parent: QObject | None = None):
    """Call fn() on a pool thread; done(result) or failed(error) are then called on the UI thread."""
    # Kept alive here until it has fired, not by a parent: a window closed meanwhile must not
    # delete it under the worker's feet.
    signals = _Signals()
    _keep.add(signals)
    if done:
        signals.done.connect(done)
    if failed:
        signals.failed.connect(failed)
    signals.done.connect(lambda _: _keep.discard(signals))
    signals.failed.connect(lambda _: _keep.discard(signals))
    QThreadPool.globalInstance().start(_Job(fn, signals))
    return signals


class TurnWorker(QThread):
    """Streams one turn's reply: a `piece` signal per token, then `finished_turn` or `failed`."""

    piece = Signal(str)
    finished_turn = Signal(object)
    failed = Signal(object)

    def __init__(self, companion, text: str, cancel, parent=None, external=()):
        super().__init__(parent)
        self.companion, self.text, self.cancel, self.external = companion, text, cancel, list(external)

    def run(self):
        try:
            turn = self.companion.turn(self.text, self.cancel, external=self.external)
            for p in turn:
                self.piece.emit(p)
        except Exception as e:  # shown in the window; a bug is re-raised there
            e.__traceback_text__ = traceback.format_exc()
            self.failed.emit(e)
        else:
            self.finished_turn.emit(turn)
