"""The thesis's two measures, computed from a real encrypted soul: how often the companion's reading overrode
what the person said they feel (IOS), and whether its next reading agreed after they corrected it (AMR)."""

from datetime import UTC, datetime, timedelta

from anima import cli
from anima.self.feelings import Reading
from anima.self.sovereignty import measure

T0 = datetime(2026, 5, 11, 9, 0, tzinfo=UTC)


def at(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="microseconds")


def read(c, label: str, valence: float, minute: int, message_id=None) -> int:
    return c.feelings.notice(
        label,
        "how they wrote",
        message_id=message_id,
        at=at(minute),
        reading=Reading(valence, 0.5, 0.5, 0.6, "wording"),
    )


def test_nothing_to_measure_is_none_not_zero(companion):
    s = measure(companion.soul)
    assert (s.ios, s.amr, s.reads_to_align) == (None, None, None)


def test_a_reading_against_their_own_words_is_an_override_and_a_correction_is_followed(companion):
    c = companion
    read(c, "stressed", -0.6, 0)  # the companion's reading stands
    fine = c.messages.record("user", "I'm fine, really.", at=at(1))  # they correct it
    read(c, "tense", -0.5, 2, message_id=fine)  # overrides them, and is still misaligned
    read(c, "calm", 0.3, 5)  # agrees at the second reading
    c.messages.record("user", "I'm tired.", at=at(10))  # a statement it does not contradict
    c.messages.record("user", "The tomatoes went red.", at=at(11))  # no statement at all
    s = measure(c.soul)
    assert (s.statements, s.overrides, s.ios) == (2, 1, 0.5)
    assert (s.corrections, s.misaligned_after, s.amr, s.reads_to_align) == (1, 1, 1.0, 2.0)


def test_a_companion_that_listens_scores_zero(companion):
    c = companion
    read(c, "worried", -0.5, 0)
    c.messages.record("user", "I'm not worried, just busy.", at=at(1))
    read(c, "busy but steady", 0.2, 2)
    s = measure(c.soul)
    assert (s.ios, s.amr, s.reads_to_align) == (0.0, 0.0, 1.0)


def test_a_correction_in_the_open_mind_counts_and_the_reading_after_it_is_judged(companion):
    c = companion
    sid = read(c, "angry", -0.7, 0)
    c.feelings.correct(sid, "tired")  # now, in the edit history
    s = measure(c.soul)
    assert s.corrections == 0  # nothing read since: nothing to judge yet
    c.feelings.notice(
        "fed up", "how they wrote", at=datetime.now(UTC).isoformat(), reading=Reading(0.5, 0.5, 0.5, 0.6, "wording")
    )
    s = measure(c.soul)
    assert (s.corrections, s.misaligned_after, s.amr) == (1, 1, 1.0)  # "tired" is not pleasant: still wrong


def test_the_command_line_shows_both(companion, monkeypatch, capsys):
    import json

    from tests.conftest import PASSPHRASE

    read(companion, "stressed", -0.6, 0)
    companion.messages.record("user", "I'm fine, really.", at=at(1))
    read(companion, "calm", 0.3, 2)
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    assert cli.main(["sovereignty"]) == 0
    assert "Interpretive override: 0% (0 of 1 times" in capsys.readouterr().out
    assert cli.main(["sovereignty", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["interpretive_override"], shown["after_correction_misalignment"], shown["corrections"]) == (
        0.0,
        0.0,
        1,
    )
