"""Starting the app as a person does (ui/app.py start): the window paints first, and opening the soul never holds
the UI thread."""

import threading

from PySide6.QtCore import QEvent, QObject

from anima.settings import Settings
from anima.store import Home
from anima.store.soul import Soul
from tests.conftest import PASSPHRASE


class Paints(QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Paint:
            self.count += 1
        return False


def test_the_companion_opens_off_the_ui_thread_while_the_window_paints_and_takes_typing(qtbot, anima_home, monkeypatch):
    """A soul another program holds: its companion's constructor waits on it (here, until released). The window
    meanwhile repaints and takes what the person types; it shows the companion once it is open, and only then do
    the models start loading."""
    import anima.models.embedder
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from ui.app import start

    monkeypatch.setattr(Settings, "chat_model", lambda self, ask_key=None: FakeChatModel())
    monkeypatch.setattr(anima.models.embedder, "MiniLMEmbedder", FakeEmbedder)
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)  # unlocked without asking, as from the keychain
    Home(anima_home).create(PASSPHRASE, name="Juniper").close()
    opened_on, released, real_init = [], threading.Event(), Companion.__init__

    def held_init(self, *args, **kwargs):
        opened_on.append(threading.current_thread())
        if threading.current_thread() is not threading.main_thread():
            released.wait(30)  # the soul is held; never on the UI thread, which would freeze
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Companion, "__init__", held_init)
    shown_first = []
    real_start = Companion.start_background
    monkeypatch.setattr(
        Companion,
        "start_background",
        lambda self, chat=True: (shown_first.append(window.companion is self), real_start(self, chat)),
    )

    on_ui, real_query = [], Soul.query

    def query(self, sql, params=()):
        if threading.current_thread() is threading.main_thread():
            on_ui.append(sql)
        return real_query(self, sql, params)

    monkeypatch.setattr(Soul, "query", query)

    window = start()
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: bool(opened_on), timeout=10_000)
        assert opened_on[0] is not threading.main_thread()
        # Held: the window still answers. It repaints, and what is typed shows in the box.
        paints = Paints()
        window.installEventFilter(paints)
        window.update()
        qtbot.waitUntil(lambda: paints.count > 0, timeout=10_000)
        window.input.setFocus()
        qtbot.keyClicks(window.input, "are you there?")
        assert window.input.toPlainText() == "are you there?"
        assert window.companion is None and window.loading_label.text() == "Opening your companion…"
    finally:
        released.set()
    qtbot.waitUntil(lambda: window.windowTitle().startswith("Juniper") and bool(shown_first), timeout=10_000)
    assert shown_first == [True]  # the models load once the window shows the companion
    assert on_ui == []  # nor did showing it read the soul on the UI thread
    window.close()
    window.companion.close()


def test_the_app_opens_in_the_theme_saved(qtbot, anima_home, monkeypatch):
    """The settings are read off the UI thread after the first paint (in the system's theme); the saved theme
    is applied as soon as they are."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from ui import theme
    from ui.app import attach
    from ui.window import MainWindow

    Settings(theme="dark").save()
    window = MainWindow()
    qtbot.addWidget(window)
    monkeypatch.setattr(window, "open_companion", lambda *args, **kwargs: None)  # the soul is not what is tested
    try:
        assert attach(window, (Settings.load(), Home(anima_home), object()), lambda error: None)
        assert QApplication.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
    finally:
        theme.use("system")


def test_no_companion_is_said_to_be_opening_behind_the_first_run_dialog(qtbot, anima_home, monkeypatch):
    """QA: "Opening your companion…" and a spinner showed behind the dialog that makes the first one."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from ui.app import start
    from ui.dialogs.unlock import FirstRunDialog

    monkeypatch.delenv("ANIMA_PASSPHRASE", raising=False)
    behind = []

    def look_then_close():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, FirstRunDialog):
            QTimer.singleShot(20, look_then_close)
            return
        behind.append((window.loading_label.text(), window.loading.isVisible()))
        QTest.keyClick(dialog, Qt.Key.Key_Escape)  # not now: the window closes

    QTimer.singleShot(0, look_then_close)
    window = start()
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: bool(behind) and not window.isVisible(), timeout=20_000)
    assert behind == [("", False)]
    assert not Home(anima_home).exists()


def test_the_window_is_made_without_importing_the_core_which_loads_after_the_first_paint():
    """What the first paint waits for is what the window needs: the core (numpy, the store, the conversation room:
    ~0.8 s of imports on two cores, most of the start) is imported off the UI thread once it has painted (prepare),
    and Markdown's renderer with the first page of history."""
    import subprocess
    import sys

    from tests.bench.running import ROOT

    heavy = ("numpy", "jsonschema", "anima.store", "anima.conversation", "anima.knowledge", "markdown_it", "pygments")
    code = f"import sys, ui.app; print([m for m in {heavy!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
