"""Parts and their predictions in one Open Mind tab, behind a selector (group.py)."""

from .group import ViewGroup
from .parts_view import PartsView
from .predictions_view import PredictionsView


class PartsTab(ViewGroup):
    title = "Parts"
    kinds = (PartsView, PredictionsView)
    name = "parts"
