"""A window that reports when it is first painted, then quits: `bare` (a plain PySide6 window) or `anima`
(`anima-ready`: once the soul is shown; `anima-opening`: then the longest the window could not respond, from its
showing until a second after the soul's vectors and kept graph are read back and the models loaded, printed as
"stall <ms>")."""

import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from ui.first_paint import FirstPaint


def main(mode: str) -> None:
    app = QApplication(sys.argv)
    watcher = FirstPaint()
    if mode == "bare":
        window = QMainWindow()
        window.setCentralWidget(QLabel("hello"))
        window.resize(1100, 720)
        window.show()
        watcher.watch(window)  # (shown, not yet painted: that comes with the event loop)
    else:
        from ui.app import launch

        window = launch(app)  # as a person's start: the name, icon, theme and crash handler too
        if mode == "anima-ready":
            # Until the soul is unlocked and shown, not just the first paint.
            timer = QTimer(interval=5)
            timer.timeout.connect(lambda: window.companion is not None and (print("painted", flush=True), app.quit()))
            timer.start()
        else:
            watcher.watch(window)
        if mode == "anima-opening":
            from bench.ui import StallMeter

            meter = StallMeter()
            meter.run_until(app, opened(window), limit_s=300)
            print(f"stall {max(meter.gaps, default=0):.0f}", flush=True)
            return close(window)
    app.exec()
    close(window)


def opened(window, after_s: float = 1.0):
    """A test for StallMeter.run_until: the soul shown, its vectors and kept graph read back (the indexer's
    thread ended), both models loaded (each soul's window waits for the same work, whatever its size), and
    `after_s` since."""
    since: list[float] = []

    def test() -> bool:
        c = window.companion
        if (
            c is None
            or c.indexer_thread.ident is None
            or c.indexer_thread.is_alive()
            or not (c.chat.ready and c.embedder.ready)
        ):
            return False
        since[:] = since or [time.monotonic()]
        return time.monotonic() - since[0] >= after_s

    return test


def close(window) -> None:
    if getattr(window, "companion", None) is not None:
        window.companion.close()
        window.companion.chat.close()
    from ui import crash

    crash.uninstall()


if __name__ == "__main__":
    main(sys.argv[1])
