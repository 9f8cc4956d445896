from anima.models.gpu import gpu_report


def test_the_settings_dialog_says_what_the_build_does_with_gpu_layers(qtbot):
    from anima.settings import Settings
    from ui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.gpu.text() == gpu_report())
