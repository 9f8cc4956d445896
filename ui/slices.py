"""Work on the UI thread in slices: a long list of small steps (a page of bubbles to place) done a few at a time,
each slice ending within SLICE_MS, so that the window paints and takes input between them.

A page of 30 messages placed at once held the window's thread ~70 ms of its own work, and on opening a soul of
100,000 messages, while the indexer's thread read the vectors back, ~230 ms waiting for the GIL between its
steps (bench scale, opening_stall_ms)."""

import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, QTimer

SLICE_MS = 8.0  # of the window's thread a slice may take: with the paint after it, well within a 50 ms stall

T = TypeVar("T")


class Slices(Generic[T]):
    """`step(item)` for each of `items`, in order, on the UI thread, a slice at a time; then `done()`, once, also
    when stopped (what was left is then not done). start() runs the first slice at once."""

    def __init__(self, items: Sequence[T], step: Callable[[T], None], done: Callable[[], None], parent: QObject):
        self.items, self.step, self.done, self.parent = list(items), step, done, parent
        self.next = 0
        self.running = False

    def start(self) -> "Slices[T]":
        self.running = True
        self._slice()
        return self

    def stop(self) -> None:
        """Nothing more is done (what it was placing was taken away); done() is still called, now."""
        self._end()

    def _end(self) -> None:
        if self.running:
            self.running = False
            self.done()

    def _slice(self) -> None:
        end = time.perf_counter() + SLICE_MS / 1000
        while self.running and self.next < len(self.items):
            self.next += 1
            self.step(self.items[self.next - 1])
            if time.perf_counter() >= end:
                break
        if not self.running:
            return
        if self.next < len(self.items):
            QTimer.singleShot(0, self.parent, self._slice)  # after what waits meanwhile: paints, input, timers
        else:
            self._end()
