"""The self: origin and guardrails (read-only), persona, the human block and the self-model's sections.

An edit is saved with the text its editor was loaded from, and refused when the stored text changed meanwhile
(a forget, an accepted proposal, another program): the whole text written back would undo that change. What
the person typed is never replaced by a reload; what was stored meanwhile is shown under it instead. When
the soul reports a forget (by any program), the view loads again.
"""

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from anima.errors import KnownError
from anima.store.sections import WRITTEN, cap, section

from .. import tasks, theme
from . import section_history
from .base import MindView
from .section_history import SectionHistory

if TYPE_CHECKING:
    from anima.companion import Companion

# Each section the person may edit, and its heading here (store/sections.py).
EDITABLE = tuple((name, section(name).shown) for name in WRITTEN)


class SelfView(MindView):
    title = "Self"
    kinds = ("section",)
    about = "Who I am: my persona, who I am with you, what I am trying to do, and how I reflect."
    sections = tuple(name for name, _ in EDITABLE if name != "human")  # those it edits
    places = tuple(name for name in sections if name != "working_memory")  # a search opens those here
    floor_and_rhythm = True  # origin, guardrails and how often I reflect: in Self, not in About you
    WATCH_MS = 1000  # how often, while shown, it looks whether the soul reports a forget

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        inner = QWidget()
        col = QVBoxLayout(inner)
        intro = QLabel(self.about, wordWrap=True)
        intro.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        col.addWidget(intro)
        self.origin = QLabel()
        self.origin.setWordWrap(True)
        self.guardrails = QLabel()
        self.guardrails.setWordWrap(True)
        if self.floor_and_rhythm:
            col.addWidget(QLabel(f"<b>{section('origin').shown}</b> (ships with Anima; read-only)", wordWrap=True))
            col.addWidget(self.origin)
            col.addWidget(QLabel(f"<b>{section('guardrails').shown}</b> (read-only)", wordWrap=True))
            col.addWidget(self.guardrails)
        self.editors: dict[str, QPlainTextEdit] = {}
        self.elsewhere: dict[str, QLabel] = {}  # under an editor with the person's text: what is stored now
        self.histories: dict[str, SectionHistory] = {}  # under each editor: how it changed, from what
        self.counts: dict[str, QLabel] = {}  # under each editor: its length against its cap, and why over it
        self.saves: dict[str, QPushButton] = {}
        for name, title in EDITABLE:
            if name not in self.sections:
                continue
            col.addWidget(QLabel(f"<b>{title}</b> (at most {cap(name)} characters)", wordWrap=True))
            editor = QPlainTextEdit()
            editor.setObjectName(f"self-{name}")
            editor.setMaximumHeight(90)
            self.editors[name] = editor
            col.addWidget(editor)
            count = QLabel(textFormat=Qt.TextFormat.PlainText)
            count.setObjectName(f"count-{name}")
            self.counts[name] = count
            col.addWidget(count)
            editor.textChanged.connect(lambda n=name: self._count(n))
            note = QLabel(wordWrap=True, textFormat=Qt.TextFormat.PlainText)
            note.setObjectName(f"elsewhere-{name}")
            theme.tone(note, "error")
            note.hide()
            self.elsewhere[name] = note
            col.addWidget(note)
            save = QPushButton("Save")
            save.setObjectName(f"save-{name}")
            save.clicked.connect(lambda _=False, n=name: self.save(n))
            self.saves[name] = save
            self._count(name)
            self.histories[name] = SectionHistory(name, save)
            col.addWidget(self.histories[name])
        rhythm_widgets = QWidget()
        rhythm_col = QVBoxLayout(rhythm_widgets)
        rhythm_col.setContentsMargins(0, 0, 0, 0)
        # How I have changed is the Growth view's timeline; here, how often I reflect (anima/reflect/rhythm.py).
        rhythm_col.addWidget(QLabel("<b>How I reflect</b>"))
        rhythm = QFormLayout()
        rhythm.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.every = QSpinBox(minimum=0, maximum=1000)
        self.every.setObjectName("reflect-every")
        self.every.setSpecialValueText("never")
        rhythm.addRow(QLabel("Quick reflection after every … turns", wordWrap=True), self.every)
        self.earned_after = QSpinBox(minimum=0, maximum=1000)
        self.earned_after.setObjectName("earned-after")
        rhythm.addRow(
            QLabel("Who I am may change after … conversations that mattered", wordWrap=True), self.earned_after
        )
        rhythm_col.addLayout(rhythm)
        save = QPushButton("Save")
        save.setObjectName("save-rhythm")
        save.clicked.connect(self.save_rhythm)
        rhythm_col.addWidget(save, 0, Qt.AlignmentFlag.AlignRight)
        col.addWidget(rhythm_widgets)
        rhythm_widgets.setVisible(self.floor_and_rhythm)
        col.addStretch(1)
        self.scroller = scroll
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(scroll)
        self._drafts: dict[str, str] = {}  # a refused edit's text, by section, kept for the person to fix
        self._loaded: dict[str, str] = {}  # by section, the stored text the person's text was begun from
        self._shown: dict[str, str] = {}  # what the view last put in each editor (another text: the person's)
        self._saving: dict[str, str] = {}  # by section, the text of a save under way
        self._queued: dict[str, str] = {}  # by section, a text saved again while that save was under way
        self._rhythm_shown: tuple[int, int] | None = None  # what the spin boxes were last given by a load
        self._forgets: int | None = None  # the soul's count of forgets when the view last loaded
        self._watching = False  # a look at that count is under way
        self.watch = QTimer(self, interval=self.WATCH_MS)
        self.watch.timeout.connect(self.look_for_forgets)
        self.watch.start()

    def load(self):
        c = self.companion
        histories = {name: c.section_history(name) for name in self.sections}
        changes = (histories, c.proposals(pending_only=False), c.growth_log())
        return c.self_model.read(), c.rhythm.read(), c.forgets(), changes

    def show_data(self, data):
        floor, rhythm, self._forgets, (histories, proposals, growth) = data
        for name, history in histories.items():
            self.histories[name].set(section_history.lines(name, history, proposals, growth))
        self._show_rhythm(rhythm.every, rhythm.earned_after)
        self.origin.setText(floor.origin)
        self.guardrails.setText(floor.guardrails)
        for name in self.editors:
            self._show_text(name, getattr(floor, name))

    def _count(self, name: str) -> None:
        """The editor's length against the section's cap (store/sections.py, where it is declared); over it, why
        it cannot be saved, and Save waits: nothing is ever cut to fit."""
        most, label = cap(name), self.counts[name]
        length = self.editors[name].document().characterCount() - 1  # less the closing paragraph separator
        over = length > most
        why = (
            f"{length:,} characters: {section(name).shown} holds at most {most:,}. Shorten it to save; nothing is cut."
        )
        label.setText(why if over else f"{length:,} of {most:,} characters")
        if label.property("tone") != ("error" if over else "muted"):
            theme.tone(label, "error" if over else "muted")
        if name in self.saves:  # made after the editor
            self.saves[name].setEnabled(not over)
            self.saves[name].setToolTip(why if over else "")

    def _show_rhythm(self, every: int, earned_after: int) -> None:
        """As with the editors: a spin box the person has changed and not saved keeps their number through a
        reload (a forget elsewhere reloads the view)."""
        shown = self._rhythm_shown
        for box, was, stored in (
            (self.every, shown and shown[0], every),
            (self.earned_after, shown and shown[1], earned_after),
        ):
            if shown is None or box.value() == was:
                box.setValue(stored)
        self._rhythm_shown = (every, earned_after)

    def _show_text(self, name: str, stored: str) -> None:
        """An editor shows the stored text, unless it holds the person's: a draft kept, or what they typed and
        have not saved. Then it keeps theirs, and when what is stored changed since they began, the note under
        it says what is stored now (a forget meanwhile must not come back unseen); from then on, saving puts
        their text in its place, as they have seen what it replaces."""
        editor, note = self.editors[name], self.elsewhere[name]
        mine = self._drafts.get(name)
        if mine is None and name in self._shown and editor.toPlainText() != self._shown[name]:
            mine = editor.toPlainText()
        if mine is None:
            editor.setPlainText(stored)
            self._shown[name] = editor.toPlainText()
            self._loaded[name] = stored
            note.hide()
            return
        if editor.toPlainText() != mine:
            editor.setPlainText(mine)
        if stored != self._loaded.setdefault(name, stored):
            note.setText(
                f"Changed elsewhere since you began editing; it now holds: {stored or '(nothing)'}\n"
                "Save puts your text above in its place."
            )
            note.show()
            self._loaded[name] = stored

    def reveal(self, kind: str, item_id: int, place: str = "") -> None:
        """Bring a section's editor into sight (a search result opened)."""
        self.refresh()
        if place in self.editors:
            self.scroller.ensureWidgetVisible(self.editors[place])
            self.editors[place].setFocus()

    def look_for_forgets(self) -> None:
        """Load again when the soul reports a forget since the last load (by this program or another): what went
        leaves every editor that holds no text of the person's."""
        if self._watching or self._forgets is None or not self.isVisible():
            return
        self._watching = True

        def seen(count: int) -> None:
            self._watching = False
            if count != self._forgets:
                self._forgets = count
                self.refresh()

        def failed(error) -> None:
            self._watching = False
            if not isinstance(error, KnownError):  # the soul closed, or busy: nothing to reload
                self._failed(error)

        companion = self.companion
        tasks.run(lambda: companion.forgets(), seen, failed, self)

    def save_rhythm(self) -> None:
        every, earned_after = self.every.value(), self.earned_after.value()

        def saved():
            self._rhythm_shown = (every, earned_after)  # stored now: a reload may show what is stored again

        self.change(lambda: self.companion.rhythm.set(every=every, earned_after=earned_after), saved)

    def save(self, name: str, text: str | None = None) -> None:
        """Save a section's editor (or `text`: what it held when Save was pressed, for a save put off)."""
        text = self.editors[name].toPlainText() if text is None else text
        self._drafts[name] = text  # until it is saved: a refused edit reloads the view, and must not lose it
        if name in self._saving:
            # Saved again before the last save ended: begun from that text, which the pool might store after
            # this one. Run after it, or the two would race and the later be refused as changed elsewhere.
            self._queued[name] = text
            return
        was = self._loaded.get(name)  # what it was begun from: refused if the stored text is no longer that
        self._saving[name] = text

        def saved():
            del self._saving[name]
            self._loaded[name] = text.strip()  # what a newer text typed meanwhile is begun from
            self.elsewhere[name].hide()
            if self._drafts.get(name) == text:  # not a newer edit made while this one was saved
                del self._drafts[name]
                if self.editors[name].toPlainText() == text:
                    self._shown[name] = text  # it is no longer the person's own: the reload shows what is stored
            if (queued := self._queued.pop(name, None)) is not None:
                self.save(name, queued)

        def refused():
            del self._saving[name]
            self._queued.pop(name, None)  # the newest text stays in the editor, as the draft, to save again

        self.change(lambda: self.companion.edit_self(name, text, was), saved, refused)


class AboutYouView(SelfView):
    """What I know about you: the human block, always in my mind, with how it changed and from what."""

    title = "About you"
    about = "What I know about you, always in my mind when we talk. Correct anything; it changes what I assume."
    sections = ("human",)
    places = ("human",)
    floor_and_rhythm = False
