"""Versions of a message in the soul: which is chosen, what follows a version not chosen, a chosen one
forgotten, how a reply ended, and the tables on a soul from before them."""

from anima.knowledge.branches import Ending
from anima.knowledge.messages import NewMessage
from anima.store import migrations


def stored(companion, *said: tuple[str, str]) -> list[int]:
    return companion.messages.record_many([NewMessage(role, text, session="s") for role, text in said])


def test_an_edit_sets_the_old_pair_aside_and_stepping_back_brings_it_again(companion):
    branches = companion.messages.branches
    u1, r1 = stored(companion, ("user", "I have a dgo"), ("companion", "A dgo?"))
    with companion.messages.writing() as con:
        branches.tie(con, u1)
    [u2] = stored(companion, ("user", "I have a dog"))
    with companion.messages.writing() as con:
        branches.add(con, u2, u1)
    [r2] = stored(companion, ("companion", "What is its name?"))
    with companion.messages.writing() as con:
        branches.follow(con, r2, u2)
    assert [m["content"] for m in companion.messages.recent("s")] == ["I have a dog", "What is its name?"]
    assert branches.versions(u1).ids == (u1, u2) and branches.versions(u2).shown == 1
    branches.choose(branches.slot(u2), u1)
    assert [m["content"] for m in companion.messages.recent("s")] == ["I have a dgo", "A dgo?"]
    assert branches.hidden([u1, r1, u2, r2]) == {u2, r2}


def test_the_chosen_version_forgotten_the_newest_left_is_shown_and_what_followed_it_goes(companion):
    branches = companion.messages.branches
    u1, _ = stored(companion, ("user", "first"), ("companion", "first reply"))
    with companion.messages.writing() as con:
        branches.tie(con, u1)
    [u2] = stored(companion, ("user", "second"))
    with companion.messages.writing() as con:
        branches.add(con, u2, u1)
    [r2] = stored(companion, ("companion", "second reply"))
    with companion.messages.writing() as con:
        branches.follow(con, r2, u2)
    companion.forget("message", u2)
    assert companion.soul.query("SELECT * FROM version_chosen") == []
    assert [m["content"] for m in companion.messages.recent("s")] == ["first", "first reply"]


def test_how_a_reply_ended_is_kept_until_it_ends_by_itself(companion):
    branches = companion.messages.branches
    [r] = stored(companion, ("companion", "Once upon"))
    with companion.messages.writing() as con:
        branches.end(con, r, Ending.CUT_OFF)
    assert branches.endings([r]) == {r: Ending.CUT_OFF}
    with companion.messages.writing() as con:
        branches.end(con, r, None)
    assert branches.endings([r]) == {}


def test_a_soul_has_the_tables_of_versions_at_the_newest_schema(soul):
    names = {r["name"] for r in soul.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"message_versions", "version_chosen", "reply_endings"} <= names
    assert soul.schema_version() == migrations.SCHEMA_VERSION
