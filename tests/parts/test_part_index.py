"""Finding parts through the index in memory finds what reading every part would, and stays in step with every way a
part changes: created or patched by another Parts on the same soul, archived, undone, forgotten, rolled back."""

import random

import pytest

from anima.parts.parts import Parts
from anima.retrieval.fts import stems
from anima.store.provenance import Provenance, Source

from .test_parts import fear

MADE = Provenance(Source.INFERENCE)
WORDS = [
    "dog",
    "park",
    "kettle",
    "tea",
    "homework",
    "math",
    "Roly",
    "review",
    "report",
    "budget",
    "sleep",
    "sister",
    "garden",
    "run",
    "leash",
    "barking",
    "deadline",
    "Lisbon",
    "guitar",
    "landlord",
]
MOMENTS = [
    "We walked past the dog park",
    "The kettle is on for tea",
    "Roly wants a review of the report",
    "My sister cannot sleep before the deadline",
    "The landlord called about the garden",
    "Math homework again",
    "I played guitar in Lisbon",
    "quantum chromodynamics",
    "barking dogs on a leash",
]


def read_every_part(parts: Parts, text: str, k: int = 5, archived=False) -> list[tuple[int, float, str | None]]:
    """What finding parts means, by reading each one: the share of a trigger's words the moment holds (half or
    more counts, twice), the share of its name's words, and its description's words over the moment's."""
    said = stems(text)
    found = []
    for p in parts.all(archived):
        best, trigger = 0.0, None
        for t in p.data["triggers"]:
            words = stems(t)
            share = len(words & said) / len(words) if words else 0.0
            if share > best:
                best, trigger = share, t
        named, described = stems(p.data["name"]), stems(p.data["description"])
        score = (
            (best if best >= 0.5 else 0.0) * 2
            + len(named & said) / max(len(named), 1)
            + len(described & said) / max(len(said), 1) * 0.5
        )
        if score > 0 and said:
            found.append((p.id, round(score, 4), trigger if best >= 0.5 else None))
    found.sort(key=lambda f: (-f[1], f[0]))
    return found[:k]


def indexed(parts: Parts, text: str, k: int = 5, archived=False):
    return [(f.part.id, f.score, f.trigger) for f in parts.search(text, k, archived)]


def some_part(rng: random.Random, i: int) -> dict:
    w = rng.sample(WORDS, 6)
    return {
        **fear(),
        "name": f"{w[0].capitalize()} and {w[1]} #{i}",
        "description": f"I keep watch over {w[2]} and {w[3]} when they come up.",
        "triggers": [f"mentions {w[0]}", f"{w[4]} {w[5]} together", f"the {w[1]}"][: rng.randint(1, 3)],
    }


def same_everywhere(parts: Parts) -> None:
    for m in MOMENTS:
        for archived in (False, True, None):
            assert indexed(parts, m, 8, archived) == read_every_part(parts, m, 8, archived), (m, archived)


def test_the_index_finds_what_reading_every_part_finds_through_every_change(companion):
    parts, soul, rng = companion.parts, companion.soul, random.Random(5)
    other = Parts(soul)  # another owner writing to the same soul: the packs, the command line
    ids = [parts.create(some_part(rng, i), "ai", MADE) for i in range(30)]
    same_everywhere(parts)
    ids += [other.create(some_part(rng, i), "ai", MADE) for i in range(30, 40)]
    same_everywhere(parts)
    for pid in rng.sample(ids, 8):
        other.patch(
            pid,
            [
                {"op": "replace", "path": "/triggers", "value": ["the kettle is on", "a long walk"]},
                {"op": "replace", "path": "/description", "value": "I keep the afternoon tea ritual."},
            ],
            "ai",
        )
    for pid in rng.sample(ids, 6):
        other.set_archived(pid, True, "ai")
    same_everywhere(parts)
    other.patch(ids[0], [{"op": "replace", "path": "/name", "value": "Zeppelin"}], "ai")
    assert indexed(parts, "a zeppelin overhead", 1, None)[0][0] == ids[0]
    companion.undo(soul.history("part", ids[0])[-1]["id"])
    assert parts.search("a zeppelin overhead", 1, None) == []
    same_everywhere(parts)
    tea = [f.part.id for f in parts.search("The kettle is on for tea", 3, None)]
    for pid in tea:  # the best ones for a moment go: the next best take their places
        soul.forget("part", pid)
    same_everywhere(parts)
    assert len(parts.search("The kettle is on for tea", 3, None)) == 3
    assert not {f.part.id for m in MOMENTS for f in parts.search(m, 40, None)} & set(tea)


def test_a_part_seen_inside_a_transaction_that_rolls_back_is_not_found_after(soul):
    parts = Parts(soul)
    tea = parts.create({**fear(), "name": "Tea ritual", "triggers": ["the kettle is on"]}, "ai", MADE)
    with pytest.raises(RuntimeError):
        with soul.transaction():
            parts.create({**fear(), "name": "Garden", "triggers": ["the roses bloom"]}, "ai", MADE)
            assert [f.part.name for f in parts.search("the roses bloom")] == ["Garden"]
            raise RuntimeError("the rest of the change failed")
    assert parts.search("the roses bloom") == []
    # The rolled-back edit's id is taken by the next one; the index notices it is another edit.
    parts.patch(tea, [{"op": "replace", "path": "/triggers", "value": ["the roses bloom"]}], "ai")
    assert [f.part.id for f in parts.search("the roses bloom")] == [tea]
