"""The settings dialog: a model server, its API key (the keychain, never the settings file), its structured-output
dialect, and a model file checked before it is used."""

import keyring
from PySide6.QtCore import Qt

from anima.models import endpoint_key
from anima.settings import Settings
from tests.store.test_keychain import MemoryKeyring
from ui.dialogs.settings import SettingsDialog

URL = "http://127.0.0.1:8080/v1"


def open_dialog(qtbot, settings=None):
    dialog = SettingsDialog(settings or Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def save(qtbot, dialog):
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.result_value is not None or dialog.error.isVisible(), timeout=10_000)
    return dialog.result_value


def fill_server(qtbot, dialog, key="sk-typed"):
    qtbot.keyClicks(dialog.endpoint_url, URL)
    qtbot.keyClicks(dialog.endpoint_model, "qwen2.5:3b")
    dialog.dialect.setCurrentIndex(dialog.dialect.findData("json_object"))
    dialog.uses_key.setChecked(True)
    qtbot.keyClicks(dialog.api_key, key)


def test_a_server_and_its_key_are_saved_the_key_in_the_keychain_only(qtbot):
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    dialog = open_dialog(qtbot)
    assert dialog.api_key.placeholderText() == "kept in the system keychain"
    fill_server(qtbot, dialog)
    assert save(qtbot, dialog) is not None, dialog.error.text()
    s = Settings.load()
    assert (s.endpoint_url, s.endpoint_model, s.endpoint_dialect, s.endpoint_uses_key) == (
        URL,
        "qwen2.5:3b",
        "json_object",
        True,
    )
    assert "sk-typed" not in Settings.path().read_text()
    assert backend.secrets == {("anima-endpoint", URL): "sk-typed"}
    # The next start's model sends it.
    assert s.chat_model().api_key == "sk-typed"
    # Unticked: the keychain forgets it.
    again = open_dialog(qtbot, s)
    again.uses_key.setChecked(False)
    assert save(qtbot, again) is not None
    assert backend.secrets == {} and not Settings.load().endpoint_uses_key
    endpoint_key.drop(URL)


def test_with_no_keychain_the_key_is_kept_until_the_app_closes(qtbot):
    dialog = open_dialog(qtbot)  # the tests' keychain is keyring's fail backend
    assert "no keychain" in dialog.api_key.placeholderText()
    fill_server(qtbot, dialog)
    assert save(qtbot, dialog) is not None, dialog.error.text()
    assert "sk-typed" not in Settings.path().read_text()
    assert endpoint_key.find(URL) == "sk-typed"
    endpoint_key.drop(URL)


def test_a_key_is_asked_for_when_the_box_is_ticked(qtbot):
    dialog = open_dialog(qtbot)
    fill_server(qtbot, dialog, key="")
    save(qtbot, dialog)
    assert "Enter the server's API key" in dialog.error.text() and not Settings.path().exists()


def test_a_model_file_that_is_not_gguf_is_refused_and_nothing_saved(qtbot, tmp_path):
    page = tmp_path / "model.gguf"
    page.write_text("<html>404 Not Found</html>")
    dialog = open_dialog(qtbot)
    qtbot.keyClicks(dialog.model_path, str(page))
    assert save(qtbot, dialog) is None
    assert "is not a GGUF model file" in dialog.error.text() and not Settings.path().exists()


def test_the_theme_is_chosen_in_settings_and_applied_at_once(qtbot, window, monkeypatch):
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from ui import theme

    def choose_dark(dialog) -> int:
        dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
        dialog.submit()
        qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=10_000)
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", choose_dark)
    bubble = window.transcript.add("companion", "```python\nx = 1\n```", message_id=1)
    try:
        window.open_settings()
        assert Settings.load().theme == "dark" and window.settings.theme == "dark"
        assert QApplication.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
        assert theme.DARK.code_background in bubble.label.text()  # what is on screen follows, no restart
    finally:
        theme.use("system")


def test_each_structured_output_choice_reads_whole_in_the_closed_box_with_where_it_is_spoken_in_the_list(qtbot):
    dialog = open_dialog(qtbot)
    dialog.resize(640, 560)  # as it opens on a 900x600 screen
    box = dialog.dialect
    room = box.width() - 40  # the arrow and the frame
    metrics = box.fontMetrics()
    for row in range(box.count()):
        label = box.itemText(row)
        assert metrics.horizontalAdvance(label) <= room, label
        spoken = box.itemData(row, Qt.ItemDataRole.ToolTipRole)
        assert spoken and spoken not in label  # said under it in the list, not lost
        html = box.itemDelegate().html(box.model().index(row, 0), "#000", "#777")
        assert label.replace("'", "&#x27;") in html and spoken.replace("'", "&#x27;") in html
