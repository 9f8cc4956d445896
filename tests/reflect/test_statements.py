"""What a message states about its writer, read by code: the checks the model's proposals are held to."""

import pytest

from anima.reflect.statements import about_them, near, same_slot, slot, stated_name, statements


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My name is Dana.", "Dana"),
        ("Hi! I'm Dana.", "Dana"),
        ("You can call me Zoë.", "Zoë"),
        ("Don't call me sweetie.", None),
        ("I'm Happy.", None),  # a word, not a name
        ("Hi there!", None),
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
