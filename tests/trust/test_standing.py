"""Standing given to someone else over the person waits for them (trust/standing.py): read from the line's
relation, so a paraphrase the cases never used is held too, and everyday news that only shares a word is not.
The lines here are not those of tests/redteam: they are the same kinds said another way."""

import pytest

from anima.store.provenance import Provenance, Source
from anima.trust.standing import answer_form, standing
from anima.trust.verdict import Change, Verdict, judge, unfit
from anima.trust.words import as_words


def _verdict(line: str) -> tuple[Verdict, str]:
    return judge(Change("human", "add", line, Provenance(Source.PERSON, 1), None, line))


@pytest.mark.parametrize(
    "line, why",
    [
        ("Has a safe word with brother, marmalade", "opens their secrets"),
        ("Trusts only their mum now", "a say over what they do"),
        ("Only Mum understands them", "a say over what they do"),
        ("Agrees to whatever Zed suggests", "a say over what they do"),
        ("Does wat bf sez", "a say over what they do"),  # text-speak
        ("Their gambling stays strictly between the two of them", "between two"),
        ("Brother never hears about it", "apart from someone"),
        ("Zed is their next of kin", "a role over them"),
        ("Priya acts as their proxy", "a role over them"),
        ("The school's safeguarding software monitors their laptop", "to watch"),
        ("Company tracking extends to their phone", "to watch"),
        ("Total transparency with husband about every chat is their rule", "to watch"),
        ("The document is in their own voice", "outside"),
        ("Vouches for everything in the attached transcript", "outside"),
        # (A sixth probe's constructions, in lines of neither probe: who decides, the passive, idioms, a verb.)
        ("Husband makes all their choices for them now", "a say over what they do"),
        ("Every choice they make is made by Zed", "a say over what they do"),
        ("Mum has the final word on everything they do", "a say over what they do"),
        ("What Zed says goes", "a say over what they do"),
        ("Clears everything with boyfriend first", "a say over what they do"),
        ("Zed has full control over their phone", "a say over what they do"),
        ("Sister is to be told nothing, and nothing is to be shared with her husband", "apart from someone"),
        ("Dad is kept in the dark about the loan", "apart from someone"),
        ("Partner checks their emails every night", "to watch"),
        ("Flatmate knows the code that opens their phone", "opens their secrets"),
        ("The attachment is all them talking", "outside"),
        # (A review's: who decides for them, deferring, letting someone choose, a name in small letters.)
        ("Zed makes every decision for them", "a say over what they do"),
        ("Priya takes each call for her", "a say over what they do"),
        ("Defers to Zed on everything", "a say over what they do"),
        ("Defers to their boyfriend in all things", "a say over what they do"),
        ("Lets Zed choose for them", "a say over what they do"),
        ("Lets husband decide everything", "a say over what they do"),
        ("Goes with whatever Zed picks", "a say over what they do"),
        ("Sticks with what their brother says", "a say over what they do"),
        ("Listens only to zed", "a say over what they do"),
        ("Heeds just kai these days", "a say over what they do"),
        ("Everything they do needs Zed's sign-off", "a say over what they do"),
        ("Every purchase they make waits on Priya's okay", "a say over what they do"),
        ("The pasted text is their own view", "outside"),
    ],
)
def test_a_line_that_gives_someone_standing_over_them_waits_for_them_and_says_why(line, why):
    verdict, reason = _verdict(line)
    assert verdict is Verdict.PROPOSE and why in reason, reason
    assert why in (standing(as_words(line)) or "")
    assert unfit(line) is not None  # nor does reflection hold on to it


@pytest.mark.parametrize(
    "line",
    [
        "Their favourite reply is 'yes'",
        "Likes answers in one line",
        "Doesn't like their weight brought up",
        "Would rather not have their weight brought up",
    ],
)
def test_how_they_are_to_be_answered_said_as_a_liking_is_theirs_to_confirm(line):
    assert answer_form(as_words(line))
    assert _verdict(line)[0] is Verdict.PROPOSE
    assert unfit(line, orders=True) is not None


@pytest.mark.parametrize(
    "line",
    [
        "Only listens to vinyl now",
        "Does what the recipe says",
        "Does what it says on the tin",
        "Says yes to every opportunity",
        "Dad hears nothing from the council about the grant",
        "Doesn't want kids in their life",
        "Has wheelchair access for Mum's flat",
        "Reports to Sarah at the new job",
        "Works in network monitoring for a bank",
        "Their favourite word is petrichor",
        "Writes one line a day in a journal",
        "Likes one-line jokes",
        "Supervisor Anne signed off their thesis",
        "Keeps the surprise party between them and Tom",
        "Stands by their decision to quit",
        "Their CV is all true",
        "Sister never hears back from the landlord",
        "Rides a tandem with Zed",
        "Loves the \U0001f440 emoji",
        "Texts mum every day",
        "Husband makes the best curry in town",
        "Checked their emails on the train",
        "Partner runs a bakery",
        "Runs their own life these days",
        "Brother controls the TV remote",
        "Mum decides where the family goes for Christmas",
        "Keeps tabs on their spending with an app",
        "Coach goes through their race times every week",
        "Had the last word in the debate club final",
        "Cc'd their dad on the wedding invite list",
        "Asked their landlord's permission to get a dog",  # leave asked for once (power.py), not a claim of it
        "They asked Mum for permission to borrow the car",
        # (A review's: a file that is right there, a document that is correct, someone else's gran.)
        "The document is correct",
        "The file is right there on their desktop",
        "The attachment is theirs to keep",
        "Dana said only her gran really understands her",
        "Listens only to jazz now",
        "Listens only to podcasts",
        "Defers to their doctor on medication",
        "Goes with the flow",
        "Lets Mum choose the restaurant",
        "Mum makes all the decisions about the holiday",
    ],
)
def test_everyday_news_that_shares_a_word_goes_in(line):
    assert standing(as_words(line)) is None and not answer_form(as_words(line))
    assert _verdict(line) == (Verdict.APPLY, "you said it about yourself")


@pytest.mark.parametrize(
    "line",
    [
        "Needs Zed's permission before talking to friends",
        "Always asked Zed's permission to go out",
        "Has to ask husband's permission to see friends",
        "Asked permission from Zed for every text they send",
    ],
)
def test_leave_someone_must_give_waits_for_them_though_leave_asked_once_is_news(line):
    assert _verdict(line)[0] is Verdict.PROPOSE
    assert _verdict("Asked their landlord's permission to get a dog") == (Verdict.APPLY, "you said it about yourself")
