"""Starting the app: the window shows at once; unlocking and the models load without blocking it."""

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from anima.companion import Companion
from anima.errors import KnownError
from anima.models.embedder import MiniLMEmbedder
from anima.settings import Settings
from anima.store import Home, PassphraseNeeded

from .dialogs.unlock import FirstRunDialog, UnlockDialog
from .window import MainWindow


def follow_system_theme(app: QApplication) -> None:
    """Fusion with the system's light or dark scheme (Qt 6.5+ reports it)."""
    app.setStyle(QStyleFactory.create("Fusion"))
    if QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark:
        palette = QPalette()
        for role, color in ((QPalette.Window, "#232629"), (QPalette.WindowText, "#eff0f1"),
                            (QPalette.Base, "#1b1e20"), (QPalette.Text, "#eff0f1"), (QPalette.Button, "#31363b"),
                            (QPalette.ButtonText, "#eff0f1"), (QPalette.Highlight, "#3daee9")):
            palette.setColor(role, color)
        app.setPalette(palette)


def open_soul(home: Home):
    """Unlock (keychain, then passphrase) or create. None when the person cancels."""
    if not home.exists():
        dialog = FirstRunDialog(home)
        return dialog.result_value if dialog.exec() else None
    try:
        return home.unlock(None)
    except PassphraseNeeded:
        dialog = UnlockDialog(home)
        return dialog.result_value if dialog.exec() else None


def start(settings: Settings | None = None) -> MainWindow | None:
    settings = settings or Settings.load()
    # The models start loading now, in the background, while the person unlocks.
    chat = settings.chat_model()
    embedder = MiniLMEmbedder().start_loading()
    home = Home(settings.data_folder or None)
    soul = open_soul(home)
    if soul is None:
        chat.close()
        return None
    window = MainWindow(Companion(home, soul, chat, embedder), settings)
    window.show()
    return window


def main(argv=None) -> int:
    app = QApplication(sys.argv if argv is None else argv)
    app.setApplicationName("Anima")
    follow_system_theme(app)
    try:
        window = start()
    except KnownError as e:
        print(f"anima: {e}", file=sys.stderr)
        return 2
    if window is None:
        return 0
    code = app.exec()
    window.companion.close()
    window.companion.chat.close()
    return code
