"""The moment a main window is first painted: how `anima --first-paint` and bench/ui_child.py time a start."""

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class FirstPaint(QObject):
    """An event filter on one main window: at its first paint (a window's own paint comes first in a frame, before
    its children's, for a bare window and Anima's alike), print "painted" and quit.

    On the window, not the application: an application-wide Python filter took every event of Anima's start
    through Python, each event's and object's type looked up and its enums made (97 Qt enum types, ~7 ms of a
    ~190 ms start, measured), where a bare window has a few events; a person's start has no such filter. Out of
    the way once it has seen the paint (bench scale's opening_stall_ms timed it taking the GIL for every event)."""

    seen = False

    def watch(self, window: QMainWindow) -> None:
        window.installEventFilter(self)

    def eventFilter(self, obj, event):
        if not self.seen and event.type() == QEvent.Type.Paint:
            self.seen = True
            obj.removeEventFilter(self)
            print("painted", flush=True)
            QTimer.singleShot(0, QApplication.quit)  # static: the instance's
        return False
