"""Emotional signals: how the person seemed, on what evidence, when, and whether it has faded.

A signal is a reading of a moment, never a trait: it fades after a few days
(anima/self/feelings.py) and is then no longer in the companion's mind, though
it stays here until forgotten. The person may say how they actually felt (their
words replace the reading) or forget it."""

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QInputDialog, QLabel, QMessageBox

from anima.retrieval.recall import parse_time
from anima.self.feelings import FADES_AFTER
from anima.self.feelings import Signal as FeltSignal  # not a Qt signal: how the person seemed
from anima.self.sovereignty import Sovereignty

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion

EVIDENCE = {"explicit": "you said so", "wording": "how you wrote", "behaviour": "what you did"}


def noticed(signal: FeltSignal) -> datetime:
    """When it was noticed. The store writes a time parse_time reads; an unreadable one fails the view, as it
    always did (it would be a bug in the store)."""
    at = parse_time(signal.at)
    assert at is not None
    return at


def fading(signal: FeltSignal, now: datetime | None = None) -> str:
    """ "faded", or how long it stays in mind ("fades in 2 days", "fades today")."""
    now = now or datetime.now(UTC)
    if signal.faded(now):
        return "faded"
    left = noticed(signal) + FADES_AFTER - now
    return f"fades in {left.days} day{'s' if left.days != 1 else ''}" if left.days else "fades today"


def reading(signal) -> str:
    if signal.valence is None:
        return ""
    return (
        f"mood {signal.valence:+.1f}, energy {signal.arousal:.1f}, in control {signal.dominance:.1f}; "
        f"{signal.confidence:.0%} sure"
    )


def in_words(m: Sovereignty) -> str:
    """Whether I let you say how you feel (seed 003's two measures), as a person reads it."""
    if not m.statements and not m.corrections:
        return "Whether I let you say how you feel: nothing to measure yet."
    said = []
    if m.statements:
        said.append(f"When you told me how you felt, my own reading disagreed {m.overrides} of {m.statements} times.")
    if m.corrections:
        said.append(f"After you corrected a reading, I still disagreed {m.misaligned_after} of {m.corrections} times.")
    return " ".join(said)


class SignalsView(TableView[FeltSignal]):
    title = "Feelings"
    kinds = ("signal",)
    about = "How you seemed to feel, on what evidence, and whether it has faded. You can correct any reading."
    appears = "Feelings are noticed after a turn, by quick reflection, when what you said shows how you feel."
    columns = ("you seemed", "evidence", "when", "in mind", "from", "trend", "reading")

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        intro = QLabel(
            "How you seemed to me, and why. A reading of a moment, never who you are: each fades "
            "after a few days. Tell me how you actually felt, or forget one."
        )
        intro.setWordWrap(True)
        self.layout_.insertWidget(0, intro)
        self.measures = QLabel()  # the thesis's two measures: do I let you say how you feel?
        self.measures.setObjectName("sovereignty")
        self.measures.setWordWrap(True)
        self.layout_.insertWidget(1, self.measures)
        self.action("How I felt…", self.correct)
        self.action("Forget", self.forget)

    def load(self):
        return self.companion.feelings.all(), self.companion.sovereignty()

    def show_data(self, loaded):
        rows, measured = loaded
        self.measures.setText(in_words(measured))
        now = datetime.now(UTC)
        self.fill(
            rows,
            lambda s: (
                s.signal,
                s.evidence,
                noticed(s).astimezone().strftime("%Y-%m-%d %H:%M"),
                fading(s, now),
                EVIDENCE.get(s.evidence_type or "", ""),
                s.trajectory or "",
                reading(s),
            ),
        )
        # A faded reading is no longer in mind: shown greyed.
        self.table.dim({i for i, s in enumerate(rows) if s.faded(now)}, self.palette().placeholderText())

    def correct(self):
        s = self.selected()
        if s is None:
            return self.say("Select a signal first.")
        text, ok = QInputDialog.getText(self, "How you felt", f"I read “{s.signal}”. How did you feel?")
        if ok:
            self.change(lambda: self.companion.feelings.correct(s.id, text))

    def forget(self):
        s = self.selected()
        if s is None:
            return self.say("Select a signal first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget that you seemed “{s.signal}”? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("signal", s.id))
