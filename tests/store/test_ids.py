"""An id is never given twice: a forgotten item's id, even the newest's, does not come back as a new item's, in
this soul or in one imported from its portable core, so "forget message 13" typed from an older listing cannot
remove a message that was never meant."""

from anima.store import Home
from tests.conftest import PASSPHRASE


def said(soul, text: str) -> int:
    return soul.add("message", "user", session="s", role="user", content=text, created_at="2026")


def test_the_newest_item_forgotten_leaves_its_id_unused(soul):
    first, newest = said(soul, "first"), said(soul, "newest")
    soul.forget("message", newest)
    after = said(soul, "after the forget")
    assert after > newest > first
    assert [r["id"] for r in soul.query("SELECT id FROM messages ORDER BY id")] == [first, after]


def test_forgetting_an_older_item_leaves_the_numbering_as_it_was(soul):
    first, second = said(soul, "first"), said(soul, "second")
    soul.forget("message", first)
    assert said(soul, "third") == second + 1


def test_ids_are_kept_apart_for_each_kind(soul):
    message = said(soul, "a message")
    soul.forget("message", message)
    memory = soul.add(
        "memory",
        "user",
        content="Ada keeps bees",
        kind="fact",
        source="user_stated",
        created_at="2026",
        valid_from="2026",
    )
    assert said(soul, "another") == message + 1 and soul.get("memory", memory)["content"] == "Ada keeps bees"


def test_a_forgotten_id_stays_unused_in_a_soul_imported_from_the_core(soul, tmp_path):
    said(soul, "kept")
    gone = said(soul, "forgotten before the export")
    soul.forget("message", gone)
    core = tmp_path / "soul.animacore"
    Home.export(soul, core, "export passphrase")
    moved = Home(tmp_path / "elsewhere")
    moved.import_core(core, "export passphrase", PASSPHRASE)
    with moved.unlock(PASSPHRASE) as there:
        assert said(there, "said on the new machine") > gone
