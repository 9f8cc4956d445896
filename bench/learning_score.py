"""How `bench learning` scores what a soul holds after a scripted conversation: pure functions over plain items.

Each stored item (a memory, a behavioural rule, a world card, a part made during the scenario) gets one class,
tried in this order:
- duplicate: near-identical to an earlier stored item of the same kind (its content words, see `words`, overlap
  an earlier one's by at least DUPLICATE, Jaccard); stored twice is stored once too many, whatever it says;
- ungrounded: its content is not supported by anything the person said: fewer than GROUNDED of its content words
  appear among the content words of the person's messages (all sessions). Both sides are lower-cased, stop words
  (English, French, German, Spanish) and the words the companion frames things with ("mentioned", "user", the
  "called" of how it keeps a name) left out, and stemmed by stripping a few common endings, so "Prefers shorter
  answers" is held to "keep your answers short". A fact about Miso that adds a species nobody named is
  ungrounded however right its name;
- matched: grounded, and it says all the words of one of the scenario's expectations (a fact, an old or new
  value of a correction, a rule, a world card's name);
- junk: grounded and new, but none of the expected things (the rain, a greeting kept as a fact).

The expectations themselves are scored on the items (`score`): facts found (a current memory or world card says
them), corrections superseded (no current memory says the old value and one says the new), rules (a rule not
retired, or a proposal, says them), world cards (one is titled with the name), questions (`recalled_holds`).
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

GROUNDED = 2 / 3
DUPLICATE = 0.75
CLASSES = ("matched", "duplicate", "ungrounded", "junk")

_STOP = set(
    """a an the and or but if then so of to in on at by for with from as into about over after before up out off
    is am are was were be been being do does did have has had having i me my mine myself we our us you your he him
    his she her they them their it its this that these those there here what which who whom when where why how
    not no nor very just also too can could will would shall should may might must than only own same some any
    all each both few more most other such again once further s t don didn doesn isn wasn aren weren wouldn
    i'm i've i'd i'll it's that's let's
    le la les un une des du de et ou mais je tu il elle nous vous ils elles mon ma mes ton ta tes son sa ses notre
    nos votre vos leur leurs ce cet cette ces est suis es sont était été être avoir ai as avons avez ont a au aux
    en dans par pour sur avec sans que qui quoi ne pas plus très bien aussi se me te lui y c j l d n qu s m
    der die das ein eine einen einem einer eines und oder aber ich du er sie es wir ihr mein meine meinen meinem
    meiner dein deine sein seine unser euer ist bin bist sind war waren hat habe hast haben zu im am an auf aus bei
    mit nach von vor für über unter nicht kein keine sehr auch so wie was wer wo dass den dem des
    el la los las un una unos unas y o pero yo tú él ella nosotros vosotros ellos ellas mi mis tu tus su sus
    nuestro nuestra es soy eres son era fue ser estar estoy está están he ha han tengo tiene tienen de del al
    a en con sin por para que qui no muy también se me te le lo""".split()
)
# How the companion frames what it keeps: not the person's content, so neither support nor its lack. "Is called"
# is how it keeps a name, in English whatever the person spoke ("Je m'appelle Amélie": "Is called Amélie" was
# counted ungrounded, "called" being nowhere in the French).
_FRAMING = {
    "mention",
    "mentioned",
    "user",
    "person",
    "said",
    "says",
    "stated",
    "told",
    "they",
    "them",
    "their",
    "called",
}
_ENDINGS = ("ing", "ed", "es", "er", "ly", "s", "e", "en", "n")


def stem(word: str) -> str:
    """A crude stem: a few endings off a long enough word ("shorter" and "short", "called" and "call")."""
    for end in _ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)]
    return word


def words(text: str) -> set[str]:
    """The stemmed content words of a text."""
    return {
        stem(w)
        for w in re.findall(r"[^\W_]+(?:['’][^\W_]+)?", text.lower())
        if w not in _STOP and w not in _FRAMING and len(w) > 1
    }


def says(text: str, expected: Iterable[str]) -> bool:
    """Every expected word or phrase appears in `text`, case-insensitive, as a word or one with a short ending
    ("short" is in "shorter", "dog" in "dogs"; "cat" is not in "category", nor in "scat")."""
    low = text.lower()
    return all(re.search(r"(?<![^\W_])" + re.escape(w.lower()) + r"[^\W_]{0,3}(?![^\W_])", low) for w in expected)


@dataclass(frozen=True)
class Item:
    kind: str  # "memory", "rule", "world", "part"
    id: int
    text: str
    current: bool = True  # a superseded memory, a retired rule: stored, not current


def grounded(text: str, said: set[str]) -> bool:
    """Whether the person's words (`said`: `words` of their messages) support most of what `text` says."""
    mine = words(text)
    return not mine or len(mine & said) >= GROUNDED * len(mine)


def near(a: set[str], b: set[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= DUPLICATE


def expected_words(expect: dict[str, Any]) -> list[list[str]]:
    """Every word list an item may match: facts, corrections (old and new), rules, world card names."""
    out = [list(f["says"]) for f in expect.get("facts", [])]
    for s in expect.get("superseded", []):
        out += [list(s["old"]), list(s["new"])]
    out += [list(r["says"]) for r in expect.get("rules", [])]
    out += [[w["name"]] for w in expect.get("world", [])]
    return [w for w in out if w]


def classify(items: Sequence[Item], said_texts: Iterable[str], expect: dict[str, Any]) -> list[tuple[Item, str]]:
    """Each item with its class (the module's docstring says how), in the order given (oldest first within a
    kind: that decides which of two near-identical items is the duplicate)."""
    said = set().union(*(words(t) for t in said_texts))
    wanted = expected_words(expect)
    seen: dict[str, list[set[str]]] = {}
    out = []
    for item in items:
        mine = words(item.text)
        earlier = seen.setdefault(item.kind, [])
        if any(near(mine, e) for e in earlier):
            cls = "duplicate"
        elif not grounded(item.text, said):
            cls = "ungrounded"
        elif any(says(item.text, w) for w in wanted):
            cls = "matched"
        else:
            cls = "junk"
        earlier.append(mine)
        out.append((item, cls))
    return out


def recalled_holds(texts: Iterable[str], answer: Sequence[str]) -> bool:
    """Whether the answer's words all appear among the recalled items (together: one may hold the date, another
    the name)."""
    return says("\n".join(texts), answer)


@dataclass
class Scored:
    classes: list[tuple[Item, str]]
    facts_found: int
    facts_expected: int
    superseded_ok: int
    superseded_expected: int
    rules_ok: int
    rules_expected: int
    world_ok: int
    world_expected: int
    missing: list[str] = field(default_factory=list)  # the expectations not met, as a person reads them

    def count(self, cls: str) -> int:
        return sum(1 for _, c in self.classes if c == cls)


def score(items: Sequence[Item], proposals: Iterable[str], said_texts: Iterable[str], expect: dict[str, Any]) -> Scored:
    """The items classed, and the expectations met. `proposals`: what waits for the person's say (a rule may be
    one)."""
    classes = classify(items, said_texts, expect)
    holding = [i.text for i in items if i.current and i.kind in ("memory", "world")]
    current_memories = [i.text for i in items if i.current and i.kind == "memory"]
    rules = [i.text for i in items if i.current and i.kind == "rule"] + list(proposals)
    titles = [i.text.split("\n", 1)[0] for i in items if i.kind == "world"]
    missing: list[str] = []

    def met(ok: bool, what: str) -> bool:
        if not ok:
            missing.append(what)
        return ok

    facts = expect.get("facts", [])
    found = sum(met(any(says(t, f["says"]) for t in holding), f"fact: {' + '.join(f['says'])}") for f in facts)
    corrections = expect.get("superseded", [])
    superseded = sum(
        met(
            not any(says(t, s["old"]) for t in current_memories) and any(says(t, s["new"]) for t in current_memories),
            f"correction: {' '.join(s['old'])} -> {' '.join(s['new'])}",
        )
        for s in corrections
    )
    wanted_rules = expect.get("rules", [])
    rules_ok = sum(met(any(says(t, r["says"]) for t in rules), f"rule: {' + '.join(r['says'])}") for r in wanted_rules)
    world = expect.get("world", [])
    world_ok = sum(met(any(says(t, [w["name"]]) for t in titles), f"world card: {w['name']}") for w in world)
    return Scored(
        classes,
        found,
        len(facts),
        superseded,
        len(corrections),
        rules_ok,
        len(wanted_rules),
        world_ok,
        len(world),
        missing,
    )
