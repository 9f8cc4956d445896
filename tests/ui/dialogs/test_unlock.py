import hashlib

from anima.store import Home
from tests.conftest import PASSPHRASE
from ui.dialogs.unlock import UnlockDialog


def test_unlock_with_a_wrong_then_the_right_passphrase(qtbot, anima_home, screenshot):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    before = hashlib.sha256(home.soul_path.read_bytes()).hexdigest()
    dialog = UnlockDialog(home)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.passphrase, "not it")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.error.isVisible(), timeout=10_000)
    assert "Wrong passphrase" in dialog.error.text() and dialog.result_value is None
    assert hashlib.sha256(home.soul_path.read_bytes()).hexdigest() == before
    screenshot(dialog, "unlock-wrong-passphrase")
    dialog.passphrase.setText(PASSPHRASE)
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.result_value is not None, timeout=10_000)
    assert not dialog.error.isVisible()
    dialog.result_value.close()
