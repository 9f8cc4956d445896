"""The why of a reply, and export then import of the whole soul through the dialogs."""

from PySide6.QtCore import Qt

from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.ui.conftest import send
from ui.chat.why import WhyDialog
from ui.dialogs.core_io import ExportDialog, ImportDialog


def test_the_why_view_lists_what_was_recalled(qtbot, window, screenshot):
    c = window.companion
    mid = c.memories.remember("Ada's cat is called Miso")
    c.chat.enqueue("Miso sounds lovely.")
    reply = send(qtbot, window, "tell me about my cat")
    assert reply.why.isVisible()
    items = c.why(reply.message_id)
    assert (items[0]["item_kind"], items[0]["item_id"]) == ("memory", mid)
    dialog = WhyDialog(items, {("memory", mid): "Ada's cat is called Miso"}, window)
    qtbot.addWidget(dialog)
    dialog.show()
    row = dialog.tree.topLevelItem(0)
    assert row.text(2) == "Ada's cat is called Miso" and "words #" in row.text(3)
    screenshot(dialog, "why-this-reply")


def test_the_why_view_says_where_each_recalled_item_came_from(qtbot, window, monkeypatch, screenshot):
    from anima.store.provenance import Provenance, Source

    c = window.companion
    said = c.messages.record("user", "my cat Miso hates the vet", provenance=Provenance(Source.PERSON))
    mid = c.memories.remember(
        "Ada's cat Miso hates the vet", message_id=said, provenance=Provenance(Source.PASTED, said, "vet notes")
    )
    c.chat.enqueue("Poor Miso.")
    reply = send(qtbot, window, "does my cat Miso like the vet?")
    shown = []

    def exec_(self):
        shown.append(self)
        return 0

    monkeypatch.setattr(WhyDialog, "exec", exec_)
    qtbot.mouseClick(reply.why, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    dialog = shown[0]
    rows = {
        dialog.tree.topLevelItem(i).text(2): dialog.tree.topLevelItem(i).text(4)
        for i in range(dialog.tree.topLevelItemCount())
    }
    assert dialog.tree.headerItem().text(4) == "from"
    assert rows["Ada's cat Miso hates the vet"] == f"text you pasted (vet notes), message #{said}"
    assert rows["my cat Miso hates the vet"] == "you said it"
    assert ("memory", mid) in {(it["item_kind"], it["item_id"]) for it in c.why(reply.message_id)}
    dialog.show()
    screenshot(dialog, "why-this-reply-provenance")


def test_export_then_import_through_the_dialogs(qtbot, window, tmp_path, screenshot):
    c = window.companion
    c.memories.remember("Ada's cat is called Miso")
    core = tmp_path / "ada.anima"
    export = ExportDialog(c, window)
    qtbot.addWidget(export)
    export.path.setText(str(core))
    export.passphrase.setText("export passphrase")
    export.again.setText("export passphrase different")
    export.submit()
    assert "twice the same" in export.error.text()
    export.again.setText("export passphrase")
    export.show()
    screenshot(export, "export")
    export.submit()
    qtbot.waitUntil(lambda: export.written is not None, timeout=30_000)
    assert core.exists() and f"Exported to {core}" in export.intro.text()  # it says so, and stays till closed

    elsewhere = Home(tmp_path / "other-computer")
    bad = ImportDialog(elsewhere, replacing=False)
    qtbot.addWidget(bad)
    bad.show()
    bad.path.setText(str(core))
    bad.export_pass.setText("wrong")
    bad.passphrase.setText("new passphrase")
    bad.submit()
    qtbot.waitUntil(lambda: bad.error.isVisible(), timeout=30_000)
    assert "Wrong passphrase" in bad.error.text() and not elsewhere.exists()
    screenshot(bad, "import-refused")

    good = ImportDialog(elsewhere, replacing=False)
    qtbot.addWidget(good)
    good.path.setText(str(core))
    good.export_pass.setText("export passphrase")
    good.passphrase.setText("new passphrase")
    good.submit()
    qtbot.waitUntil(lambda: good.result_value is not None, timeout=30_000)
    soul = good.result_value
    assert soul.query("SELECT content FROM memories")[0]["content"] == "Ada's cat is called Miso"
    soul.close()


def test_import_over_the_open_companion_swaps_the_soul_in_the_window(qtbot, window, tmp_path, monkeypatch):
    """The new soul's companion is opened off the UI thread (its constructor reads the soul, which a slow disk or
    another program may delay); the window shows it once it is open."""
    import threading

    from anima.companion import Companion

    c = window.companion
    opened_on, real_init = [], Companion.__init__

    def init(self, *args, **kwargs):
        opened_on.append(threading.current_thread())
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Companion, "__init__", init)
    c.memories.remember("from the core")
    core = tmp_path / "x.anima"
    c.export_core(core, "export passphrase")
    c.memories.remember("said after the export")
    dialogs = []

    def run_dialog(self):
        dialogs.append(self)
        self.path.setText(str(core))
        self.export_pass.setText("export passphrase")
        self.passphrase.setText(PASSPHRASE)
        self.submit()
        qtbot.waitUntil(lambda: self.result_value is not None, timeout=30_000)
        return 1

    monkeypatch.setattr(ImportDialog, "exec", run_dialog)
    window.import_()
    qtbot.waitUntil(lambda: window.companion not in (None, c), timeout=10_000)
    assert opened_on and threading.main_thread() not in opened_on
    new = window.companion
    assert [r["content"] for r in new.soul.query("SELECT content FROM memories")] == ["from the core"]
    # The window goes on with the models it had (closing the old soul closed its chat model: the next message
    # crashed the real llama.cpp with a segfault).
    new.chat.enqueue("Still here.")
    assert "Still here." in send(qtbot, window, "Are you there?").text
    new.close()


def test_an_import_refused_because_another_program_is_open_leaves_the_window_its_companion(
    qtbot, window, tmp_path, monkeypatch
):
    """`anima chat` has the soul open: the import over it is refused (after the window had closed its own soul for
    the swap), the dialog says why, and the window goes on with its companion, opened again, as it was. Once the
    other program is closed, Import pressed again in the same dialog goes through."""
    from tests.store.test_two_programs import OtherProgram

    c = window.companion
    c.memories.remember("kept here")
    core = tmp_path / "x.anima"
    c.export_core(core, "export passphrase")
    c.memories.remember("said after the export")
    said, kept = [], []

    def run_dialog(self, retry: bool):
        self.path.setText(str(core))
        self.export_pass.setText("export passphrase")
        self.passphrase.setText(PASSPHRASE)
        self.submit()
        qtbot.waitUntil(lambda: bool(self.error.text()), timeout=30_000)
        said.append(self.error.text())
        kept.extend(r["content"] for r in self.reopened.query("SELECT content FROM memories"))
        if not retry:
            return 0  # the person closes the dialog
        other.quit()  # the person closes `anima chat`, as told, and presses Import again
        self.submit()
        qtbot.waitUntil(
            lambda: self.result_value is not None or (self.buttons.isEnabled() and bool(self.error.text())),
            timeout=30_000,
        )
        return 1 if self.result_value is not None else 0

    for retry in (False, True):
        monkeypatch.setattr(ImportDialog, "exec", lambda self, retry=retry: run_dialog(self, retry))
        other = OtherProgram(monkeypatch)
        try:
            window.import_()
        finally:
            other.end()
        assert "Another program has this companion open" in said.pop()
        assert kept == ["kept here", "said after the export"]  # the soul here, as it was, opened again
        kept.clear()
        qtbot.waitUntil(lambda: window.companion is not None and window.companion.soul.con is not None, timeout=10_000)
        window.companion.chat.enqueue("Still here.")  # the window answers on, with the models it had
        assert "Still here." in send(qtbot, window, "Are you there?").text
    # The second time, once the other program had closed, the core came in.
    qtbot.waitUntil(
        lambda: [r["content"] for r in window.companion.soul.query("SELECT content FROM memories")] == ["kept here"],
        timeout=10_000,
    )


def test_the_why_view_says_what_each_tier_of_the_prompt_took(qtbot, window, monkeypatch):
    c = window.companion
    c.memories.remember("Ada's cat is called Miso")
    c.chat.enqueue("Miso sounds lovely.")
    reply = send(qtbot, window, "tell me about my cat")
    shown = []
    monkeypatch.setattr(WhyDialog, "exec", lambda self: shown.append(self) or 0)
    qtbot.mouseClick(reply.why, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    spent = c.tokens_by_tier(reply.message_id)
    said = shown[0].tokens.text()
    assert f"({sum(spent.values()):,} in all)" in said
    assert f"recalled memories {spent['memories']}" in said and f"the new message {spent['message']}" in said
    assert "world cards" not in said  # a tier this prompt did not have is not named
    # A reply of an earlier session has no such record: the line is not there.
    dialog = WhyDialog([], {}, window, tokens=None)
    qtbot.addWidget(dialog)
    assert dialog.tokens.isHidden()
