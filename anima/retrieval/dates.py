"""Reading when a question is about: "on 9 November, 2022", "in May 2023", "last week", "yesterday".

Recall favours what was said or known in that span (recall.py). A question
with no time in it, or one this cannot read, gets no span: nothing changes.
"""

import re
from datetime import datetime, timedelta

# English names, whatever the machine's locale (calendar.month_name follows it).
_NAMES = "january february march april may june july august september october november december".split()
MONTHS = {
    **{name: i for i, name in enumerate(_NAMES, 1)},
    **{name[:3]: i for i, name in enumerate(_NAMES, 1)},
    "sept": 9,
}
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
# Most specific first: a day with its month (and year), then a month (and year), then a year alone.
_PATTERNS = [
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s*{_YEAR})?\b", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY}(?:,?\s*{_YEAR})?\b", re.I),
    re.compile(rf"\b{_MONTH}(?:,?\s*(?:of\s+)?{_YEAR})?\b", re.I),
    re.compile(rf"\b{_YEAR}\b"),
]
# Said relative to now: (days back to the span's start, days it lasts).
_RELATIVE = [
    (re.compile(rf"\b{phrase}\b"), back, length)
    for phrase, back, length in (
        ("today", 0, 1),
        ("yesterday", 1, 1),
        ("last week", 14, 14),
        ("this week", 7, 8),
        ("last month", 62, 62),
        ("this month", 31, 32),
        ("last year", 730, 730),
    )
]
# A day someone names is where they remember it; the days around it are where it was likely said.
DAY_SLACK = timedelta(days=1)
READ_CHARS = 1000  # a question says when near its start; an enormous message is not read to its end


def span(query: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The time span a query asks about (start inclusive, end exclusive), in now's time zone; None if none."""
    query = query[:READ_CHARS]
    text = query.lower()
    for phrase, back, length in _RELATIVE:
        if phrase.search(text):
            start = (now - timedelta(days=back)).replace(hour=0, minute=0, second=0, microsecond=0)
            return start, start + timedelta(days=length)
    for pattern in _PATTERNS:
        for m in pattern.finditer(query):
            found = m.groupdict()
            before = text[max(0, m.start() - 12) : m.start()]
            if (
                (found.get("month") or "").lower() == "may"
                and not (found.get("day") or found.get("year"))
                and not re.search(r"\b(in|of|during|since|early|late|mid)\s+$", before)
            ):
                continue  # "may" alone is most often the verb
            got = _window(found, now)
            if got:
                return got
    return None


def _window(found: dict[str, str | None], now: datetime) -> tuple[datetime, datetime] | None:
    year = int(y) if (y := found.get("year")) else None
    month = MONTHS.get((found.get("month") or "").lower())
    day = int(d) if (d := found.get("day")) else None
    if month is None:
        assert year is not None  # every pattern without a month is a year's
        start = now.replace(year=year, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        return start, start.replace(year=year + 1)
    if year is None:  # the latest such month or day that is not in the future
        year = now.year if (month, day or 1) <= (now.month, now.day) else now.year - 1
    try:
        start = now.replace(year=year, month=month, day=day or 1, hour=0, minute=0, second=0, microsecond=0)
    except ValueError:  # 31 February
        return None
    if day is not None:
        return start - DAY_SLACK, start + timedelta(days=1) + DAY_SLACK
    end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
    return start, end
