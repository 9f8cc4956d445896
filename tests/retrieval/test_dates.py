"""A question about a time favours what was said then."""

from datetime import UTC, datetime

from anima.retrieval.dates import span

NOW = datetime(2023, 12, 10, 15, 0, tzinfo=UTC)


def day(y, m, d):
    return datetime(y, m, d, tzinfo=UTC)


def test_the_times_people_ask_about_are_read_as_spans():
    assert span("What did Gina find for her store on 1 February, 2023?", NOW) == (day(2023, 1, 31), day(2023, 2, 3))
    assert span("Which book did Tim recommend on 8th December, 2023?", NOW) == (day(2023, 12, 7), day(2023, 12, 10))
    assert span("What did he say on December 1,2023", NOW) == (day(2023, 11, 30), day(2023, 12, 3))
    assert span("What did Maria do in July 2023?", NOW) == (day(2023, 7, 1), day(2023, 8, 1))
    assert span("What did I do in May?", NOW) == (day(2023, 5, 1), day(2023, 6, 1))
    assert span("What did I plan for March 3?", NOW) == (day(2023, 3, 2), day(2023, 3, 5))
    assert span("What did I plan for December 24?", NOW)[0] == day(2022, 12, 23)  # the last one, not ahead
    assert span("What happened in 2022?", NOW) == (day(2022, 1, 1), day(2023, 1, 1))
    assert span("What did I tell you yesterday?", NOW) == (day(2023, 12, 9), day(2023, 12, 10))
    assert span("Anything I said last week?", NOW) == (day(2023, 11, 26), day(2023, 12, 10))


def test_no_time_is_no_span_and_an_impossible_day_is_its_month():
    assert span("How are you?", NOW) is None
    assert span("I may go swimming", NOW) is None  # the verb, not the month
    assert span("What happened on 31 February 2023?", NOW) == (day(2023, 2, 1), day(2023, 3, 1))  # its month
    assert span("", NOW) is None


def test_recall_favours_what_was_said_in_the_asked_span(companion):
    said = {}
    for when, text in [
        ("2023-05-08T10:00:00+00:00", "I baked bread with my sister"),
        ("2023-06-16T10:00:00+00:00", "I baked a cake for my sister"),
        ("2023-07-02T10:00:00+00:00", "I baked cookies with my sister"),
    ]:
        said[when[:7]] = companion.messages.record("user", text, speaker="Ada", at=when, session=when[:10])
    asked = companion.recaller.search("What did I bake on 16 June, 2023?", 3, now=NOW)
    assert asked[0].id == said["2023-06"] and asked[0].components["in_asked_span"]
    assert all("in_asked_span" not in r.components for r in asked[1:])
    plain = companion.recaller.search("What did I bake?", 3, now=NOW)
    assert all("in_asked_span" not in r.components for r in plain)


def test_the_day_asked_about_outweighs_another_day_that_shares_more_of_the_words(companion):
    """LoCoMo's "What dish did Nate make on 9 November, 2022?": the answer is in that day's conversation, in
    other words than the question's, while other days said "make" and "dish" too."""
    other = companion.messages.record(
        "user", "I love to make a dish of pasta", speaker="Ada", at="2023-05-08T10:00:00+00:00", session="a"
    )
    that_day = companion.messages.record(
        "user", "Look at this homemade coconut ice cream!", speaker="Ada", at="2023-06-16T10:00:00+00:00", session="b"
    )
    asked = companion.recaller.search("What dish did I make on 16 June, 2023?", 2, now=NOW)
    assert [r.id for r in asked] == [that_day, other]
