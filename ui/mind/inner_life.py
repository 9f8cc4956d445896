"""The companion's inner life in one Open Mind tab: what reflection made of your time together (growth, episodes,
how to help, feelings, working memory), behind a selector (group.py). To add a view, add it to INNER_VIEWS."""

from .episodes_view import EpisodesView
from .group import ViewGroup
from .growth_view import GrowthView
from .rules_view import RulesView
from .signals_view import SignalsView
from .working_memory_view import WorkingMemoryView

INNER_VIEWS = (GrowthView, EpisodesView, RulesView, SignalsView, WorkingMemoryView)


class InnerLife(ViewGroup):
    title = "Inner life"
    kinds = INNER_VIEWS
    name = "inner-life"
