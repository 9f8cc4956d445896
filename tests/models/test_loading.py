"""Background loads (models/loading.py): one at a time, in the order started, each failure its own."""

import sys
import threading

import pytest

from anima.models.loading import Background
from tests.conftest import until


def waiting(thread_name: str) -> bool:
    """Whether the thread named so is blocked on a condition (a load waiting for its turn)."""
    frames = sys._current_frames()
    for thread in threading.enumerate():
        if thread.name == thread_name:
            frame = frames.get(thread.ident)
            while frame is not None:
                if frame.f_code is threading.Condition.wait.__code__:
                    return True
                frame = frame.f_back
    return False


def test_loads_run_one_at_a_time_in_the_order_they_were_started():
    gate, said = threading.Event(), []

    def first():
        said.append("first begins")
        gate.wait(30)
        said.append("first ends")
        return 1

    a = Background("first", first).start()
    b = Background("second", lambda: said.append("second begins") or 2).start()
    until(lambda: said, timeout=60, what="the first load")  # another test's model may still be loading first
    until(lambda: b.ready or waiting("load second"), what="the second load to end or wait its turn")
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


def test_a_load_whose_thread_cannot_start_holds_no_other_up(monkeypatch):
    """The system refused a thread (its limit): that load fails at once, and the next one still runs."""
    real = threading.Thread.start
    refused = []

    def start(thread):
        if thread.name == "load refused" and not refused:
            refused.append(thread)
            raise RuntimeError("can't start new thread")
        return real(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    a = Background("refused", lambda: 1)
    with pytest.raises(RuntimeError):
        a.start()
    assert Background("next", lambda: 2).start().get(60) == 2
    with pytest.raises(RuntimeError, match="can't start new thread"):
        a.get(1)


def test_a_program_ending_waits_for_the_load_under_way_but_never_begins_one_still_waiting(tmp_path):
    """Quitting right after opening: the load under way ends first (a native library must not be loading at
    exit), the one waiting for its turn is not run only to be thrown away."""
    import subprocess
    import sys

    # The first load ends only once the program, ending, has let the second go: it is under way at the end.
    script = (
        f"import time\nfrom pathlib import Path\nfrom anima.models.loading import Background\n"
        f"def first():\n"
        f"    deadline = time.monotonic() + 60\n"
        f"    while not second._skipped and time.monotonic() < deadline:\n"
        f"        time.sleep(0.005)\n"
        f"    Path(r'{tmp_path}/first').touch()\n"
        f"loads = Background('first', first), Background('second', lambda: Path(r'{tmp_path}/second').touch())\n"
        f"second = loads[1]\n"
        f"for load in loads:\n"
        f"    load.start()\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "first").exists() and not (tmp_path / "second").exists()


def test_a_chat_model_closed_while_its_load_waits_is_never_opened():
    from anima.models.chat import ModelClosed
    from anima.models.llama import LlamaChatModel

    gate = threading.Event()
    ahead = Background("ahead", lambda: gate.wait(30)).start()
    chat = LlamaChatModel().start_loading()
    chat.close()
    gate.set()
    ahead.get(30)
    with pytest.raises(ModelClosed):  # its load ended without opening the file
        chat._llm.get(60)
