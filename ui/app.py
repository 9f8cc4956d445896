"""Starting the app: the window paints first; the core, the unlock and the models come after it."""

import os
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

import anima

from . import crash, tasks, theme
from .window import MainWindow


def follow_system_theme(app: QApplication) -> None:
    """The theme of the system's light or dark scheme (Qt 6.5+ reports it), until the settings are read (attach)."""
    theme.use("system")


def prepare():
    """Off the UI thread: import the core, read the settings, and unlock without asking if we can
    (the keychain, or ANIMA_PASSPHRASE for scripted use). Returns (settings, home, soul or None)."""
    from anima.companion import Companion  # noqa: F401  (imported here, off the UI thread)
    from anima.settings import Settings
    from anima.store import PassphraseNeeded
    from anima.store.companions import Companions

    settings = Settings.load()
    home = Companions(settings.data_folder or None).opening(settings.companion)  # the first, unless another is chosen
    if not home.exists():
        return settings, home, None
    try:
        return settings, home, home.unlock(os.environ.get("ANIMA_PASSPHRASE"))
    except PassphraseNeeded:
        return settings, home, None


def attach(window: MainWindow, prepared, failed) -> bool:
    """On the UI thread: ask for what is missing (first run, passphrase), then open the companion off it and show
    it; `failed(error)` when it cannot be opened. False when the person closed the dialog."""
    from anima.companion import Companion
    from anima.models.embedder import MiniLMEmbedder

    from .dialogs.unlock import FirstRunDialog, UnlockDialog

    settings, home, soul = prepared
    window.settings = settings
    first_run = soul is None and not home.exists()  # a soul is made now: the mind is chosen before the first chat
    theme.use(settings.theme)
    handler = crash.installed()
    if handler is not None:
        handler.use_home(home.dir)  # the log lives with the companion from now on
    if soul is None:
        window.show_opening(False)  # nothing opens until the person has answered (or made one, at first run)
        dialog = (UnlockDialog if home.exists() else FirstRunDialog)(home, window)
        accepted = dialog.exec()
        window.activateWindow()  # typing goes back to the message box (no window manager does it on a bare X)
        if not accepted:
            return False
        soul = dialog.result_value

    # The models and the index load once the window shows the companion, never before (DESIGN.md).

    def build() -> Companion:
        companion = Companion(home, soul, settings.chat_model(), MiniLMEmbedder(), background=False)
        companion.titles_by_model = True  # each conversation is titled from its first exchange (issue 39)
        return companion

    def opened(companion: Companion) -> None:
        QTimer.singleShot(50, companion.start_background)
        if first_run:
            window.choose_mind()

    window.open_companion(build, failed, then=opened)
    return True


def remembered():
    """The settings, read before the window first shows so that it opens as large and where it was left (a
    file of a few hundred bytes); None when they cannot be read: prepare() says why, once the window shows."""
    from anima.errors import KnownError
    from anima.settings import Settings

    try:
        return Settings.load()
    except KnownError:
        return None


def start() -> MainWindow:
    window = MainWindow(settings=remembered())

    def failed(error):
        from . import errors

        errors.show(window, error)
        window.close()

    def ready(prepared):
        from anima.errors import KnownError

        try:
            if not attach(window, prepared, failed):
                window.close()
        except KnownError as e:
            failed(e)

    window.first_painted.connect(lambda: tasks.run(prepare, ready, failed, window))
    window.show()
    return window


def launch(app: QApplication) -> MainWindow:
    """What every start does before the event loop runs: the app's name and icon, the theme, the crash handler (before
    anything can fail: a bug is shown and logged, never lost), the window. The same for a person's start,
    `--first-paint` and bench ui's launch, so that what is timed is what a person waits for."""
    app.setApplicationName("Anima")
    app.setDesktopFileName("anima")  # packaging/anima.desktop: the desktop shows its icon for the window
    app.setWindowIcon(QIcon(str(Path(anima.__file__).parent / "resources" / "anima.png")))
    follow_system_theme(app)
    crash.install()
    return start()


def first_paint() -> int:
    """`anima --first-paint`: start as a person would, print "painted" when the main window is first painted,
    and quit (bench/bundle.py times it from the process's start, the bundle's against the source's)."""
    from .first_paint import FirstPaint

    app = QApplication(sys.argv[:1])
    watcher = FirstPaint()
    try:
        window = launch(app)
        watcher.watch(window)
        app.exec()
        if window.companion is not None:
            window.companion.close()
    finally:
        crash.uninstall()
    return 0 if watcher.seen else 1


def main(argv=None) -> int:
    argv = sys.argv if argv is None else argv
    # One executable (the bundle's): the window, or --version, --selftest, or the terminal's commands.
    if argv[1:2] == ["--version"]:
        from anima import __version__

        print(f"Anima {__version__}")
        return 0
    if argv[1:2] == ["--selftest"]:
        from .selftest import main as selftest

        return selftest()
    if argv[1:2] == ["--first-paint"]:  # for bench/bundle.py: prints "painted" at the first paint, and quits
        return first_paint()
    if argv[1:2] == ["cli"]:
        from anima.cli import main as cli

        return cli(argv[2:])
    app = QApplication(argv)
    try:
        window = launch(app)
        code = app.exec()
        if window.companion is not None:
            from anima.errors import KnownError

            try:
                window.companion.close()  # frees the chat model too, even when the soul's close fails
            except KnownError as e:
                # A full disk at the closing checkpoint, after the window is gone: what was saved is kept (in the
                # WAL) and folded in at the next open. One line, as the terminal says it; not a crash.
                print(f"anima: {e}", file=sys.stderr)
                return code or 2
        return code
    finally:
        crash.uninstall()
