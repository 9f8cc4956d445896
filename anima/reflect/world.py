"""Deep reflection keeps world cards (seed 002; issue 42 part 3): the people, places and pets that come up again
in what the person says get a card, and a card made so is brought up to date when they come up again.

Code decides what is written; the model only words it:
- which names: a word the person wrote capitalised inside a sentence ("my sister Jo", "a cat called Miso"), in
  two of their own messages at least (text from outside and the companion's replies never count), not a month,
  a day, their name or the companion's; asked about when a new message names it (meta WORLD_THROUGH: the newest
  message read), so a name is asked about again only when it comes up again. No name is kept outside the
  messages and the cards: a forget leaves none behind;
- what a card says: the model's words about a name, each sentence grounded in what the person said where they
  named it (a sentence that is not is left out); no secret, no order, nothing said to them (verdict.unfit,
  voice.addressed: what the gate refuses for what is always in mind);
- its keys: the name, and of the model's keys only words the person used where they named it;
- a card the person wrote, imported or edited is theirs: reflection leaves it as it is;
- a card cites the messages it was drawn from: forgetting one of them forgets the card (store/forget.py), which
  is made again from what is left when the name comes up again.
Every answer left out is logged with its reason. The clerk (knowledge/world.py) wakes a card by its title or a
key in a later turn.
"""

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..knowledge.messages import Messages
from ..knowledge.world import CARD_KINDS, KEYWORD_CHARS, KEYWORDS, WorldCards
from ..models.chat import ChatModel, Message
from ..models.structured import StructuredOutputFailed, ask_structured
from ..retrieval.fts import stems
from ..store.provenance import Provenance, Source
from ..store.soul import Soul
from ..trust.text import clean
from ..trust.verdict import unfit
from ..trust.words import once
from .statements import sentences
from .voice import addressed

log = logging.getLogger(__name__)

WORLD_THROUGH = "deep_world_through"  # the newest message whose names were read
AGAIN = 2  # a name comes up again: in this many of the person's messages
CARDS_PER_RUN = 4
SAID_PER_NAME = 6  # the person's newest messages naming it, read beside it
NAMING = 50  # the person's messages read for how often and how they name it
PAGE = 200
ABOUT_CHARS = 400  # a few sentences (a card's body may hold BODY_CHARS: the person may write more)
# Of a sentence's content words (stemmed), the share that must be in what the person said where they named it
# (or be their name): a card words it in the third person ("Jo works as a nurse" of "Jo just started a new job
# as a nurse"), so not all; "She won the lottery" shares none.
GROUNDED = 0.5

_WORD = re.compile(r"(?<![\w'’])([A-Z][a-z\u00e0-\u024f]{1,30})(?:['’]s)?(?![\w'’])")
_NOT_NAMES = frozenset(
    """
january february march april may june july august september october november december monday tuesday wednesday
thursday friday saturday sunday christmas easter english internet okay ok
""".split()
)

WORLD = (
    "You keep world cards for {name}: short notes about the people, places, pets and projects in {person}'s "
    "life. For each name below, from what {person} said and nothing else, write: kind (a pet is a person); "
    "about: who or what it is to {person}, in the third person, one to three short sentences; keys: words from "
    "{person}'s messages that call it to mind, the name first. Leave out a name that is none of these."
)


@dataclass
class Kept:
    """What keeping the world did: cards made and brought up to date, answers left out."""

    made: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    dropped: int = 0
    malformed: int = 0


def named(text: str) -> list[tuple[str, bool]]:
    """The names a message holds, each once, with whether it was written inside a sentence (capitalised there,
    it is a name; at a sentence's start, any word is)."""
    out: dict[str, bool] = {}
    for s in sentences(text):
        for m in _WORD.finditer(s):
            word = m.group(1)
            if word.lower() in _NOT_NAMES:
                continue
            inside = bool(re.search(r"\w", s[: m.start()]))
            out[word] = out.get(word, False) or inside
    return list(out.items())


def schema(names: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["cards"],
        "properties": {
            "cards": {
                "type": "array",
                "maxItems": len(names),
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["name", "kind", "about", "keys"],
                    "properties": {
                        "name": {"type": "string", "enum": names},
                        "kind": {"type": "string", "enum": list(CARD_KINDS)},
                        "about": {"type": "string", "maxLength": ABOUT_CHARS},
                        "keys": {
                            "type": "array",
                            "maxItems": KEYWORDS,
                            "items": {"type": "string", "maxLength": KEYWORD_CHARS},
                        },
                    },
                },
            }
        },
    }


class WorldKeeping:
    """The job. `names()`: the companion's name and the person's."""

    def __init__(
        self, soul: Soul, chat: ChatModel, messages: Messages, cards: WorldCards, names: Callable[[], tuple[str, str]]
    ):
        self.soul, self.chat, self.messages, self.cards, self.names = soul, chat, messages, cards, names

    def run(self, cancel: threading.Event | None = None) -> Kept:
        kept = Kept()
        due, through = self._due()
        if cancel is not None and cancel.is_set():
            return kept
        if not due:
            self.soul.set_meta(WORLD_THROUGH, str(through))
            return kept
        said = {name: rows[:SAID_PER_NAME][::-1] for name, rows in due.items()}
        cards = self.cards.all()
        try:
            with self.chat.aside():
                answer = ask_structured(
                    self.chat,
                    self._prompt(list(due), said, cards),
                    schema(list(due)),
                    what="world cards",
                    temperature=0.2,
                    cancel=cancel,
                )
        except StructuredOutputFailed as e:
            if cancel is not None and cancel.is_set():
                return kept
            log.warning("world cards: no valid answer in %d tries", len(e.attempts))
            kept.malformed += 1
            answer = {"cards": []}
        # A card the person wrote, imported or changed is theirs: all but those reflection made and kept alone.
        theirs = self._theirs(cards)
        with self.soul.transaction():
            for card in answer["cards"]:
                if card["name"] in said:
                    self._keep(card, said.pop(card["name"]), cards, theirs, kept)
                else:
                    _dropped(kept, card["name"], "a card for that name came first in the answer")
            # Asked and not answered: asked again when they name it again.
            self.soul.set_meta(WORLD_THROUGH, str(through))
        log.info("world cards: %d made, %d brought up to date, %d left out", *_counts(kept))
        return kept

    def _due(self) -> tuple[dict[str, list[dict[str, Any]]], int]:
        """The names new messages of the person's bring up again, the most named first, each with the person's
        messages naming it (newest first); and the newest message read."""
        through = self.soul.get_int(WORLD_THROUGH, 0)
        companion, person = self.names()
        own = {companion.lower(), (person or "").lower()}
        new: dict[str, None] = {}
        while rows := self.messages.after(through, PAGE):
            for m in rows:
                if _theirs_said(m):
                    new.update((name, None) for name, _ in named(m["content"]) if name.lower() not in own)
            through = rows[-1]["id"]
        due: dict[str, list[dict[str, Any]]] = {}
        for name in new:
            rows = [m for m in self.messages.naming(name, NAMING) if _theirs_said(m)]
            found = [dict(named(m["content"])).get(name) for m in rows]
            rows = [m for m, inside in zip(rows, found, strict=True) if inside is not None]
            if len(rows) >= AGAIN and any(found):
                due[name] = rows
        ranked = sorted(due, key=lambda n: -len(due[n]))[:CARDS_PER_RUN]
        return {n: due[n] for n in ranked}, through

    def _theirs(self, cards: list[dict[str, Any]]) -> set[int]:
        made = self.cards.from_source(Source.REFLECTION)
        return {c["id"] for c in cards if c["id"] not in made or self.cards.edited_by_them(c["id"])}

    def _prompt(
        self, due: list[str], said: dict[str, list[dict[str, Any]]], cards: list[dict[str, Any]]
    ) -> list[Message]:
        companion, person = self.names()
        person = person or "the person"
        parts = []
        for name in due:
            card = _card_for(name, cards)
            now = f"{card['body']}" if card else "(none yet)"
            lines = "\n".join(f"- {' '.join(m['content'].split())[:400]}" for m in said[name])
            parts.append(f"Name: {name}\nIts card now: {now}\nWhat {person} said:\n{lines}")
        return [
            {"role": "system", "content": WORLD.format(name=companion, person=person)},
            {"role": "user", "content": "\n\n".join(parts)},
        ]

    def _keep(
        self,
        card: dict[str, Any],
        rows: list[dict[str, Any]],
        cards: list[dict[str, Any]],
        theirs: set[int],
        kept: Kept,
    ) -> None:
        name = card["name"]
        said = [m["content"] for m in rows]
        heard = stems(" ".join([*said, self.names()[1] or ""]))
        about = once(clean(" ".join(card["about"].split())))
        if why := unfit(about):
            return _dropped(kept, name, f"not fit to keep ({why})")
        if addressed(about):
            return _dropped(kept, name, "it speaks to the person: a reply, not a card")
        told = sentences(about)
        body = " ".join(s for s in told if _grounded(s, heard, name))
        if not body:
            return _dropped(kept, name, "nothing in it is in what the person said")
        if (ungrounded := sum(not _grounded(s, heard, name) for s in told)) > 0:
            log.info("world cards: %d sentence(s) of a card left out: not in what the person said", ungrounded)
        words = " ".join(said).lower()
        keys = [name] + [
            k.strip()
            for k in card["keys"]
            if k.strip()
            and k.strip().lower() != name.lower()
            and re.search(rf"(?<!\w){re.escape(k.strip().lower())}(?!\w)", words)
        ]
        keys = list(dict.fromkeys(keys))[:KEYWORDS]
        old = _card_for(name, cards)
        if old is not None and old["id"] in theirs:
            return _dropped(kept, name, "the person's own card: theirs to change")
        if old is None:
            cid = self.cards.create(
                card["kind"], name, body, keys, actor="ai", provenance=Provenance(Source.REFLECTION)
            )
            kept.made.append(cid)
            self._cite(cid, rows)
            return None
        merged = list(dict.fromkeys([*old["keywords"], *keys]))[:KEYWORDS]
        if old["body"] != body or old["keywords"] != merged:
            self.cards.update(old["id"], actor="ai", body=body, keywords=merged, kind=card["kind"])
            kept.updated.append(old["id"])
            self._cite(old["id"], rows)
        return None

    def _cite(self, card_id: int, rows: list[dict[str, Any]]) -> None:
        """The messages a card was drawn from: forgetting one forgets the card (store/forget.py)."""
        cited = set(self.soul.citations("world_card", card_id))
        for m in rows:
            if ("message", m["id"]) not in cited:
                self.soul.cite("world_card", card_id, "message", m["id"])


def _theirs_said(m: dict[str, Any]) -> bool:
    """A message in the person's own words (not text from outside, not the companion's)."""
    return bool(m["role"] == "user" and m.get("source") in (None, Source.PERSON.value))


def _card_for(name: str, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
    low = name.lower()
    for c in cards:
        if c["title"].lower() == low:
            return c
    return None


def _grounded(sentence: str, heard: set[str], name: str) -> bool:
    own = stems(sentence) - stems(name)
    return bool(own) and len(own & heard) >= GROUNDED * len(own)


def _dropped(kept: Kept, name: str, why: str) -> None:
    kept.dropped += 1
    log.info("world cards: the card for a name was left out: %s", why)


def _counts(kept: Kept) -> tuple[int, int, int]:
    return len(kept.made), len(kept.updated), kept.dropped
