"""Work on the window's thread in slices (ui/slices.py): a page of history placed a few bubbles at a time, the
window painting and taking input between them."""

import time
from itertools import pairwise

from PySide6.QtCore import QObject, QTimer

from ui.chat.transcript import Transcript
from ui.slices import SLICE_MS, Slices


def page(first: int, n: int) -> list[dict]:
    return [
        {"id": i, "role": "user" if i % 2 else "companion", "content": f"Message number {i}, a few words long."}
        for i in range(first, first + n)
    ]


def test_the_event_loop_runs_between_slices_and_none_holds_it_past_its_budget(qtbot):
    """Steps of 3 ms each: a timer of the window's gets its turn between slices (a paint, a key would too), and
    no slice holds the thread past SLICE_MS and the step that crossed it."""
    parent = QObject()
    steps: list[float] = []
    ticks: list[float] = []
    ended: list[float] = []
    timer = QTimer(parent, interval=0)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()

    def step(_item: int) -> None:
        steps.append(time.perf_counter())
        end = steps[-1] + 0.003
        while time.perf_counter() < end:  # the thread's own work, as placing a bubble is
            pass

    Slices(list(range(40)), step, lambda: ended.append(time.perf_counter()), parent).start()
    qtbot.waitUntil(lambda: bool(ended), timeout=10_000)
    timer.stop()
    assert len(steps) == 40 and len(ended) == 1
    # The loop turned between slices, and no slice took more steps than its budget holds and the one crossing it
    # (a loaded machine only makes a step longer, and a slice shorter).
    edges = [steps[0], *(t for t in ticks if steps[0] < t < steps[-1]), steps[-1] + 1]
    per_slice = [sum(a <= s < b for s in steps) for a, b in pairwise(edges)]
    assert len(per_slice) >= 40 / (SLICE_MS / 3 + 1)
    assert max(per_slice[1:]) <= SLICE_MS // 3 + 1  # (the first ran at once, out of the loop: start())


def test_a_page_is_placed_in_slices_and_then_told_with_the_view_at_the_newest(qtbot):
    """A page of 30 shows whole, oldest first, at the bottom of the view; `then` once it is all placed; older
    pages are not asked for meanwhile."""
    t = Transcript()
    qtbot.addWidget(t)
    t.resize(500, 400)
    t.show()
    qtbot.waitExposed(t)
    asked: list[int] = []
    t.wants_older.connect(asked.append)
    told: list[int] = []
    t.prepend(page(1, 30), then=lambda: told.append(len(t.bubbles)))
    assert 0 < len(t.bubbles) < 30 and t.loading_older  # the first slice, at once; the rest to come
    qtbot.waitUntil(lambda: bool(told), timeout=10_000)
    assert told == [30] and [b.message_id for b in t.bubbles] == list(range(1, 31))
    assert not asked and not t.loading_older
    bar = t.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=10_000)


def test_a_page_still_being_placed_stops_when_another_conversation_is_shown(qtbot):
    """Cleared while its page is placed (another soul or conversation shown): none of the rest of it appears,
    and `then` is still told once."""
    t = Transcript()
    qtbot.addWidget(t)
    t.resize(500, 400)
    t.show()
    told: list[bool] = []
    t.prepend(page(1, 30), then=lambda: told.append(True))
    assert len(t.bubbles) < 30
    t.clear()
    assert told == [True] and t.bubbles == [] and not t.loading_older
    t.prepend(page(100, 2), then=lambda: told.append(True))
    qtbot.waitUntil(lambda: len(told) == 2, timeout=10_000)
    qtbot.wait(50)
    assert [b.message_id for b in t.bubbles] == [100, 101] and len(told) == 2
