"""The conversation room: the one owner of the live session's state (live.py), and one turn (turn.py)."""

from .live import Conversation, Prepared
from .turn import TurnStream

__all__ = ["Conversation", "Prepared", "TurnStream"]
