"""Predictions (seed 000): what a followed suggestion predicted, and when it falls due. Pending until then, due
once the time has come (the next turn or reflection puts it before the model), evaluated once the model wrote what
came of it."""

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel

from anima.parts.open_parts import DUE, EVALUATED, PENDING, PredictionShown

from .table_view import TableView

if TYPE_CHECKING:
    from anima.companion import Companion

SHOWN = ("all", PENDING, DUE, EVALUATED)


def utc_now() -> datetime:
    return datetime.now(UTC)


class PredictionsView(TableView[tuple[str, PredictionShown]]):
    title = "Predictions"
    kinds = ("prediction",)
    headline = 3
    about = "What my parts predicted would happen if I followed them, when each falls due, and what came of it."
    appears = "Predictions appear when a part bids during a reply; each is judged when it falls due."
    columns = ("state", "part", "I suggested", "I predicted", "confidence", "due", "what came of it")
    clock = staticmethod(utc_now)  # a test may move time

    def __init__(self, companion: "Companion", parent=None):
        super().__init__(companion, parent)
        self.table.setObjectName("predictions")
        self.state = QComboBox()
        self.state.setObjectName("prediction-state")
        self.state.addItems(SHOWN)
        self.state.currentIndexChanged.connect(lambda _: self.show_data(self.every))
        row = QHBoxLayout()
        row.addWidget(QLabel("Which:"))
        row.addWidget(self.state, 1)
        self.counts = QLabel()
        row.addWidget(self.counts)
        self.layout_.insertLayout(0, row)
        self.every: list = []

    def load(self):
        return self.companion.shown_predictions()

    def show_data(self, rows) -> None:
        self.every = rows
        at = self.clock()
        states = [(r.state(at), r) for r in rows]
        counts = {s: sum(1 for t, _ in states if t == s) for s in SHOWN[1:]}
        self.counts.setText(", ".join(f"{n} {s}" for s, n in counts.items()))
        wanted = self.state.currentText()
        chosen = [(s, r) for s, r in states if wanted == "all" or s == wanted]
        self.fill(
            chosen,
            lambda sr: (
                sr[0],
                f"#{sr[1].part_id} {sr[1].part_name}",
                sr[1].suggestion,
                sr[1].predicted_result,
                sr[1].confidence,
                sr[1].due_at[:16].replace("T", " "),
                sr[1].result or "",
            ),
        )
