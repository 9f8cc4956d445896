"""The window's step of `anima --selftest` (the other steps are anima/selftest.py): open it, see it painted
with the companion attached, close it. Offscreen unless a platform is chosen (QT_QPA_PLATFORM)."""

import os
import time

from anima import selftest

PAINT_SECONDS = 30


def window_step(run: selftest.Run) -> None:
    def window():
        from PySide6.QtCore import QEvent, QObject
        from PySide6.QtWidgets import QApplication

        from .window import MainWindow

        app = QApplication.instance()
        assert app is not None  # made by main()
        painted: list[float] = []

        class Painted(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint and not painted:
                    painted.append(time.perf_counter())
                return False

        t = time.perf_counter()
        watcher = Painted()
        app.installEventFilter(watcher)
        w = MainWindow()
        try:
            w.show()
            while not painted and time.perf_counter() - t < PAINT_SECONDS:
                app.processEvents()
                time.sleep(0.005)
            if not painted:
                raise AssertionError(f"the window was not painted within {PAINT_SECONDS} s")
            companion = run.state.get("companion")
            if companion is not None:
                w.set_companion(companion)
                app.processEvents()
            title = w.windowTitle()
        finally:
            app.removeEventFilter(watcher)
            w.close()
            w.deleteLater()
            app.processEvents()
        return f"{QApplication.platformName()}: painted in {(painted[0] - t) * 1000:.0f} ms, titled {title!r}, closed"

    run.step("window", window)


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["anima", "--selftest"])
    app.setApplicationName("Anima")
    return selftest.main(window_step)
