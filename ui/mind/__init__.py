"""The Open Mind: one view per kind of belief, each its own module, listed in the panel in this order.

To add a view, write a module with a `View(MindView)` class (its title is its name in the list) and add it to
VIEWS; no other view changes.
"""

from .affect_view import AffectView
from .conversation_view import ConversationView
from .episodes_view import EpisodesView
from .growth_view import GrowthView
from .history_view import HistoryView
from .memories_view import MemoriesView
from .parts_view import PartsView
from .predictions_view import PredictionsView
from .proposals_view import ProposalsView
from .rules_view import RulesView
from .self_view import AboutYouView, SelfView
from .signals_view import SignalsView
from .working_memory_view import WorkingMemoryView
from .world_view import WorldView

VIEWS = (
    SelfView,
    AboutYouView,
    MemoriesView,
    WorldView,
    PartsView,
    PredictionsView,
    EpisodesView,
    RulesView,
    SignalsView,
    WorkingMemoryView,
    GrowthView,
    ProposalsView,
    HistoryView,
    ConversationView,
    AffectView,
)
