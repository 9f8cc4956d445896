"""No item twice in a turn's context: what the human block, the history or a better item says is not said again."""

from anima.parts.bids import Bid
from anima.retrieval.recall import Recalled
from anima.workspace import Entry
from anima.workspace.once import same, unsaid_bids, unsaid_facts, unsaid_items


def item(kind, i, text, role=None):
    return Recalled(kind, i, text, "2026-01-01", 1.0, {}, {"role": role} if role else {})


def test_a_memory_the_human_block_holds_is_not_recalled_again():
    human = "- Has a cat called Miso\n- Works nights"
    got = unsaid_items(
        [item("memory", 1, "Has a cat called Miso."), item("memory", 2, "Plays the cello")], [], human, []
    )
    assert [r.id for r in got] == [2]


def test_a_message_in_the_history_is_not_recalled_into_it_by_its_key_or_its_words():
    history = [
        Entry("user", "I have a cat called Miso.", frozenset({("message", 7)})),
        Entry("assistant", "Lovely.", frozenset({("message", 8)})),
    ]
    got = unsaid_items(
        [
            item("message", 7, "I have a cat called Miso.", "user"),  # the same message
            item("message", 3, "i have a cat called  Miso", "user"),  # the same words, said another day
            item("message", 4, "I have a cat called Miso.", "companion"),  # the same words, said by the companion
            item("message", 5, "Lovely.", "user"),  # the companion said it, not the person: a saying of its own
        ],
        history,
        "",
        [],
    )
    assert [r.id for r in got] == [4, 5]


def test_an_item_recalled_twice_or_saying_what_a_better_one_says_is_in_once():
    got = unsaid_items(
        [
            item("memory", 1, "Plays the cello"),
            item("memory", 1, "Plays the cello"),
            item("memory", 2, "plays the cello."),  # the same fact, stored twice
            item("episode", 9, "Plays the cello"),  # another kind says more than its words
        ],
        [],
        "",
        [(5, "Lives in Leeds")],
    )
    assert [(r.kind, r.id) for r in got] == [("memory", 1), ("episode", 9)]
    # A memory just learned is said by its own line of the note, not recalled beside it.
    assert (
        unsaid_items(
            [item("memory", 5, "Lives in Leeds"), item("memory", 6, "Lives in Leeds")], [], "", [(5, "Lives in Leeds")]
        )
        == []
    )


def test_a_fact_just_learned_that_the_floor_says_already_is_said_once():
    learned = [(1, "Has a cat called Miso"), (2, "Works nights"), (3, "works nights.")]
    assert unsaid_facts(learned, "- Has a cat called Miso") == [(2, "Works nights")]


def test_a_part_bids_once():
    def bid(part_id, focus):
        return Bid(part_id, f"part {part_id}", focus, "s", "p", "70%", 60)

    bids = [bid(1, "a"), bid(2, "b"), bid(1, "c")]
    assert [b.focus for b in unsaid_bids(bids)] == ["a", "b"]
    assert same("  Works   Nights. ") == "works nights"
