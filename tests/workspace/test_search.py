"""Search across the whole mind on a real encrypted soul: every kind at once, by words and by meaning, grouped."""

from anima.store.provenance import Provenance, Source
from tests.reflect.test_hygiene import part


def test_it_finds_every_kind_by_its_words_grouped_by_kind(companion):
    c = companion
    memory = c.memories.remember("Ada's cat is called Miso")
    card = c.world.create("person", "Miso", "A grey cat who sleeps on the piano.")
    rule = c.rules.learn("Mention Miso the cat only when Ada does", c.messages.record("user", "Miso again?"))
    c.self_model.write("human", "Ada lives with Miso, a grey cat.", "user")
    gid = c.self_model.grow("I learned that Miso matters to Ada.")
    c.memories.remember("Ada works night shifts at the hospital")
    c.wait_until_indexed()
    found = c.search_mind("Miso")
    ids = {kind: [f.id for f in items] for kind, items in found.items()}
    assert memory in ids["memory"] and card in ids["world_card"] and rule in ids["rule"]
    assert gid in ids["growth_log"]
    assert [f.place for f in found["section"]] == ["human"]
    assert all("hospital" not in f.text for items in found.values() for f in items)
    assert found["memory"][0].how in ("words", "words and meaning")


def test_it_finds_a_part_by_the_words_of_its_description(companion):
    """A part has no index: its text is read at each search and matched there."""
    c = companion
    data = part("The Critic", "I look for what could go wrong in a plan.", ["a plan is made"])
    pid = c.parts.create(data, "ai", Provenance(Source.REFLECTION))
    found = c.search_mind("wrong plan")
    assert [f.id for f in found["part"]] == [pid]


def test_an_empty_query_finds_nothing(companion):
    companion.memories.remember("Ada's cat is called Miso")
    assert companion.search_mind("   ") == {}
