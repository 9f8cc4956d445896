"""The one clock what the soul stamps reads: a benchmark that plays a life over days sets it; recall reads it too."""

from datetime import UTC, datetime, timedelta

from anima.store import clock

MAY = datetime(2026, 5, 9, 19, 0, tzinfo=UTC)


def test_what_is_stored_carries_the_time_of_the_clock_in_use_and_the_wall_clock_comes_back(companion):
    was = clock.set_clock(lambda: MAY)
    try:
        said = companion.messages.record("user", "I planted tomatoes today.")
        fact = companion.memories.remember("Planted tomatoes", kind="fact", source="user_stated", message_id=said)
    finally:
        assert clock.set_clock(was)() == MAY
    assert companion.soul.get("message", said)["created_at"] == MAY.isoformat(timespec="microseconds")
    assert companion.soul.get("memory", fact)["valid_from"].startswith("2026-05-09T19:00")
    later = companion.messages.record("user", "And some basil.")
    stamped = datetime.fromisoformat(companion.soul.get("message", later)["created_at"])
    assert abs(stamped - datetime.now(UTC)) < timedelta(minutes=5)  # the wall clock again


def test_recall_weighs_recency_from_the_clock_in_use(companion):
    companion.memories.remember("Has a cello recital", kind="fact", source="user_stated", importance=0.1)
    companion.wait_until_indexed()
    was = clock.set_clock(lambda: datetime(2099, 1, 1, tzinfo=UTC))
    try:
        far = companion.recall("cello recital", k=1)[0].components["recency"]
    finally:
        clock.set_clock(was)
    near = companion.recall("cello recital", k=1)[0].components["recency"]
    assert near > 0.99 and far < 0.01  # a minor memory, seventy years older by the clock, has all but faded
