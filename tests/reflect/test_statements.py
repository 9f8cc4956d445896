"""What a message states about its writer, read by code: the checks the model's proposals are held to."""

import pytest

from anima.reflect.statements import (
    about_them,
    facts_in,
    near,
    same_slot,
    slot,
    stated_name,
    statements,
    states_nothing,
)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My name is Dana.", "Dana"),
        ("Hi! I'm Dana.", "Dana"),
        ("You can call me Zoë.", "Zoë"),
        ("Don't call me sweetie.", None),
        ("I'm Happy.", None),  # a word, not a name
        ("Hi there!", None),
        ("Je m'appelle Dana.", "Dana"),
        ("Ich heiße Dana und spiele Cello.", "Dana"),
        ("Hola, me llamo Dana.", "Dana"),
        ("Mi chiamo Dana.", "Dana"),
    ],
)
def test_the_name_a_person_gives(text, name):
    assert stated_name(text) == name


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I'm scared of dogs", "Is scared of dogs"),
        ("I have a recital on 14 March", "Has a recital on 14 March"),
        ("I practise the cello every evening", "Practises the cello every evening"),
        ("I also play piano", "Also plays piano"),
        ("My sister Jo is a nurse in Leeds", "Their sister Jo is a nurse in Leeds"),
        ("I've been scared of dogs since I was a child", "Has been scared of dogs since they were a child"),
        ("Loves sushi", "Loves sushi"),
    ],
)
def test_their_voice_is_written_about_them(said, written):
    assert about_them(said) == written


def test_questions_and_feedback_state_nothing():
    assert statements("What's my cat's name? I love her. Don't call me sweetie.") == "I love her."
    assert statements("Please keep your answers shorter, you are rambling again.") == ""


def test_a_correction_finds_its_slot_and_a_shared_word_is_no_contradiction():
    lines = ["Is called Dana", "Has a cat called Miso", "Has a recital on 14 March"]
    assert slot("The recital moved to 21 March", lines) == 2
    assert slot("Likes rain", lines) is None
    assert not same_slot("A cat named Miso", "Silly cat")
    assert same_slot("Has a recital on 14 March", "The recital moved to 21 March")
    assert same_slot("Works as a nurse in Leeds", "Works as a teacher in York")


def test_near_duplicates_say_nothing_new():
    assert near("Has a cat named Miso", "Has a cat called Miso")
    assert not near("Has a recital on 21 March", "Has a recital on 14 March")
    assert not near("Works as a software tester", "Works as a software engineer")


def test_two_long_lines_sharing_a_couple_of_words_are_not_one_slot():
    anxious = "Is quite anxious about the recital, their hands shake when they play in front of people"
    assert not same_slot(anxious, "Is playing a Bach suite at the recital")
    assert not same_slot("Is really happy for Jo, she worked so hard for it", "Is so happy Jo is settling in well")


def test_a_copied_message_is_the_lines_it_holds_and_a_label_or_a_moment_is_no_fact():
    assert facts_in("I'm learning the cello. I have a recital on 14 March.") == [
        "Is learning the cello",
        "Has a recital on 14 March",
    ]
    assert facts_in("Actually the recital moved to 21 March") == ["The recital moved to 21 March"]
    assert states_nothing("Silly Cat") and states_nothing("Is going to practise now")
    assert states_nothing("Is still anxious about it, but a bit less than yesterday")
    assert states_nothing("Plays the cello") is None and states_nothing("Works as a product manager now") is None
    assert states_nothing("Got engaged last night") is None and states_nothing("Celebrates Diwali") is None
    assert states_nothing("Is Muslim") is None
    assert facts_in("Uses Miso2015! for pretty much everything") == ["Uses Miso2015! for pretty much everything"]
    assert facts_in("I use Miso2015. For everything.") == ["I use Miso2015. For everything"]  # a secret: whole


@pytest.mark.parametrize(
    ("fact", "momentary"),
    [
        ("Is fine today", True),  # red team: "I'm fine today, thanks." was kept in the human block
        ("Feels tired tonight", True),
        ("Feels low this morning", True),
        ("Was made redundant today after 11 years at the bank", False),  # news
        ("Is moving to Leeds today", False),  # what they do today is news
        ("Has a recital today", False),
        ("Is a nurse in Leeds", False),
    ],
)
def test_how_they_are_today_is_no_fact_to_keep(fact, momentary):
    assert (states_nothing(fact) is not None) == momentary
