"""What time it is for what the soul stamps (messages, memories and their validity, rules, edits) and for recall.

The wall clock, unless something that plays a life over days sets another: `bench learning` moves it to each
scripted session's time, so that days pass between sessions as they would for a person. One clock for the whole
process, set and put back through `set_clock`; nothing else changes it.
"""

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def wall() -> datetime:
    return datetime.now(UTC)


_clock: Clock = wall


def now() -> datetime:
    """The time now by the clock in use (zoned)."""
    return _clock()


def set_clock(clock: Clock) -> Clock:
    """Read the time from `clock` from now on (`wall` puts the wall clock back); returns the clock it replaces."""
    global _clock
    was, _clock = _clock, clock
    return was
