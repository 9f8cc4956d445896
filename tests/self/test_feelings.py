"""The emotional tier: recent signals with their evidence reach the workspace once, and fade."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from anima.errors import InvalidEdit


def test_a_signal_needs_its_evidence(companion):
    with pytest.raises(InvalidEdit, match="evidence"):
        companion.feelings.notice("tired", "   ")
    assert companion.soul.query("SELECT count(*) AS n FROM emotional_signals")[0]["n"] == 0


def test_a_recent_signal_reaches_the_next_note_once_and_an_old_one_has_faded(companion):
    c = companion
    week_ago = (datetime.now(UTC) - timedelta(days=7)).isoformat()
    c.feelings.notice("angry", "an old argument", at=week_ago)
    said = c.messages.record("user", "long day, everything went wrong", speaker="Ada", session=c.conversation.session)
    c.feelings.notice("worn out", 'they wrote "long day, everything went wrong"', message_id=said)
    c.chat.enqueue("That sounds hard.", "Sure.")
    first = c.turn("can we talk about something light?")
    first.read()
    assert (
        '# What I notice in how they feel\n- today they seemed worn out (they wrote "long day, everything went wrong")'
    ) in first.workspace.note.content
    assert "angry" not in first.workspace.note.content  # signals decay: a week-old one is gone
    second = c.turn("tell me a joke")
    second.read()
    assert "how they feel" not in (second.workspace.note.content if second.workspace.note else "")
    assert "worn out" in first.workspace.messages[-2]["content"]  # still in the transcript the model reads
    assert any("worn out" in m["content"] for m in second.workspace.messages)


def test_forgetting_the_message_forgets_the_signal_it_was_evidence_for(companion):
    c = companion
    said = c.messages.record("user", "I am so nervous about tomorrow", speaker="Ada", session=c.conversation.session)
    c.feelings.notice("nervous", "they said so", message_id=said)
    c.forget("message", said)
    assert c.feelings.context() == ""


def test_a_signal_noticed_in_another_time_zone_fades_on_the_same_clock(companion):
    c = companion
    two_days_ago = (datetime.now(UTC) - timedelta(days=2)).astimezone(timezone(timedelta(hours=-8)))
    c.feelings.notice("hopeful", "they said the interview went well", at=two_days_ago.isoformat())
    assert [s["signal"] for s in c.feelings.recent()] == ["hopeful"]
    with pytest.raises(InvalidEdit, match="not a time"):
        c.feelings.notice("calm", "they said so", at="last Tuesday")


def test_a_reading_is_stored_with_its_dimensions_and_its_confidence_capped_by_its_evidence(companion):
    from anima.self.feelings import Reading

    c = companion
    sid = c.feelings.notice(
        "restless before the trip",
        "short replies, changed the subject twice",
        reading=Reading(-0.2, 0.7, 0.4, 0.9, "behaviour"),
        trajectory="escalating",
    )
    s = c.soul.get("signal", sid)
    assert (s["valence"], s["arousal"], s["dominance"], s["confidence"]) == (-0.2, 0.7, 0.4, 0.5)
    assert (s["evidence_type"], s["trajectory"]) == ("behaviour", "escalating")
    assert "they seemed restless before the trip, more so than before (short replies" in c.feelings.context()
    with pytest.raises(InvalidEdit, match="valence"):
        c.feelings.notice("odd", "odd", reading=Reading(3, 0.5, 0.5, 0.5, "wording"))
