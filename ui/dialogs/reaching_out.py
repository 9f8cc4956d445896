"""The settings' group for reaching out (anima/conversation/reaching_out.py): off or at most N a day, and the quiet
hours in which the companion never writes first."""

from PySide6.QtCore import QTime
from PySide6.QtWidgets import QFormLayout, QGroupBox, QSpinBox, QTimeEdit

from anima.conversation.reaching_out import MOST_PER_DAY, limits_of
from anima.settings import Settings

FORMAT = "HH:mm"


class ReachingOutGroup(QGroupBox):
    def __init__(self, settings: Settings, parent=None):
        super().__init__("Reaching out", parent)
        self.setToolTip(
            "When a note it holds or a prediction falls due and Anima is running (in the tray when the window is "
            "closed), your companion may write first: never twice about the same thing, never while you type."
        )
        limits = limits_of(settings)
        form = QFormLayout(self)
        self.per_day = QSpinBox()
        self.per_day.setRange(0, MOST_PER_DAY)
        self.per_day.setSpecialValueText("Off")  # 0
        self.per_day.setSuffix(" a day at most")
        self.per_day.setValue(limits.per_day)
        form.addRow("Your companion may write first", self.per_day)
        self.quiet_from = QTimeEdit(QTime(limits.quiet_from.hour, limits.quiet_from.minute))
        self.quiet_to = QTimeEdit(QTime(limits.quiet_to.hour, limits.quiet_to.minute))
        for edit in (self.quiet_from, self.quiet_to):
            edit.setDisplayFormat(FORMAT)
        form.addRow("Quiet hours from", self.quiet_from)
        form.addRow("to", self.quiet_to)
        self.per_day.valueChanged.connect(self._quiet_hours_matter)
        self._quiet_hours_matter(limits.per_day)

    def _quiet_hours_matter(self, per_day: int) -> None:
        for edit in (self.quiet_from, self.quiet_to):
            edit.setEnabled(per_day > 0)

    def chosen(self) -> dict:
        """The settings' fields this group sets."""
        return {
            "reach_out_per_day": self.per_day.value(),
            "quiet_from": self.quiet_from.time().toString(FORMAT),
            "quiet_to": self.quiet_to.time().toString(FORMAT),
        }
