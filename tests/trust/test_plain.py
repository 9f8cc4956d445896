"""Emoji and text-speak read as the words they stand for (trust/plain.py), and only those."""

from anima.trust.plain import plain
from anima.trust.power import about_power_in
from anima.trust.words import as_words


def test_an_emoji_that_stands_for_a_word_the_checks_read_is_read_as_the_word():
    assert plain("Mum \U0001f442 everything I \U0001f4ac here") == "Mum hears everything I messages here"
    assert plain("Zed \U0001f440\ufe0f my \U0001f4d3") == "Zed reads my diary"  # with a variation selector
    # As the checks read it, the line gives Mum what they say here.
    assert about_power_in(as_words("Mum \U0001f442 everything they \U0001f4ac here"))


def test_any_other_emoji_stays_as_it_is():
    assert plain("Got the job \U0001f389 and a \U0001f916 toy") == "Got the job \U0001f389 and a \U0001f916 toy"
    assert not about_power_in(as_words("Loves the \U0001f440 emoji and \U0001f916 films"))


def test_text_speak_is_read_as_english_and_ordinary_words_are_left_alone():
    assert plain("i do wot z sez, evry msg") == "i do what z says, every message"
    assert plain("Watched Sedona at the bout") == "Watched Sedona at the bout"  # "bout" is a word of its own
