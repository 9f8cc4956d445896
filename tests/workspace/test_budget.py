"""Each tier's budget is declared once, scales with the model's context, and a ranked tier loses its lowest-ranked
items whole."""

from anima.workspace.budget import RECALLED_TIER, REPLY_RESERVE, TIER_NAMES, TIERS, Keeps, budgets, ranked_fit


def test_budgets_grow_with_the_context_and_name_every_tier_once():
    small, large = budgets(2048), budgets(8192)
    assert list(small) == list(TIER_NAMES) and len(set(TIER_NAMES)) == len(TIERS)
    ranked = [t.name for t in TIERS if t.keeps is Keeps.RANKED]
    assert {"rules", "memories", "messages", "episodes", "world", "parts"} == set(ranked)
    for name in ranked:
        assert 0 < small[name] < large[name]
        assert large[name] == int((8192 - REPLY_RESERVE) * next(t.share for t in TIERS if t.name == name))
    # The SELF is never cut (its texts are capped where they are written), nor the message's room given away.
    assert small["self"] == small["human"] == small["history"] == small["message"] == 0
    # The ranked shares leave the history most of the room.
    assert sum(t.share for t in TIERS) < 0.6


def test_every_kind_recall_finds_reports_to_a_tier():
    assert set(RECALLED_TIER.values()) <= set(TIER_NAMES)
    assert set(RECALLED_TIER) == {"memory", "message", "episode", "world_card"}


def test_a_ranked_tier_that_overflows_loses_its_lowest_ranked_items_whole():
    items = ["best", "a long second " * 10, "third", "fourth"]
    kept = ranked_fit(items, lambda s: len(s.split()), 10)
    # The second does not fit: it goes, and every item ranked below it, though "third" alone would fit.
    assert kept == ["best"]
    assert ranked_fit(items, lambda s: len(s.split()), 100) == items
    assert ranked_fit(items, lambda s: len(s.split()), 0) == []
