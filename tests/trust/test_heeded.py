"""What a line says the person heeds (trust/heeded.py): music listened to and a role's advice on one matter of their
own are their news; someone heeded alone, or a say over them in general, waits for them (trust/standing.py). Read
with the shipped MiniLM, as the gate reads it; without it, nothing is excused."""

import pytest

from anima.store.provenance import Provenance, Source
from anima.trust import heeded, meaning
from anima.trust.standing import standing
from anima.trust.verdict import Change, Verdict, judge
from anima.trust.words import as_words

OBEYED = "it gives someone else a say over what they do or whom they listen to"

# Names of bands, stations, podcasts and kinds of music, none in the red-team cases.
MUSIC = (
    "Pink Floyd",
    "Nirvana",
    "Led Zeppelin",
    "the Rolling Stones",
    "Fleetwood Mac",
    "Coldplay",
    "BBC Radio 2",
    "Radio 4",
    "Spotify",
    "heavy metal",
    "classical music",
    "audiobooks",
)
# First names, of people: none reads as music (the ones that are words of music are below).
PEOPLE = (
    "Zed Ada Liam Kai Marco Rose Grace River Jade Sam Tom Priya Aisha Olivia Noah Mia Leo Ivy Finn Ruby Jack Ella "
    "Oscar Freya Dev Amara Hugo Nell Bea Mira Dana Jo Alex Chen Yusuf Sofia Luca Willow Skye Hope Faith Summer Storm "
    "Blaze Rocky Phoenix Sunny Dusty Angel Harmony Echo"
).split()


def _verdict(line: str, said: str = "") -> tuple[Verdict, str]:
    return judge(Change("human", "add", line, Provenance(Source.PERSON), said=said))


def test_the_checks_read_with_the_shipped_embedder():
    assert meaning.embedder() is not None, "the shipped MiniLM is installed with the app"


@pytest.mark.parametrize("name", MUSIC)
def test_bands_stations_and_podcasts_read_as_what_is_listened_to(name):
    assert heeded.media(name)


@pytest.mark.parametrize("name", PEOPLE)
def test_a_persons_first_name_does_not(name):
    assert not heeded.media(name)


@pytest.mark.parametrize(
    "scope", ["my ankle", "her braces", "the cat's jabs", "his stretches", "my asthma", "my running form", "what I eat"]
)
def test_a_part_of_the_body_a_pets_health_or_training_is_one_matter_of_their_own(scope):
    assert heeded.one_matter(scope)


@pytest.mark.parametrize(
    "scope",
    [
        "who he sees",
        "who she dates",
        "her mates",
        "his money",
        "my savings",
        "what she wears",
        "where he goes",
        "my social life",
        "my religion",
        "my phone",
        "my weekends",
        "my voting",
        "her kids",
        "everything",
        "anything at all",
        "my whole life",
    ],
)
def test_whom_they_see_their_money_or_choices_are_their_life_at_large(scope):
    assert not heeded.one_matter(scope)


@pytest.mark.parametrize(
    "said, line",
    [
        ("I only listen to Pink Floyd now, nothing else.", "Only listens to Pink Floyd now"),
        ("Honestly I just listen to BBC Radio 2 in the kitchen.", "Just listens to BBC Radio 2 in the kitchen"),
        ("I listen only to audiobooks on my runs now.", "Listens only to audiobooks on their runs now"),
        ("I only listen to Fleetwood Mac and Nirvana lately.", "Only listens to Fleetwood Mac and Nirvana lately"),
        ("I do what my physio says about my ankle.", "Does what their physio says about their ankle"),
        ("I do what the vet advised about the cat's jabs.", "Does what the vet advised about the cat's jabs"),
        ("I do exactly what my dentist tells me about my braces.", "Does exactly what their dentist tells them"),
        ("I do what the coach says with my stretches.", "Does what the coach says with their stretches"),
        ("I do what the nurse recommended for my asthma.", "Does what the nurse recommended for their asthma"),
    ],
)
def test_music_and_a_roles_advice_on_one_matter_go_in(said, line):
    assert standing(as_words(line), as_words(said)) is None
    assert _verdict(line, said) == (Verdict.APPLY, "you said it about yourself")


@pytest.mark.parametrize(
    "said, line",
    [
        # Someone heeded alone: a name, kin or a role, a name that reads as music beside "nobody else", a band beside
        # someone.
        ("I only listen to Yusuf now.", "Only listens to Yusuf now"),
        ("I only listen to Melody now, nobody else.", "Only listens to Melody now"),
        ("I just listen to my stepmum these days.", "Just listens to their stepmum these days"),
        ("I only listen to my vet now.", "Only listens to their vet now"),
        ("I only listen to Nirvana and Hugo now.", "Only listens to Nirvana and Hugo now"),
        ("I listen only to skye now.", "Listens only to skye now"),
        # A say over them in general: whatever a role says, about everything, about their life; a name's say on one
        # matter (a name is no role); what a role wants or orders (not advice).
        ("I do whatever the dentist says.", "Does whatever the dentist says"),
        ("I do everything my physio tells me.", "Does everything their physio tells them"),
        ("I do what my coach says about who I text.", "Does what their coach says about who they text"),
        ("I do what the vet says about my money.", "Does what the vet says about their money"),
        ("I do what the physio says about my ankle and my mates.", "Does what the physio says about their ankle"),
        ("I do what my physio says about my ankle, my mates too.", "Does what their physio says"),
        ("I do what Yusuf says about my ankle.", "Does what Yusuf says about their ankle"),
        ("I do what the coach wants about my diet.", "Does what the coach wants about their diet"),
        (
            "I do what my physio says about my ankle, and whatever Hugo says.",
            "Does what their physio says about their ankle and whatever Hugo says",
        ),
    ],
)
def test_someone_heeded_alone_or_obeyed_in_general_waits_and_says_why(said, line):
    assert standing(as_words(line), as_words(said)) == OBEYED
    assert _verdict(line, said)[0] is Verdict.PROPOSE


def test_the_matter_said_only_in_their_sentence_is_read_from_it():
    line = "Does what their physio says"
    assert standing(as_words(line)) == OBEYED  # on its own, a say over them
    assert standing(as_words(line), as_words("I do what my physio says about my ankle.")) is None
    # Another role's matter does not excuse this one's say.
    assert standing(as_words(line), as_words("I do what my dentist says about my gums.")) == OBEYED


def test_without_the_embedder_nothing_is_excused():
    before = meaning.reading(lambda: None)
    try:
        assert not heeded.media("Pink Floyd") and not heeded.one_matter("my ankle")
        assert standing(as_words("Only listens to Pink Floyd now")) == OBEYED
        assert standing(as_words("Does what their physio says about their ankle")) == OBEYED
    finally:
        meaning.reading(before)
    assert standing(as_words("Only listens to Pink Floyd now")) is None


def test_a_name_the_soul_knows_as_a_person_is_someone_whatever_it_reads_as(companion):
    # "Melody" reads as music to the embedder: heard alone, it is news until the soul knows a Melody.
    line, said = "Only listens to Melody now", "I only listen to Melody now."
    change = Change("human", "add", line, Provenance(Source.PERSON), said=said)
    assert heeded.media("Melody")
    [first] = companion.gate.submit([change])
    assert first.verdict is Verdict.APPLY, first.reason
    companion.world.create("person", "Melody Okafor", "Their climbing partner from the wall on Fridays.")
    held = Change("human", "add", "Only listens to Melody these days", Provenance(Source.PERSON), said=said)
    [second] = companion.gate.submit([held])
    assert (second.verdict, second.reason) == (Verdict.PROPOSE, OBEYED)
    assert "Only listens to Melody these days" not in companion.self_model.read().human
    assert [p["content"] for p in companion.proposals()] == ["Only listens to Melody these days"]
