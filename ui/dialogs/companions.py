"""The Companion menu: the companions of the data folder (anima/store/companions.py), to switch to, to make, or to
open by default; and the switch itself.

The other companion is unlocked first (from the keychain, else its passphrase is asked), and only then is the
one shown closed: a cancelled unlock leaves it as it was. Closing it and opening the other run off the UI thread
(tasks.run), the models staying loaded for the next one (Companion.on_soul), as the import of a soul does."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout

from anima.settings import Settings, choose_companion
from anima.store import Home, PassphraseNeeded, Soul
from anima.store.companions import MAIN, Companions, Listed

from .. import crash, errors, tasks
from .unlock import FirstRunDialog, UnlockDialog

if TYPE_CHECKING:
    from anima.companion import Companion

Then = Callable[["Companion"], object]


def companions_of(window) -> Companions:
    """The companions of the data folder the window's settings name."""
    return Companions((window.settings.data_folder if window.settings is not None else "") or None)


def _default_name(window) -> str:
    return ((window.settings.companion if window.settings is not None else "") or MAIN).casefold()


class CompanionsDialog(QDialog):
    """Each companion, by its folder's name (its own name is inside its encrypted soul, read once unlocked)."""

    def __init__(self, window):
        super().__init__(window)
        self.main_window = window
        self.companions = companions_of(window)
        self.setWindowTitle("Companions")
        self.resize(460, 340)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Each companion is its own encrypted soul, with its own passphrase. Each is listed by the name it "
            "was given when it was made; what it calls itself shows once it is open."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.list = QListWidget()
        self.list.setObjectName("companions")
        self.list.itemDoubleClicked.connect(lambda _: self.open_chosen())
        layout.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        role = QDialogButtonBox.ButtonRole.ActionRole
        self.open_button = buttons.addButton("Open", role)
        self.open_button.clicked.connect(self.open_chosen)
        self.new_button = buttons.addButton("New companion…", role)
        self.new_button.clicked.connect(self.new)
        self.default_button = buttons.addButton("Open by default", role)
        self.default_button.clicked.connect(self.make_default)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.listed: list[Listed] = []
        self.refresh()

    def refresh(self) -> None:
        tasks.run(self.companions.list, self.show_list, lambda e: errors.show(self, e), self)

    def show_list(self, listed: list[Listed]) -> None:
        self.listed = listed
        self.list.clear()
        shown = self.main_window.companion
        for c in listed:
            notes = ["open now"] if shown is not None and c.home.dir == shown.home.dir else []
            if c.name.casefold() == _default_name(self.main_window):
                notes.append("opens by default")
            item = QListWidgetItem(c.name + (f"  ({', '.join(notes)})" if notes else ""))
            item.setData(Qt.ItemDataRole.UserRole, c.name)
            self.list.addItem(item)
            if notes and notes[0] == "open now":
                self.list.setCurrentItem(item)

    def chosen(self) -> Listed | None:
        item = self.list.currentItem()
        name = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return next((c for c in self.listed if c.name == name), None)

    def open_chosen(self) -> None:
        chosen = self.chosen()
        if chosen is None:
            return
        self.accept()
        switch_to(self.main_window, chosen.home)

    def new(self) -> None:
        self.accept()
        new_companion(self.main_window)

    def make_default(self) -> None:
        chosen = self.chosen()
        if chosen is None:
            return

        def saved(settings: Settings) -> None:
            if self.main_window.settings is not None:
                self.main_window.settings.companion = settings.companion
            self.show_list(self.listed)

        def save() -> Settings:
            choose_companion(chosen.name)
            return Settings.load()

        tasks.run(save, saved, lambda e: errors.show(self, e), self)


def choose(window) -> CompanionsDialog:
    """The menu's Companion ▸ Companions…: the list, shown without waiting for it."""
    dialog = CompanionsDialog(window)
    dialog.open()
    return dialog


class NewCompanionDialog(FirstRunDialog):
    """A new companion beside the others: its name (its folder's too: what is typed, made fit for a folder and
    never one that is taken), its own passphrase, and whether this computer may remember it."""

    def __init__(self, companions: Companions, parent=None, name: str = ""):
        super().__init__(Home(companions.data), parent)  # its own home is found as it is made (work)
        self.companions = companions
        self.setWindowTitle("A new companion")
        if name:
            self.name.setText(name)

    def work(self, fn, then=None) -> None:
        name = self.name.text().strip()

        def made():
            # Off the UI thread: the folder's name is chosen from what is on the disk.
            self.home = self.companions.new_home(self.companions.free_name(name))
            return fn()  # FirstRunDialog's create, into self.home

        super().work(made, then)


def _free(window) -> bool:
    if window.companion is None:
        return False
    if window.worker is not None:
        window.statusBar().showMessage("Busy with a reply: try again when it has ended.", 4000)
        return False
    return True


def new_companion(window, name: str = "", then: Then = lambda c: None) -> NewCompanionDialog | None:
    """Make a new companion, then show it in the window in place of the one shown (closed, not changed)."""
    if not _free(window):
        return None
    old = window.companion
    dialog = NewCompanionDialog(companions_of(window), window, name)
    dialog.accepted.connect(lambda: _swap(window, old, dialog.home, dialog.result_value, then))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def switch_to(window, home: Home, then: Then = lambda c: None) -> None:
    """Show the companion of `home` in place of the one shown: unlocked from the keychain, else its passphrase is
    asked (UnlockDialog); the one shown is closed only once the other is open."""
    if not _free(window):
        return
    old = window.companion
    assert old is not None
    if home.dir == old.home.dir:
        return

    def remembered() -> Soul | None:
        try:
            return home.unlock()  # the keychain's entry for this companion, if it keeps one
        except PassphraseNeeded:
            return None

    def tried(soul: Soul | None) -> None:
        if soul is not None:
            _swap(window, old, home, soul, then)
            return
        dialog = UnlockDialog(home, window)
        dialog.accepted.connect(lambda: _swap(window, old, home, dialog.result_value, then))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    tasks.run(remembered, tried, lambda e: errors.show(window, e), window)


def _swap(window, old: "Companion | None", home: Home, soul: Soul | None, then: Then) -> None:
    """Close `old` and show a companion on `soul` (a dialog's result: open) in its place, with its models."""
    if soul is None:
        return
    if old is None or window.companion is not old or window.worker is not None:
        soul.close()  # the window changed meanwhile (another switch, a reply begun): nothing is switched
        window.statusBar().showMessage("Busy: try again when the reply has ended.", 4000)
        return
    window.companion = None  # what is typed meanwhile waits for the new one
    handler = crash.installed()
    if handler is not None:
        handler.use_home(home.dir)  # the log lives with the companion shown, as at the start (app.attach)
    if window.reflecting is not None:
        window.reflecting.companion.interrupt()  # closing the soul stops it too; sooner this way

    def build() -> "Companion":
        try:
            old.close(models=False)
        except BaseException:
            soul.close()
            raise
        return old.on_soul(soul, home)

    window.open_companion(build, lambda error: errors.show(window, error), then=then)
