"""The Open Mind panel: refused edits keep the old value, the human block reaches the workspace, forget works."""

from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import send


def open_view(qtbot, window, title):
    window.toggle_mind()
    panel = window.mind
    panel.setCurrentWidget(panel.views[title])
    view = panel.views[title]
    view.refresh()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    return view


def test_an_invalid_edit_is_refused_the_old_value_kept_and_the_draft_left_to_fix(qtbot, window, screenshot):
    window.companion.self_model.write("persona", "Warm and direct.", "user")
    view = open_view(qtbot, window, "Self")
    assert view.editors["persona"].toPlainText() == "Warm and direct."
    draft = "Warm and direct. " + "x" * 1900
    view.editors["persona"].setPlainText(draft)
    view.loaded = False  # the view reloads after a refused edit: wait for that too
    view.save("persona")
    qtbot.waitUntil(lambda: view.error.isVisible() and view.loaded, timeout=10_000)
    assert "at most 1200 characters" in view.error.text()
    assert window.companion.self_model.read().persona == "Warm and direct."  # the old text is kept
    assert view.editors["persona"].toPlainText() == draft  # and the person's draft too, to shorten
    screenshot(window, "open-mind-refused-edit")
    view.editors["persona"].setPlainText("Warm, direct and brief.")
    view.save("persona")
    qtbot.waitUntil(lambda: window.companion.self_model.read().persona == "Warm, direct and brief.", timeout=10_000)
    qtbot.waitUntil(lambda: not view.error.isVisible(), timeout=10_000)
    assert view.editors["persona"].toPlainText() == "Warm, direct and brief."


def test_an_edit_of_the_human_block_shows_in_the_next_turn(qtbot, window):
    view = open_view(qtbot, window, "Self")
    view.editors["human"].setPlainText("Ada is a night nurse and hates small talk.")
    view.save("human")
    qtbot.waitUntil(lambda: window.companion.self_model.read().human.startswith("Ada is a night nurse"),
                    timeout=10_000)
    window.companion.chat.enqueue("Straight to it, then.")
    send(qtbot, window, "hi")
    system = window.companion.chat.history[-1]["messages"][0]["content"]
    assert "Ada is a night nurse and hates small talk." in system
    edits = window.companion.soul.history("block")
    assert edits[-1]["actor"] == "user"


def test_forget_from_the_panel_removes_the_memory_from_core_and_recall(qtbot, window, monkeypatch, screenshot):
    c = window.companion
    keep = c.memories.remember("Ada's cat is called Miso")
    gone = c.memories.remember("Ada's old password hint was purple walrus")
    view = open_view(qtbot, window, "Memories")
    screenshot(window, "open-mind-memories")
    row = next(i for i, r in enumerate(view.rows) if r["id"] == gone)
    view.table.selectRow(row)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    view.forget()
    qtbot.waitUntil(lambda: [r["id"] for r in view.rows] == [keep], timeout=10_000)
    assert c.soul.query("SELECT id FROM memories") == [{"id": keep}]
    assert ("memory", gone) not in {r.key for r in c.recall("purple walrus password", 10)}


def test_an_edit_can_be_undone(qtbot, window):
    c = window.companion
    card = c.world.create("person", "Bea", "Ada's sister, in Paris.")
    c.world.update(card, body="Ada's sister, in Lyon now.", actor="user")
    view = open_view(qtbot, window, "Edits")
    row = next(i for i, e in enumerate(view.rows) if e["op"] == "update" and e["item_kind"] == "world_card")
    view.table.selectRow(row)
    edits = len(view.rows)
    view.undo()
    # The view reloads when the undo has finished (re-indexing included), listing the undo as an edit.
    qtbot.waitUntil(lambda: len(view.rows) > edits, timeout=10_000)
    assert c.world.all()[0]["body"] == "Ada's sister, in Paris."


def test_a_message_forgotten_from_the_conversation_view_is_gone(qtbot, window, monkeypatch):
    c = window.companion
    c.chat.enqueue("Noted.")
    send(qtbot, window, "my locker code is 4417")
    view = open_view(qtbot, window, "Conversation")
    row = next(i for i, m in enumerate(view.rows) if "4417" in m["content"])
    view.table.selectRow(row)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    view.forget()
    qtbot.waitUntil(lambda: all("4417" not in m["content"] for m in view.rows), timeout=10_000)
    assert c.soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH '4417'") == []
    # Nor is it on screen: its bubble left the transcript; the reply, not forgotten, stays.
    qtbot.waitUntil(lambda: all("4417" not in b.text for b in window.transcript.bubbles), timeout=10_000)
    assert [b.role for b in window.transcript.bubbles] == ["companion"]
    assert window.transcript.bubbles[0].text.endswith("Noted.")


def test_a_person_forgotten_from_the_memories_view_leaves_the_transcript(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog
    c = window.companion
    c.chat.enqueue("Noted.", "Good to hear.")
    send(qtbot, window, "Bea lives in Lyon")
    send(qtbot, window, "the weather is fine")
    view = open_view(qtbot, window, "Memories")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Bea", True))
    view.forget_person()
    qtbot.waitUntil(lambda: view.error.text().startswith("Forgot"), timeout=10_000)
    qtbot.waitUntil(lambda: "Bea lives in Lyon" not in [b.text for b in window.transcript.bubbles], timeout=10_000)
    assert [b.text for b in window.transcript.bubbles] == ["Noted.", "the weather is fine", "Good to hear."]


def test_the_memories_view_shows_where_each_memory_came_from(qtbot, window, screenshot):
    from anima.store.provenance import Provenance, Source
    c = window.companion
    said = c.messages.record("user", "my cat is called Miso", provenance=Provenance(Source.PERSON))
    pasted = c.messages.record("user", "Miso: vet on Tuesday\nfood: salmon", speaker="file cat.txt",
                               provenance=Provenance(Source.FILE, said, "cat.txt"))
    c.memories.remember("Ada's cat is called Miso", message_id=said, provenance=Provenance(Source.PERSON, said))
    c.memories.remember("Miso sees the vet on Tuesday", source="untrusted", message_id=pasted,
                        provenance=Provenance(Source.FILE, pasted, "cat.txt"))
    c.memories.remember("Ada likes tea")  # stored before provenance was kept
    view = open_view(qtbot, window, "Memories")
    assert view.columns[1] == "from"
    shown = {view.table.item(i, 0).text(): view.table.item(i, 1).text() for i in range(view.table.rowCount())}
    assert shown == {"Ada's cat is called Miso": f"you said it, message #{said}",
                     "Miso sees the vet on Tuesday": f"a file you attached (cat.txt), message #{pasted}",
                     "Ada likes tea": "not recorded"}
    screenshot(window, "open-mind-memories-provenance")


def test_a_world_card_turned_off_in_the_panel_is_never_woken_until_turned_on(qtbot, window):
    c = window.companion
    c.world.create("place", "The Lighthouse", "Where Ada spent summers as a child.", ["lighthouse"])
    woken = lambda: [r.kind for r in c.clerk.pick("we drove past the lighthouse", 0)].count("world_card")  # noqa: E731
    assert woken() == 1
    view = open_view(qtbot, window, "World")
    row = next(i for i, r in enumerate(view.rows) if r["title"] == "The Lighthouse")
    assert view.table.item(row, 4).text() == "by its keys"
    view.table.selectRow(row)
    view.toggle()
    qtbot.waitUntil(lambda: view.rows and not view.rows[0]["enabled"], timeout=10_000)
    assert view.table.item(0, 4).text() == "off: never woken"
    assert woken() == 0
    assert c.soul.history("world_card")[-1]["actor"] == "user"  # the person's edit, in the history
    view.table.selectRow(0)
    view.toggle()
    qtbot.waitUntil(lambda: view.rows and view.rows[0]["enabled"], timeout=10_000)
    assert woken() == 1


def test_a_view_that_loads_after_its_soul_closed_shows_no_error_and_raises_none(qtbot, window):
    # The window closed (or an import swapped the soul) while a view was loading: CI once saw that load raise
    # an AttributeError into the next test's event loop.
    from ui import tasks
    window.companion.self_model.write("persona", "Warm and direct.", "user")
    view = open_view(qtbot, window, "Self")
    window.companion.soul.close()
    view.refresh()
    qtbot.waitUntil(lambda: not tasks._keep, timeout=10_000)  # its task has failed, and been told on the UI thread
    assert not view.error.isVisible()
    assert view.editors["persona"].toPlainText() == "Warm and direct."  # what it showed stays
