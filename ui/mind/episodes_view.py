"""Episodes: the experiences deep reflection cut from the conversations, newest first, with their time span,
emotional arc, significance and the companion's self-assessment. The person corrects any of these, or forgets
one."""

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
)

from anima.knowledge.episodes import ARC_CHARS, ASSESSMENT_CHARS, SUMMARY_CHARS, Episode

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion


# In place of its summary, which went with the forget (store/forget.py _blank).
FLAGGED = "(a message it was made of was forgotten, and what it said with it: made again at the next deep reflection)"


def span(e) -> str:
    """ "2026-05-11 09:00 – 09:14", or two dates when it crossed midnight."""
    start, end = e.started_at[:16].replace("T", " "), e.ended_at[:16].replace("T", " ")
    return start if start == end else f"{start} – {end[11:] if end[:10] == start[:10] else end}"


class EpisodeDialog(QDialog):
    def __init__(self, episode, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Correct an episode")
        form = QFormLayout(self)
        self.summary = QPlainTextEdit(episode.summary)
        self.summary.setPlaceholderText(f"at most {SUMMARY_CHARS} characters")
        self.arc = QLineEdit(episode.emotional_arc)
        self.arc.setPlaceholderText(f"how the mood moved, such as “worried -> relieved” (at most {ARC_CHARS})")
        self.significance = QDoubleSpinBox()
        self.significance.setRange(0, 1)
        self.significance.setSingleStep(0.1)
        self.significance.setDecimals(2)
        self.significance.setValue(episode.significance)
        self.assessment = QPlainTextEdit(episode.self_assessment)
        self.assessment.setPlaceholderText(f"how I think I handled it (at most {ASSESSMENT_CHARS} characters)")
        form.addRow("What happened", self.summary)
        form.addRow("Emotional arc", self.arc)
        form.addRow("How much it mattered (0 to 1)", self.significance)
        form.addRow("How I think I did", self.assessment)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> dict:
        return {
            "summary": self.summary.toPlainText(),
            "emotional_arc": self.arc.text(),
            "significance": round(self.significance.value(), 3),
            "self_assessment": self.assessment.toPlainText(),
        }


class EpisodesView(TableView[Episode]):
    title = "Episodes"
    kinds = ("episode",)
    headline = 1
    reflects = True
    about = "The moments of our conversations that mattered, each with its mood and how I think I did."
    appears = "Episodes come from deep reflection, which looks back over our conversations while you are away."
    columns = ("when", "what happened", "mood", "mattered", "how I think I did")
    dialog = EpisodeDialog  # a test may put a scripted one in its place

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.action("Correct…", self.correct)
        self.action("Forget", self.forget)

    def load(self):
        return self.companion.episodes.all()[::-1]  # newest first

    def show_data(self, rows):
        # Its number leads the time: the growth log and the memories drawn from it name it so ("episode #3").
        self.fill(
            rows,
            lambda e: (
                f"#{e.id}  {span(e)}",
                FLAGGED if e.flagged else e.summary,
                e.emotional_arc,
                f"{e.significance:.2f}",
                e.self_assessment,
            ),
        )

    def correct(self):
        e = self.selected()
        if e is None:
            return self.say("Select an episode first.")
        d = self.dialog(e, self)
        if d.exec():
            v = d.values()
            changed = {k: x for k, x in v.items() if x != getattr(e, k)}
            if changed:
                self.change(lambda: self.companion.episodes.correct(e.id, **changed))

    def forget(self):
        e = self.selected()
        if e is None:
            return self.say("Select an episode first.")
        if (
            QMessageBox.question(self, "Forget", f"Forget the episode “{e.summary}” completely? This cannot be undone.")
            == QMessageBox.StandardButton.Yes
        ):
            self.forgetting(lambda: self.companion.forget("episode", e.id))
