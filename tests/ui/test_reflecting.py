"""The window's background reflector: when the person is idle, deep reflection runs in a QThread, once per idle
stretch; the window stays responsive; a turn sent meanwhile pre-empts it and completes; reflection finishes later
and the Open Mind shows what it made. On a real encrypted soul, the fake model playing the model."""

import json
import threading

import pytest
from PySide6.QtCore import QThread, QTimer

from anima.companion import Companion
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.settings import Settings
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.held import HoldsFirstStructuredAnswer
from tests.ui.conftest import send

IDLE_MS = 300


def reading(*episodes) -> str:
    return json.dumps(
        {
            "episodes": [
                {"messages": list(ms), "summary": s, "emotional_arc": arc, "significance": sig, "self_assessment": ""}
                for ms, s, arc, sig in episodes
            ],
            "feedback": [],
        }
    )


def considering() -> str:
    return json.dumps({"growth": [], "insights": [], "identity": ""})


class Held(HoldsFirstStructuredAnswer, FakeChatModel):
    pass


def make(anima_home, chat):
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.learns = False
    c.reflector.every = 0
    return c


def counted(c):
    """Wrap reflect_deeply to record each call and the thread it ran in."""
    calls = []
    real = c.reflect_deeply

    def reflect():
        calls.append((threading.current_thread() is threading.main_thread(), QThread.currentThread()))
        return real()

    c.reflect_deeply = reflect
    return calls


@pytest.fixture
def shown(qtbot, monkeypatch):
    from ui.window import MainWindow

    monkeypatch.setattr(MainWindow, "idle_ms", IDLE_MS)
    made = []

    def show(c):
        w = MainWindow(c, Settings())
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        made.append((w, c))
        return w

    yield show
    for w, c in made:
        w.close()
        c.close()


def test_idle_reflection_runs_in_a_qthread_and_a_turn_pre_empts_it(qtbot, anima_home, shown, screenshot):
    c = make(anima_home, Held())
    failed = []
    c.on_background_failure(failed.append)
    c.messages.record("user", "I adopted a puppy called Bruno.")
    c.messages.record("companion", "Congratulations on Bruno!")
    calls = counted(c)
    c.chat.enqueue(reading(([1, 2], "Ada adopted a puppy called Bruno", "happy", 7)))
    window = shown(c)
    results = []
    window.reflected.connect(results.append)

    assert not c.chat.asked.is_set() and window.reflecting is None  # not idle yet
    qtbot.waitUntil(lambda: c.chat.asked.is_set(), timeout=10_000)  # idle: deep reflection is mid-answer
    [(on_main, thread)] = calls
    assert not on_main and thread is window.reflecting and window.reflecting.isRunning()
    qtbot.waitUntil(lambda: window.reflecting_label.text() == "Reflecting…", timeout=5_000)
    ticks = []
    timer = QTimer(window, interval=10)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    # The model is held in the reflector's thread; the window goes on answering its timer all the while.
    qtbot.waitUntil(lambda: len(ticks) >= 10, timeout=10_000)
    timer.stop()
    assert window.reflecting is not None and window.reflecting.isRunning() and not results
    screenshot(window, "window-reflecting")

    c.chat.enqueue("He sounds lovely.")
    bubble = send(qtbot, window, "He chewed my shoe.")  # the turn completes while reflection is mid-answer
    assert bubble.text == "He sounds lovely." and bubble.message_id is not None
    qtbot.waitUntil(lambda: bool(results), timeout=10_000)
    assert results[0].preempted and c.episodes.all() == []
    assert window.reflecting is None and window.reflecting_label.text() == ""

    # Idle again after the turn: reflection goes on where it stopped and finishes.
    c.chat.enqueue(
        reading(
            ([1, 2], "Ada adopted a puppy called Bruno", "happy", 7), ([3, 4], "Bruno chewed Ada's shoe", "amused", 2)
        ),
        considering(),
    )
    qtbot.waitUntil(lambda: len(results) == 2, timeout=10_000)
    assert not results[1].preempted and results[1].messages == 4
    assert [e.summary for e in c.episodes.all()] == ["Ada adopted a puppy called Bruno", "Bruno chewed Ada's shoe"]
    # Once per idle stretch, and nothing left to reflect on: no third run, and none to come, with no idle stretch
    # under way (only activity starts one).
    qtbot.waitUntil(lambda: window.reflecting is None and not window.idle.isActive(), timeout=10_000)
    assert len(calls) == 2 and failed == []


def test_nothing_to_reflect_on_means_no_reflection_and_typing_restarts_the_stretch(qtbot, anima_home, shown):
    c = make(anima_home, FakeChatModel())
    calls = counted(c)
    window = shown(c)
    idle = []
    window.idle.timeout.connect(lambda: idle.append(True))
    qtbot.waitUntil(lambda: bool(idle) and window.reflecting is None, timeout=10_000)  # an idle stretch went by
    assert calls == [] and window.reflecting_label.text() == ""  # nothing pending: never starts
    c.messages.record("user", "I start as a nurse in Leeds on Monday.")
    c.messages.record("companion", "Congratulations!")
    c.chat.enqueue(reading(([1, 2], "Ada starts as a nurse in Leeds", "nervous -> hopeful", 6)), considering())
    for _ in range(4):  # typing keeps the person from being idle: each key starts the stretch again
        qtbot.keyClicks(window.input, "hm")
        assert window.idle.remainingTime() > IDLE_MS // 2
        qtbot.waitUntil(lambda: window.idle.remainingTime() <= IDLE_MS // 2, timeout=10_000)  # half gone by
    assert calls == []
    qtbot.waitUntil(lambda: len(calls) == 1 and window.reflecting is None, timeout=10_000)
    assert len(c.episodes.all()) == 1


def test_reflect_now_runs_at_once_and_the_open_mind_shows_what_it_made(qtbot, anima_home, shown, monkeypatch):
    from ui.window import MainWindow

    monkeypatch.setattr(MainWindow, "idle_ms", 600_000)  # never idle long enough here: only the menu asks
    c = make(anima_home, FakeChatModel())
    c.messages.record("user", "My sister Bea moved to Lyon.")
    c.messages.record("companion", "A big move for her!")
    window = shown(c)
    window.toggle_mind()
    view = window.mind.open_view("Episodes")
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert view.rows == []
    c.chat.enqueue(reading(([1, 2], "Bea moved to Lyon", "proud", 5)), considering())
    action = window.actions_by_name["reflect_now"]  # under Companion (ui/menus.py)
    with qtbot.waitSignal(window.reflected, timeout=10_000) as done:
        action.trigger()
    assert done.args[0].episodes
    qtbot.waitUntil(lambda: [e.summary for e in view.rows] == ["Bea moved to Lyon"], timeout=10_000)


def test_evolve_my_persona_from_the_menu_runs_off_the_ui_thread(qtbot, window):
    from anima.self.identity import EARNED_AFTER

    c = window.companion
    c.soul.set_meta(EARNED_AFTER, "0")
    c.self_model.grow("I learned that Ada likes being asked before advice.")
    c.chat.enqueue(json.dumps({"persona": "I ask Ada before I give advice."}))
    action = window.actions_by_name["evolve"]
    action.trigger()
    qtbot.waitUntil(lambda: c.self_model.read().persona == "I ask Ada before I give advice.", timeout=10_000)
    qtbot.waitUntil(lambda: "my persona is rewritten" in window.statusBar().currentMessage(), timeout=10_000)
    assert c.self_model.growth(1)[0]["entry"].startswith("I rewrote my persona")
