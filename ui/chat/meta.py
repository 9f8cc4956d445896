"""What is shown around a message: who said it and when, and the companion's avatar (its initial in a circle)."""

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def when(created_at: str | None, today: datetime | None = None) -> str:
    """A message's time as a person reads it in a chat: "09:12" today, "Mon 09:12" this week, "3 Dec 09:12" this
    year, "3 Dec 2025" before; in local time. `created_at`: the soul's ISO time (UTC); None: now."""
    local_now = (today or datetime.now(UTC)).astimezone()
    try:
        at = datetime.fromisoformat(created_at).astimezone() if created_at else local_now
    except ValueError:
        return ""
    clock = f"{at.hour:02d}:{at.minute:02d}"
    days = (local_now.date() - at.date()).days
    if days <= 0:
        return clock
    if days < 7:
        return f"{at:%a} {clock}"
    if at.year == local_now.year:
        return f"{at.day} {at:%b} {clock}"
    return f"{at.day} {at:%b} {at.year}"


def initial(name: str) -> str:
    return next((c.upper() for c in name if c.isalnum()), "?")


class Avatar(QLabel):
    """The companion's initial in a small circle (the theme's accent)."""

    SIZE = 26

    def __init__(self, name: str, parent=None):
        super().__init__(initial(name), parent)
        self.setObjectName("avatar")
        self.setFixedSize(self.SIZE, self.SIZE)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def set_name(self, name: str) -> None:
        self.setText(initial(name))
