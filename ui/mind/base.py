"""What every Open Mind view shares: loading off the UI thread, showing what an edit broke, and telling what a
forget took (the window takes the forgotten messages' bubbles off the transcript)."""

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from anima.errors import KnownError
from anima.store.forget import UNDER_WAY, UNDER_WAY_AFTER_S, Forgotten

from .. import errors, tasks, theme

if TYPE_CHECKING:
    from anima.companion import Companion

# A change still running after this says so, and the view waits for it (no second click meanwhile).
SLOW_MS = round(UNDER_WAY_AFTER_S * 1000)


class MindView(QWidget):
    title = "?"  # its name in the Open Mind's list
    # Said while it holds nothing (empty.py): what this kind is, and what makes one appear.
    about = ""
    appears = ""
    reflects = False  # deep reflection makes this kind: its empty state offers to run it now
    kinds: tuple[str, ...] = ()  # the kinds of record (store/kinds.py) it shows: a search result opens here
    places: tuple[str, ...] | None = None  # of a kind in several views (sections of the self), those it shows
    forgotten = Signal(object)  # a change forgot something: what went (anima's Forgotten)

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(parent)
        self.companion = companion
        self.layout_ = QVBoxLayout(self)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        theme.tone(self.error, "error")
        self.error.hide()
        self.loaded = False
        self._asked = 0  # refreshes asked for: the last one's data is shown

    def say(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def refresh(self) -> None:
        """Load the view's data off the UI thread, then show it. Loads run side by side in the pool and may end
        in any order: only the one asked for last is shown, or an older read (from before a forget) could land
        after a newer one and show what was forgotten (seen under load: a test's view kept a forgotten
        message's number)."""
        self._asked = asked = self._asked + 1
        tasks.run(self.load, lambda data: self._show(data, asked), lambda error: self._failed(error, asked), self)

    def _show(self, data, asked: int | None = None) -> None:
        if asked is not None and asked != self._asked:
            return  # a newer load is on its way
        self.show_data(data)
        self.loaded = True

    def change(self, fn, then=None, otherwise=None, doing: str = "Saving…") -> None:
        """Apply an edit off the UI thread; a broken rule is shown and the old value stays. An edit that forgets
        returns its Forgotten, told to whoever shows what went. `otherwise()` runs, on the UI thread, before a
        refused edit is shown. One that takes a while says `doing` until it ends."""
        self.say("")
        slow = QTimer(self, singleShot=True, interval=SLOW_MS)

        def still_saving() -> None:
            self.say(doing)
            self.setEnabled(False)

        slow.timeout.connect(still_saving)
        slow.start()

        def ended():
            slow.stop()
            slow.deleteLater()
            self.setEnabled(True)
            if self.error.text() == doing:
                self.say("")

        def failed(error):
            ended()
            if otherwise:
                otherwise()
            self._failed(error)

        def done(result):
            ended()
            if isinstance(result, Forgotten):
                self.forgotten.emit(result)
            if then:
                then()
            self.refresh()

        tasks.run(fn, done, failed, self)

    def forgetting(self, fn, then=None) -> None:
        """`change` for a forget: it says what takes the time."""
        self.change(fn, then, doing=UNDER_WAY)

    def _failed(self, error, asked: int | None = None) -> None:
        if errors.outlived(error):  # loading again would meet the closed soul again
            return
        if not isinstance(error, KnownError):
            raise error
        if asked is not None and asked != self._asked:
            return  # a stale load's mistake: the newer load says what holds now
        self.say(str(error))
        self.refresh()

    def reflect_deeply(self) -> None:
        """Deep reflection now, off the UI thread; the view loads again after it."""
        companion = self.companion
        self.change(companion.reflect_deeply, then=self.reflected, doing="Reflecting deeply… this can take a minute.")

    def reflected(self) -> None:  # overridden: says what deep reflection made
        pass

    def reveal(self, kind: str, item_id: int, place: str = "") -> None:  # overridden: select one item, loading
        self.refresh()

    def load(self):  # overridden: runs on a worker thread, returns the data
        return None

    def show_data(self, data) -> None:  # overridden: runs on the UI thread
        pass
