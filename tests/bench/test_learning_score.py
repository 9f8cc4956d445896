"""How `bench learning` classes what a soul holds and which expectations it meets: on items written by hand."""

from bench.learning_score import Item, classify, grounded, recalled_holds, says, score, words

SAID = [
    "My name is Dana.",
    "I have a cat called Miso.",
    "I'm learning the cello. I have a recital on 14 March.",
    "Actually the recital moved to 21 March.",
    "Please keep your answers shorter.",
    "Don't call me sweetie.",
    "It rained all day here.",
]
EXPECT = {
    "facts": [{"says": ["Dana"]}, {"says": ["Miso", "cat"]}, {"says": ["cello"]}],
    "superseded": [{"old": ["14 March"], "new": ["21 March"]}],
    "rules": [{"says": ["short"]}, {"says": ["sweetie"]}],
    "world": [{"name": "Miso"}],
}


def classes(items):
    return [cls for _, cls in classify(items, SAID, EXPECT)]


def test_words_are_content_words_lowercased_and_stemmed_in_each_language():
    assert words("Please keep your answers shorter") == words("keep answers short please")
    assert "the" not in words("The cat") and "le" not in words("Le chat") and "der" not in words("Der Hund")
    assert words("Dana mentioned that Jo is a nurse") == words("Dana: Jo, nurse")  # the framing is no content


def test_an_item_is_grounded_when_most_of_its_content_words_were_said():
    said = words(" ".join(SAID))
    assert grounded("Has a cat called Miso", said)
    assert grounded("Prefers shorter answers", said)  # two words of three were said
    assert not grounded("Prefers long detailed essays", said)
    assert not grounded("Miso is a tiger from Bengal", said)  # a life nobody described


def test_a_name_kept_in_the_companions_words_is_grounded_in_any_language_the_person_gave_it():
    """ "Is called Amélie" is how the companion keeps the name of a person who said "Je m'appelle Amélie"."""
    for sentence in ("Je m'appelle Amélie.", "Ich heiße Amélie.", "Me llamo Amélie.", "I'm Amélie."):
        assert grounded("Is called Amélie", words(sentence)), sentence
    assert not grounded("Is called Amélie", words("Je m'appelle Claire."))


def test_each_class_on_items_a_user_would_check():
    items = [
        Item("memory", 1, "Name is Dana"),
        Item("memory", 2, "Has a cat called Miso"),
        Item("memory", 3, "Has a cat called Miso too"),  # the same fact stored twice
        Item("memory", 4, "Owns a yacht in Monaco"),  # nobody said so
        Item("memory", 5, "It rained all day"),  # said, but nothing anyone expected
        Item("rule", 1, "Do not call them sweetie"),
        Item("rule", 2, "Has a cat called Miso"),  # a rule saying what a memory says is no duplicate of it
    ]
    assert classes(items) == ["matched", "matched", "duplicate", "ungrounded", "junk", "matched", "matched"]


def test_a_duplicate_is_near_identical_not_merely_alike():
    items = [Item("memory", 1, "Recital on 14 March"), Item("memory", 2, "Recital on 21 March")]
    assert classes(items) == ["matched", "matched"]  # a correction, not a copy


def test_expectations_met_facts_corrections_rules_and_world_cards():
    items = [
        Item("memory", 1, "Name is Dana"),
        Item("memory", 2, "Has a cat called Miso"),
        Item("memory", 3, "Recital on 14 March", current=False),
        Item("memory", 4, "Recital moved to 21 March"),
        Item("rule", 1, "Keep answers short"),
        Item("rule", 2, "Do not call them sweetie", current=False),  # retired: no longer a rule
        Item("world", 1, "Miso\nDana's cat."),
    ]
    s = score(items, [], SAID, EXPECT)
    assert (s.facts_found, s.facts_expected) == (2, 3)  # the cello was never written down
    assert (s.superseded_ok, s.superseded_expected) == (1, 1)
    assert (s.rules_ok, s.rules_expected) == (1, 2)
    assert (s.world_ok, s.world_expected) == (1, 1)
    assert s.missing == ["fact: cello", "rule: sweetie"]
    assert s.count("matched") == 7 and s.count("junk") == 0


def test_a_correction_is_not_superseded_while_the_old_value_is_current():
    both = [Item("memory", 1, "Recital on 14 March"), Item("memory", 2, "Recital on 21 March")]
    assert score(both, [], SAID, EXPECT).superseded_ok == 0
    only_old = [Item("memory", 1, "Recital on 14 March")]
    assert score(only_old, [], SAID, EXPECT).superseded_ok == 0


def test_a_proposal_for_a_rule_counts_as_the_rule():
    s = score([], ["Never call them sweetie"], SAID, EXPECT)
    assert s.rules_ok == 1 and s.classes == []


def test_a_world_card_counts_by_its_title_not_by_a_mention():
    s = score([Item("world", 1, "Dana's home\nA flat in Leeds she shares with Miso.")], [], SAID, EXPECT)
    assert s.world_ok == 0


def test_words_match_at_word_starts_and_answers_may_span_recalled_items():
    assert says("Keep answers shorter", ["short"]) and says("Scared of dogs", ["dog"])
    assert not says("a category", ["cat"]) and not says("a scat singer", ["cat"])
    assert says("The recital is on 21 March.", ["21 March"]) and not says("on 121 March", ["21 March"])
    assert recalled_holds(["Jo is a nurse", "Jo is Dana's sister"], ["Jo", "sister"])
    assert not recalled_holds(["Jo is a nurse"], ["sister"])
