"""A window that reports when it is first painted, then quits: `bare` (a plain PySide6 window) or `anima`."""

import sys

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
        app.installEventFilter(watcher)
        window.show()
    else:
        from ui.app import follow_system_theme, start
        follow_system_theme(app)
        app.installEventFilter(watcher)
        window = start()
        if mode == "anima-ready":
            # Until the soul is unlocked and shown, not just the first paint.
            watcher.seen = True
            timer = QTimer(interval=5)
            timer.timeout.connect(lambda: window.companion is not None and (print("painted", flush=True),
                                                                             app.quit()))
            timer.start()
    app.exec()
    if mode != "bare" and window.companion is not None:
        window.companion.close()
        window.companion.chat.close()


if __name__ == "__main__":
    main(sys.argv[1])
