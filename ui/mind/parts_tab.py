"""Parts, their predictions and the affect they grow from, in one Open Mind tab, behind a selector (group.py)."""

from .affect_view import AffectView
from .group import ViewGroup
from .parts_view import PartsView
from .predictions_view import PredictionsView


class PartsTab(ViewGroup):
    title = "Parts"
    kinds = (PartsView, PredictionsView, AffectView)
    name = "parts"
