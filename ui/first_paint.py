"""The moment a main window is first painted: how `anima --first-paint` and bench/ui_child.py time a start."""

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class FirstPaint(QObject):
    """An application event filter: at the first paint of anything inside a main window (the same test for a
    bare window and Anima's), print "painted" and quit."""

    seen = False

    def eventFilter(self, obj, event):
        if self.seen:
            # Its one job done: out of every event's way. Left in, the window's thread took the GIL for each event
            # of the app (bench scale's opening_stall_ms timed that, while the indexer's thread ran Python).
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            return False
        if event.type() == QEvent.Type.Paint and hasattr(obj, "window") and isinstance(obj.window(), QMainWindow):
            self.seen = True
            print("painted", flush=True)
            QTimer.singleShot(0, QApplication.quit)  # static: the instance's
        return False
