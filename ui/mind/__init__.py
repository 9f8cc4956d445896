"""The Open Mind: one view per kind of belief, each its own module.

To add a view (parts, behavioral rules, emotional signals, episodes, predictions
as the core gains them), write a module with a `View(MindView)` class and add
it to VIEWS; no other view changes.
"""

from .conversation_view import ConversationView
from .history_view import HistoryView
from .memories_view import MemoriesView
from .proposals_view import ProposalsView
from .self_view import SelfView
from .world_view import WorldView

VIEWS = (SelfView, ProposalsView, MemoriesView, WorldView, ConversationView, HistoryView)
