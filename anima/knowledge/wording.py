"""How the companion words what it holds for the model: when, in words a person uses; a text cut at a word.

Every token the model reads before a reply costs time, so a date is "yesterday" or "3 weeks ago", never ten
digit tokens (the workspace's notes and the emotional tier both say times this way).
"""

from datetime import date, datetime

from ..retrieval.recall import parse_time


def today() -> date:
    """The person's today: their clock's, not UTC's."""
    return datetime.now().astimezone().date()


def when(at: str | None, on: date) -> str:
    """How long ago, as a person says it; a date beyond two months (and for anything in the future)."""
    t = parse_time(at)
    if t is None:
        return ""
    days = (on - t.astimezone().date()).days
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"
    if 1 < days < 14:
        return f"{days} days ago"
    if 14 <= days < 60:
        return f"{days // 7} weeks ago"
    return f"{t.day} {t:%B %Y}"


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
