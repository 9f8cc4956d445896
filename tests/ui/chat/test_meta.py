"""Who said a message and when, as a chat shows it."""

from datetime import UTC, datetime, timedelta

from ui.chat.meta import Avatar, initial, when

NOW = datetime(2026, 12, 6, 15, 30, tzinfo=UTC)


def local(at: datetime) -> datetime:
    return at.astimezone()


def test_today_is_a_clock_and_older_says_the_day():
    today = NOW - timedelta(hours=1)
    assert when(today.isoformat(), NOW) == f"{local(today):%H:%M}"
    three_days = NOW - timedelta(days=3)
    assert when(three_days.isoformat(), NOW) == f"{local(three_days):%a %H:%M}"
    month = NOW - timedelta(days=40)
    assert when(month.isoformat(), NOW) == f"{local(month).day} {local(month):%b %H:%M}"
    years = NOW - timedelta(days=800)
    assert when(years.isoformat(), NOW) == f"{local(years).day} {local(years):%b %Y}"


def test_no_time_is_now_and_a_damaged_one_is_nothing():
    assert when(None, NOW) == f"{local(NOW):%H:%M}"
    assert when("not a time", NOW) == ""


def test_the_avatar_shows_the_initial(qtbot):
    avatar = Avatar("mira")
    qtbot.addWidget(avatar)
    assert avatar.text() == "M"
    avatar.set_name("  ébène")
    assert avatar.text() == "É"
    assert initial("") == "?"
