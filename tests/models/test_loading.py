"""Background loads (models/loading.py): one at a time, in the order started, each failure its own."""

import threading
import time

import pytest

from anima.models.loading import Background


def _until(test, limit_s: float = 60) -> None:
    end = time.monotonic() + limit_s  # another test's model may still be loading ahead of these
    while not test() and time.monotonic() < end:
        time.sleep(0.01)


def test_loads_run_one_at_a_time_in_the_order_they_were_started():
    gate, said = threading.Event(), []

    def first():
        said.append("first begins")
        gate.wait(30)
        said.append("first ends")
        return 1

    a = Background("first", first).start()
    b = Background("second", lambda: said.append("second begins") or 2).start()
    _until(lambda: said)
    time.sleep(0.3)  # the second, free to run, would have ended by now
    assert said == ["first begins"] and not b.ready
    gate.set()
    assert b.get(30) == 2 and a.get(30) == 1
    assert said == ["first begins", "first ends", "second begins"]


def test_a_load_that_fails_lets_the_next_one_run_and_keeps_its_error():
    def damaged():
        raise ValueError("damaged model file")

    a = Background("damaged", damaged).start()
    b = Background("next", lambda: 2).start()
    assert b.get(60) == 2
    with pytest.raises(ValueError, match="damaged model file"):
        a.get(1)
