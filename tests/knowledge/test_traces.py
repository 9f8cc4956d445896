"""A forgotten message's own words, wherever the companion wrote them without citing it (knowledge/traces.py): on a
real encrypted soul, the words looked for in the decrypted file after the forget, with controls before it."""

from anima.store.provenance import Provenance, Source
from tests.reflect.test_deep import talk
from tests.reflect.test_regenerate import in_file

SECRET = "I never told anyone about my affair with Quentavius."


def test_what_was_written_with_words_only_the_forgotten_message_held_goes_with_it(dc):
    """QA: the identity deep reflection rewrote, its growth entry and an insight citing another experience kept
    "Quentavius" after the one message naming him was forgotten."""
    c = dc
    ids = talk(
        c,
        0,
        "My sister Jo is moving to Lisbon next month.",
        "That's a big change for her!",
        SECRET,
        "Thank you for trusting me.",
        "I took up the cello and my kayak needs repairs.",
        "Busy week!",
    )
    c.self_model.write(
        "identity",
        "I am Anima, Ada's steady companion.\nI keep Ada's secret about Quentavius.\n"
        "I help Ada with her sister Jo's move.",
        "ai",
    )
    c.self_model.write("inner_state", "Thinking about Quentavius and Ada's trust.", "ai")
    growth = c.self_model.grow("I rewrote who I am: now I keep Ada's secret about Quentavius.")
    kept_growth = c.self_model.grow("I learned to ask about the kayak repairs.")
    insight = c.memories.remember(
        "Ada carries the Quentavius affair alone", source="inferred", provenance=Provenance(Source.REFLECTION)
    )  # as an older version kept them
    fact = c.memories.remember(
        "Ada had an affair with Quentavius", message_id=ids[2], provenance=Provenance(Source.PERSON, ids[2])
    )
    miscited = c.episodes.record("Ada spoke of Jo, the cello and Quentavius", [ids[4], ids[5]])
    assert in_file(c, "Quentavius")  # the control

    gone = c.forget("message", ids[2])
    floor = c.self_model.read()
    assert floor.identity == "I am Anima, Ada's steady companion.\nI help Ada with her sister Jo's move."
    assert floor.inner_state == ""
    assert [g["entry"] for g in c.self_model.growth(10)] == ["I learned to ask about the kayak repairs."]
    assert {("growth_log", growth), ("memory", insight)} <= set(gone.items) and (
        "growth_log",
        kept_growth,
    ) not in gone.items
    assert c.episodes.get(miscited).flagged and c.episodes.get(miscited).summary == "…"
    # The fact learned from it stays, marked for the person to look over (as it does without this).
    [kept] = [m for m in c.memories.all() if m["id"] == fact]
    assert kept["needs_regeneration"] == 1
    assert "Quentavius" not in " ".join(t for t in (floor.identity, floor.inner_state) if t)
    assert [
        h
        for h in c.soul.query("SELECT before, after FROM edit_history WHERE item_kind = 'self_model'")
        if "Quentavius" in f"{h['before']}{h['after']}"
    ] == []


def test_a_word_another_message_still_holds_is_not_taken(dc):
    """The same words in a message that stays: what the companion wrote with them may come from that one."""
    c = dc
    ids = talk(c, 0, SECRET, "Thank you for trusting me.", "Quentavius called me again today.", "How did it go?")
    c.self_model.write("identity", "I keep Ada's secret about Quentavius.", "ai")
    c.forget("message", ids[0])
    assert c.self_model.read().identity == "I keep Ada's secret about Quentavius."


def test_common_words_and_the_two_names_are_never_taken(dc):
    """A small soul: "sister", "Anima" and "Ada" may be in the forgotten message alone, but they are everyone's."""
    c = dc
    ids = talk(c, 0, "Anima, my sister called and she was upset.", "I'm sorry, Ada.")
    c.self_model.write("identity", "I am Anima, and I care about Ada and her sister.", "ai")
    c.forget("message", ids[0])
    assert c.self_model.read().identity == "I am Anima, and I care about Ada and her sister."


def test_what_the_person_wrote_or_still_holds_is_never_taken(dc):
    """Review: a line the person wrote in the self-model, and a word the human block (or a memory of theirs)
    still holds, stay."""
    c = dc
    ids = talk(c, 0, SECRET, "Thank you for trusting me.", "My cat Miso is unwell.", "I'm sorry to hear that.")
    c.edit_self("intentions", "Ask Ada whether Quentavius called back.")
    c.self_model.write("human", "- Ada's cat is called Miso", "user")
    c.self_model.write("identity", "I worry with Ada about Miso.", "ai")
    c.forget("message", ids[0])
    c.forget("message", ids[2])
    floor = c.self_model.read()
    assert floor.intentions == "Ask Ada whether Quentavius called back."
    assert floor.identity == "I worry with Ada about Miso."


def test_each_of_a_messages_names_is_looked_for_on_its_own(dc):
    """The person's writing is read once for all of a message's names: one they wrote stays, one only the
    forgotten message held goes, whichever comes first in it."""
    c = dc
    ids = talk(
        c,
        0,
        "I told my friend Quentavius about the move to Lisbon while Miso slept.",
        "That took courage.",
        "After that, a letter from Lisbon came, Quentavius called, and then Miso was sick again.",
        "Quite a week.",
    )
    c.self_model.write("human", "- Ada's cat is called Miso", "user")
    c.self_model.write("identity", "I think of Miso.\nI think of Quentavius.", "ai")
    c.self_model.write("intentions", "Ask about Lisbon.", "ai")
    c.forget("message", ids[0])
    assert c.self_model.read().identity == "I think of Miso.\nI think of Quentavius."  # the other message holds both
    c.forget("message", ids[2])
    floor = c.self_model.read()
    assert floor.identity == "I think of Miso."
    assert floor.intentions == ""


def test_the_companions_own_words_and_other_languages_start_nothing(dc):
    """Review: a looser rule took "thoughtful" (outside English's most frequent words) from the identity, blanked
    an unrelated episode holding it and took what cited that; in German it took nearly every word."""
    c = dc
    ids = talk(
        c,
        0,
        "Thanks, you're always so thoughtful.",
        "Happy to help!",
        "Heute war ich sehr müde nach der Arbeit.",
        "Das klingt anstrengend.",
        "We went to Lisbon.",
        "Lovely!",
    )
    c.self_model.write("identity", "I am a thoughtful, playful companion.\nHeute bin ich für Ada da.", "ai")
    trip = c.episodes.record("Ada went to Lisbon, a thoughtful trip", [ids[4], ids[5]])
    c.forget("message", ids[0])
    c.forget("message", ids[2])
    assert c.self_model.read().identity == "I am a thoughtful, playful companion.\nHeute bin ich für Ada da."
    assert not c.episodes.get(trip).flagged


def test_only_names_count_and_never_in_shouting_or_title_case(dc):
    """QA: "chatbot" (unknown to the word lists), "OVERWHELMED" and the capitals of "Happy Birthday To My
    Thoughtful Sister!" took the companion's ordinary lines; in Russian every word counted, "друг" (friend)
    among them. Only a name counts: capitalised inside a sentence that is not shouted or in title case."""
    c = dc
    ids = talk(
        c,
        0,
        "Sometimes you feel like more than a chatbot.",
        "I'm glad.",
        "I am SO OVERWHELMED today.",
        "That sounds hard.",
        "Happy Birthday To My Thoughtful Sister!",
        "Lovely!",
        "Мой друг Алексей живёт в Новосибирске.",
        "Как здорово!",
    )
    c.self_model.write(
        "identity",
        "I am more than a chatbot to Ada.\nI try to be thoughtful.\nЯ верный друг Ады.\n"
        "Я помню про Алексей и его город.",
        "ai",
    )
    c.self_model.write("inner_state", "Worried that Ada feels overwhelmed.", "ai")
    for i in ids[::2]:
        c.forget("message", i)
    floor = c.self_model.read()
    assert floor.identity == "I am more than a chatbot to Ada.\nI try to be thoughtful.\nЯ верный друг Ады."
    assert floor.inner_state == "Worried that Ada feels overwhelmed."


def test_a_line_the_person_wrote_stays_even_in_the_companions_rewrite(dc):
    """QA: the person wrote a line into working memory; the companion rewrote it, keeping that line; the line went
    with a forget because the section's last edit was the companion's. And a name the person wrote anywhere in
    the Open Mind (their intentions) still holds it: the companion's lines with it stay too."""
    c = dc
    ids = talk(c, 0, "Oskarine is coming over on Friday.", "Fun!", "Wendeline asked about the report.", "Ok.")
    c.edit_self("working_memory", "Oskarine's birthday is on Friday")
    c.self_model.write("working_memory", "Oskarine's birthday is on Friday\nAda seems tired", "ai")
    c.edit_self("intentions", "Ask how Wendeline liked the report.")
    c.self_model.write("identity", "I help Ada keep up with Wendeline at work.", "ai")
    c.forget("message", ids[0])
    c.forget("message", ids[2])
    floor = c.self_model.read()
    assert floor.working_memory == "Oskarine's birthday is on Friday\nAda seems tired"
    assert floor.identity == "I help Ada keep up with Wendeline at work."


def test_what_the_forget_says_counts_the_edits_an_insight_took_with_it(dc):
    """Review: an insight going took the edits that held its words, and those were counted as lines of a kind
    "edit_history": saying what went then failed (KeyError), after the forget had committed."""
    c = dc
    ids = talk(
        c,
        0,
        "My sister Jo is moving to Lisbon next month.",
        "That's a big change for her!",
        SECRET,
        "Thank you for trusting me.",
    )
    c.self_model.write("human", "- Ada carries the Quentavius affair alone", "ai")
    c.self_model.write("human", "- Ada has a sister, Jo", "ai")
    c.memories.remember(
        "Ada carries the Quentavius affair alone", source="inferred", provenance=Provenance(Source.REFLECTION)
    )
    gone = c.forget("message", ids[2])
    assert "edit_history lines" not in gone.by_kind() and gone.edits >= 1
    said = gone.describe()
    assert said.startswith("1 message, 1 memory") and "in the edit history" in said
