"""The Companion menu: switching between companions of one data folder, making a new one, and a character card
that comes in as a new companion unless the person confirms it should replace the one shown."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QMessageBox

from anima.interchange.export import export_json
from anima.store import Home
from anima.store.companions import FOLDER, MAIN, Companions
from tests.conftest import PASSPHRASE
from tests.interchange.cardfiles import v2
from tests.ui.conftest import send
from ui.dialogs import card_import, companions
from ui.dialogs.companions import CompanionsDialog, NewCompanionDialog
from ui.dialogs.unlock import UnlockDialog

OTHER = "another passphrase, for Bea alone"


@pytest.fixture
def shown(window):
    """The window, and whichever companions it shows during the test closed at its end."""
    yield window
    if window.companion is not None:
        window.companion.close()


def visible(window, kind):
    """The dialog of `kind` the window shows now, or None."""
    found = [d for d in window.findChildren(kind) if d.isVisible()]
    return found[0] if found else None


def listed(qtbot, window) -> CompanionsDialog:
    window.actions_by_name["_companions"].trigger()  # Companion ▸ Companions… (ui/menus.py)
    qtbot.waitUntil(lambda: visible(window, CompanionsDialog) is not None, timeout=10_000)
    dialog = visible(window, CompanionsDialog)
    qtbot.waitUntil(lambda: dialog.list.count() > 0, timeout=10_000)
    return dialog


def pick(dialog: CompanionsDialog, name: str) -> None:
    rows = [dialog.list.item(i) for i in range(dialog.list.count())]
    dialog.list.setCurrentItem(next(r for r in rows if r.text().split("  ")[0] == name))


def test_switching_asks_the_others_passphrase_then_shows_it_and_back(qtbot, shown, anima_home, screenshot):
    window = shown
    Companions(anima_home).new_home("Bea").create(OTHER, name="Bea").close()
    first = window.companion
    dialog = listed(qtbot, window)
    texts = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert texts == [f"{MAIN}  (open now, opens by default)", "Bea"]
    screenshot(dialog, "companions-list")
    pick(dialog, "Bea")
    dialog.open_button.click()
    qtbot.waitUntil(lambda: visible(window, UnlockDialog) is not None, timeout=10_000)
    unlock = visible(window, UnlockDialog)
    assert any(str(anima_home / FOLDER / "Bea") in label.text() for label in unlock.findChildren(QLabel))
    unlock.passphrase.setText(PASSPHRASE)  # the first one's passphrase does not open Bea
    unlock.submit()
    qtbot.waitUntil(lambda: unlock.error.isVisible(), timeout=10_000)
    assert "Wrong passphrase" in unlock.error.text()
    assert window.companion is first  # still shown, still open
    unlock.passphrase.setText(OTHER)
    unlock.submit()
    qtbot.waitUntil(lambda: window.companion is not None and window.companion is not first, timeout=20_000)
    assert window.companion.name == "Bea" and window.windowTitle().startswith("Bea")
    assert window.companion.home.dir == anima_home / FOLDER / "Bea"
    window.companion.chat.enqueue("Hello from Bea.")
    send(qtbot, window, "Hi Bea")
    assert window.transcript.bubbles[-1].text == "Hello from Bea."

    back = listed(qtbot, window)
    pick(back, MAIN)
    back.open_button.click()
    qtbot.waitUntil(lambda: visible(window, UnlockDialog) is not None, timeout=10_000)
    unlock = visible(window, UnlockDialog)
    unlock.passphrase.setText(PASSPHRASE)
    unlock.submit()
    qtbot.waitUntil(lambda: window.companion is not None and window.companion.name == "Anima", timeout=20_000)
    qtbot.waitUntil(lambda: not window.reading_history, timeout=10_000)
    assert "Hi Bea" not in [b.text for b in window.transcript.bubbles]  # Anima's own conversation
    with Home(anima_home / FOLDER / "Bea").unlock(OTHER) as soul:  # closed by the window: free to open
        assert [m["content"] for m in soul.query("SELECT content FROM messages ORDER BY id")] == [
            "Hi Bea",
            "Hello from Bea.",
        ]


def test_a_new_companion_from_the_list_is_made_and_shown(qtbot, shown, anima_home):
    window = shown
    dialog = listed(qtbot, window)
    dialog.new_button.click()
    qtbot.waitUntil(lambda: visible(window, NewCompanionDialog) is not None, timeout=10_000)
    new = visible(window, NewCompanionDialog)
    new.name.setText("Cleo")
    new.passphrase.setText(OTHER)
    new.again.setText(OTHER)
    new.submit()
    qtbot.waitUntil(lambda: window.companion is not None and window.companion.name == "Cleo", timeout=20_000)
    assert window.companion.home.dir == anima_home / FOLDER / "Cleo"
    assert [c.name for c in Companions(anima_home).list()] == [MAIN, "Cleo"]
    Home(anima_home).unlock(PASSPHRASE).close()  # the first one is closed, as it was


def test_a_card_comes_in_as_a_new_companion_by_default(qtbot, shown, anima_home, monkeypatch, tmp_path):
    window = shown
    window.companion.export_json(tmp_path / "before.json")  # the companion shown, as it was
    monkeypatch.setattr(card_import.PreviewDialog, "exec", lambda dialog: 1)  # Enter: the default button
    path = tmp_path / "mira.json"
    path.write_text(json.dumps(v2()))
    card_import.import_card(window, str(path))
    qtbot.waitUntil(lambda: visible(window, NewCompanionDialog) is not None, timeout=20_000)
    new = visible(window, NewCompanionDialog)
    assert new.name.text() == "Mira"
    new.passphrase.setText(OTHER)
    new.again.setText(OTHER)
    new.submit()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Imported Mira"), timeout=30_000)
    assert window.companion.name == "Mira" and window.companion.home.dir == anima_home / FOLDER / "Mira"
    assert window.windowTitle().startswith("Mira")
    with Home(anima_home).unlock(PASSPHRASE) as soul:  # the companion that was shown is as it was
        assert soul.get_meta("name") == "Anima"
        assert soul.query("SELECT count(*) AS n FROM world_cards")[0]["n"] == 0
        export_json(soul, tmp_path / "after.json")
    assert json.loads((tmp_path / "after.json").read_text()) == json.loads((tmp_path / "before.json").read_text())


def test_a_card_replaces_the_companion_shown_only_once_confirmed(qtbot, shown, anima_home, monkeypatch, tmp_path):
    window = shown
    first = window.companion
    answers, asked = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes], []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or answers.pop(0))
    states = []

    def exec_(dialog):
        box = dialog.findChild(QDialogButtonBox)
        assert box.button(QDialogButtonBox.StandardButton.Ok).text() == "Import as a new companion"
        dialog.replace_button.click()  # "No": nothing is chosen, the preview stays
        states.append((dialog.replacing, dialog.result()))
        dialog.replace_button.click()  # "Yes"
        states.append((dialog.replacing, dialog.result()))
        return dialog.result()

    monkeypatch.setattr(card_import.PreviewDialog, "exec", exec_)
    path = tmp_path / "mira.json"
    path.write_text(json.dumps(v2()))
    card_import.import_card(window, str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Imported Mira"), timeout=30_000)
    assert states == [(False, 0), (True, 1)]
    assert "takes the place of the companion you have open" in asked[0]
    assert window.companion is first and first.name == "Mira"  # this one, replaced
    assert [c.name for c in Companions(anima_home).list()] == [MAIN]  # no new companion
    assert visible(window, NewCompanionDialog) is None


def test_no_switch_while_a_reply_is_under_way(qtbot, shown, anima_home, held_reply):
    window = shown
    Companions(anima_home).new_home("Bea").create(OTHER, name="Bea").close()
    first = window.companion
    first.chat.enqueue("A long answer.")
    window.input.setFocus()
    qtbot.keyClicks(window.input, "Tell me")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    assert held_reply.holding.wait(10)
    companions.switch_to(window, Home(anima_home / FOLDER / "Bea"))
    assert "Busy with a reply" in window.statusBar().currentMessage()
    assert visible(window, UnlockDialog) is None and window.companion is first
    held_reply.release.set()
    qtbot.waitUntil(lambda: window.worker is None, timeout=20_000)


def test_saving_the_settings_keeps_the_default_companion_of_that_data_folder(qtbot, anima_home):
    from anima.settings import Settings
    from ui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(Settings(companion="Bea"))
    qtbot.addWidget(dialog)
    assert dialog.chosen().companion == "Bea"
    dialog.data_folder.setText(str(anima_home / "elsewhere"))  # another folder: its first companion opens
    assert dialog.chosen().companion == ""
