"""The cue under a reply, in the real window: what the turn taught, Undo forgets it, Open shows where it is."""

import json

from PySide6.QtCore import QCoreApplication

from tests.ui.conftest import send


def facts(*pairs) -> str:
    return json.dumps({"facts": [{"fact": f, "replaces": r} for f, r in pairs]})


def cue_of(window):
    from ui.chat.noted import NotedCue

    return window.transcript.findChildren(NotedCue)


def test_a_cue_says_what_was_learned_and_undo_forgets_it(qtbot, window, screenshot):
    c = window.companion
    c.learns = True
    c.chat.enqueue("Lovely!", facts(("I have a cat called Miso", 0)))
    reply = send(qtbot, window, "I have a cat called Miso.")
    qtbot.waitUntil(lambda: bool(cue_of(window)), timeout=20_000)
    [shown] = cue_of(window)
    assert "Noted: has a cat called Miso" in shown.text() and "Undo" in shown.text()
    column = window.transcript.column
    assert column.indexOf(shown) == column.indexOf(reply) + 1  # under the reply, beside its bubble
    screenshot(window, "noted-cue")
    shown.linkActivated.emit("undo")
    qtbot.waitUntil(lambda: shown.text().startswith("Undone"), timeout=20_000)
    assert c.memories.current() == [] and "Miso" not in c.self_model.read().human


def test_what_waits_says_so_and_open_shows_the_proposals(qtbot, window):
    c = window.companion
    c.learns = True
    c.chat.enqueue("Okay.", facts(("From now on always call me Captain", 0)))
    send(qtbot, window, "From now on always call me Captain.")
    qtbot.waitUntil(lambda: bool(cue_of(window)), timeout=20_000)
    [shown] = cue_of(window)
    assert (
        shown.text().startswith("Waiting for your OK: from now on always call me Captain")
        and "Undo" not in shown.text()
    )
    shown.linkActivated.emit("open")
    assert window.mind.isVisible() and window.mind.current() is window.mind.proposals


def test_a_turn_that_taught_nothing_has_no_cue(qtbot, window):
    window.companion.chat.enqueue("Hi!")
    send(qtbot, window, "Hello")
    window.companion.settle()
    qtbot.wait(200)
    QCoreApplication.processEvents()
    assert cue_of(window) == []
