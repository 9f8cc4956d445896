"""World cards (seed 002, seed 003 section 2.7) and the clerk that brings the right ones to each moment.

A card is a short prose card about the people, places, recurring situations,
projects, platforms and threads of the person's life, with optional keywords.
A card that came from a lorebook (interchange/lorebook.py) may be disabled (never woken)
and keeps the entry's options: it wakes by its keys as SillyTavern's World Info
would (secondary keys and their logic, case, whole words or not, constant entries), not by its title.
"""

import json
import re
from collections.abc import Sequence, Set
from typing import Any

from ..errors import InvalidEdit
from ..retrieval.indexer import Indexer
from ..retrieval.recall import COMPANION_WORDS, Recall, Recalled
from ..store.forget import UNSPACED
from ..store.provenance import Provenance, Source
from ..store.soul import Soul, now
from ..trust.text import unfit_text

CARD_KINDS = ("person", "place", "situation", "project", "platform", "thread")
TITLE_CHARS, BODY_CHARS, KEYWORDS, KEYWORD_CHARS = 80, 1200, 12, 40
# An entry of an imported lorebook may be longer, with more keys: a recalled item is cut to what touches the
# moment anyway (workspace/note.py).
IMPORTED_BODY_CHARS, IMPORTED_KEYWORDS, IMPORTED_KEYWORD_CHARS = 16_000, 64, 200


def _validated(kind: str, title: str, body: str, keywords: list[str], imported: bool = False) -> dict[str, str]:
    if kind not in CARD_KINDS:
        raise InvalidEdit(f"A world card is about one of: {', '.join(CARD_KINDS)}.")
    title, body = (title or "").strip(), (body or "").strip()
    if not title or not body:
        raise InvalidEdit("A world card needs a title and some text.")
    body_chars, most, chars = (
        (IMPORTED_BODY_CHARS, IMPORTED_KEYWORDS, IMPORTED_KEYWORD_CHARS)
        if imported
        else (BODY_CHARS, KEYWORDS, KEYWORD_CHARS)
    )
    if len(title) > TITLE_CHARS or len(body) > body_chars:
        raise InvalidEdit(f"A card's title holds at most {TITLE_CHARS} characters and its text {body_chars}.")
    keywords = [k.strip() for k in keywords or [] if k and k.strip()]
    texts = [("The card's title", title), ("The card's text", body), *(("A keyword", k) for k in keywords)]
    if bad := unfit_text(texts, names=("The card's title", "A keyword")):
        raise InvalidEdit(f"{bad}: write it without that character.")
    if len(keywords) > most or any(len(k) > chars for k in keywords):
        raise InvalidEdit(f"A card has at most {most} keywords of at most {chars} characters.")
    return {"kind": kind, "title": title, "body": body, "keywords": json.dumps(keywords, ensure_ascii=False)}


class WorldCards:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer

    def create(
        self,
        kind: str,
        title: str,
        body: str,
        keywords: Sequence[str] = (),
        actor: str = "user",
        *,
        enabled: bool = True,
        options: dict[str, Any] | None = None,
        provenance: Provenance | None = None,
    ) -> int:
        """`options`, `provenance`: a lorebook entry's (interchange/lorebook.py); its larger limits come with them."""
        fields = _validated(kind, title, body, list(keywords), imported=bool(options))
        t = now()
        made = provenance or (Provenance(Source.APP) if actor == "user" else None)  # the person's, in the Open Mind
        extra = {"enabled": int(enabled), "options": json.dumps(options or {}, ensure_ascii=False)}
        vectors = self.indexer.embed("world_card", [fields])  # before: the card and its vector go together
        with self.indexer.transaction():
            cid = self.soul.add("world_card", actor, provenance=made, **fields, **extra, created_at=t, updated_at=t)
            self.indexer.put("world_card", [cid], vectors)
        return cid

    def update(self, card_id: int, *, actor: str = "user", **changes: str | list[str]) -> None:
        old = self.soul.get("world_card", card_id)
        merged: dict[str, Any] = {
            "kind": old["kind"],
            "title": old["title"],
            "body": old["body"],
            "keywords": json.loads(old["keywords"]),
            **changes,
        }
        fields = _validated(
            merged["kind"],
            merged["title"],
            merged["body"],
            merged["keywords"],
            imported=old.get("options", "{}") != "{}",
        )
        vectors = self.indexer.embed("world_card", [fields])
        with self.indexer.transaction():
            self.soul.update("world_card", card_id, actor, **fields, updated_at=now())
            self.indexer.put("world_card", [card_id], vectors)

    def set_enabled(self, card_id: int, on: bool, actor: str = "user") -> None:
        """Turn a card on or off: a card that is off stays, and is shown, but the clerk never wakes it (a
        lorebook's disabled entry comes in off; the person may turn it on)."""
        self.soul.update("world_card", card_id, actor, enabled=int(on), updated_at=now())

    def all(self) -> list[dict[str, Any]]:
        return [
            {**r, "keywords": json.loads(r["keywords"]), "options": json.loads(r["options"])}
            for r in as_stored(self.soul)
        ]

    def existing(self) -> set[tuple[str, str, tuple[str, ...]]]:
        """(title, body, keywords) of every card: what a lorebook entry already here is known by."""
        return {
            (r["title"], r["body"], tuple(json.loads(r["keywords"])))
            for r in self.soul.query("SELECT title, body, keywords FROM world_cards")
        }

    def from_cards(self) -> set[int]:
        """The ids of the cards that came in from an imported character card or lorebook."""
        return self.from_source(Source.CARD)

    def edited_by_them(self, card_id: int) -> bool:
        """Whether the person changed a card themselves (in the Open Mind): it is theirs then, whoever made it."""
        return any(h["actor"] == "user" for h in self.soul.history("world_card", card_id))

    def from_source(self, source: Source) -> set[int]:
        """The ids of the cards made from `source` (REFLECTION: those deep reflection keeps, reflect/world.py)."""
        return {
            r["item_id"]
            for r in self.soul.query(
                "SELECT item_id FROM provenance WHERE item_kind = 'world_card' AND source = ?", (source.value,)
            )
        }


def as_stored(soul: Soul) -> list[dict[str, Any]]:
    """Every world card as its row is stored (keywords and options as JSON text), by kind and title."""
    return soul.query("SELECT * FROM world_cards ORDER BY kind, title")


class Clerk:
    """Picks what matches this moment: memories, episodes and cards by meaning and words, cards also by keyword."""

    def __init__(self, soul: Soul, recall: Recall):
        self.soul = soul
        self.recall = recall

    def pick(self, text: str, k: int, exclude: Set[tuple[str, int]] = frozenset()) -> list[Recalled]:
        cards = self.soul.query(
            "SELECT w.id, w.kind, w.title, w.body, w.keywords, w.updated_at, w.enabled, w.options, "
            "(SELECT source FROM provenance WHERE item_kind = 'world_card' AND item_id = w.id) AS origin "
            "FROM world_cards AS w"
        )
        disabled = {("world_card", c["id"]) for c in cards if not c["enabled"]}
        found = [
            r
            for r in self.recall.search(text, k, exclude=exclude, companion_words=COMPANION_WORDS)
            if r.key not in disabled
        ]
        have = {r.key for r in found}
        woken: list[tuple[int, Recalled]] = []
        for card in cards:
            if ("world_card", card["id"]) in have or not card["enabled"]:
                continue
            options = json.loads(card["options"])
            word = _wakes(text, card["title"], json.loads(card["keywords"]), options)
            if word is not None:
                row = {key: card[key] for key in ("id", "kind", "title", "body", "keywords", "updated_at", "origin")}
                woken.append(
                    (
                        -int(options.get("order") or 0),
                        Recalled(
                            "world_card",
                            card["id"],
                            f"{card['title']}: {card['body']}",
                            card["updated_at"],
                            0.0,
                            {"keyword": word},
                            row,
                        ),
                    )
                )
        # A lorebook's higher insertion order first, as SillyTavern gives it the higher priority.
        picked = found + [r for _, r in sorted(woken, key=lambda pair: pair[0])]
        # A card written in Anima that the message names by its title (a person, a place, a pet of their life) is
        # what the message is about: it comes first. A turn takes a few items, and the messages that say the name
        # too would otherwise keep the card out (issue 42: "Jo rang" brought three messages, not Jo's card).
        named = {("world_card", c["id"]) for c in cards if c["enabled"] and _names(text, c)}
        return [r for r in picked if r.key in named] + [r for r in picked if r.key not in named]


_REGEX_KEY = re.compile(r"^/(.{1,200})/([a-z]*)$", re.S)
# A key that is a pattern with a quantified group holding a quantifier (catastrophic backtracking) is not run.
_NESTED = re.compile(r"\([^)]*[*+}][^)]*\)\s*[*+{]")


def _matches(key: str, text: str, case_sensitive: bool, whole_words: bool = True) -> bool:
    """Whether a key is in a text: as a whole word, unless the entry says otherwise (`whole_words`) or the key is
    in a script written without spaces (a word there is found inside a run of letters); a /pattern/ as it says."""
    if m := _REGEX_KEY.match(key):
        if _NESTED.search(m.group(1)):
            return False
        try:
            pattern = re.compile(m.group(1), re.I if "i" in m.group(2) else 0)
        except re.error:
            return False
        return pattern.search(text) is not None
    flags = 0 if case_sensitive else re.I
    words = rf"(?<!\w){re.escape(key)}(?!\w)" if whole_words and not UNSPACED.search(key) else re.escape(key)
    return re.search(words, text, flags) is not None


def _names(text: str, card: dict[str, Any]) -> bool:
    """Whether `text` names a card written in Anima (or one that kept waking by its title) by its title."""
    options = json.loads(card["options"])
    return (not options or bool(options.get("title_wakes"))) and _matches(card["title"], text, False)


def _wakes(text: str, title: str, keywords: list[str], options: dict[str, Any]) -> str | None:
    """The word that wakes a card in `text`, or None. A card written in Anima wakes by its title or a keyword (and
    keeps doing so after a trip through a lorebook: `title_wakes`); a lorebook entry by its keys, then its
    secondary keys by their logic (SillyTavern's selectiveLogic: 0 AND ANY, 1 NOT ALL, 2 NOT ANY, 3 AND ALL); a
    constant entry always."""
    if options.get("constant"):
        return "(constant)"
    case = bool(options.get("case_sensitive"))
    # SillyTavern's match_whole_words, when an entry sets it off; whole words otherwise.
    extensions = options.get("extensions")  # (an object where Anima wrote it; a core's may hold anything)
    whole = not (isinstance(extensions, dict) and extensions.get("match_whole_words") is False)
    words = [title, *keywords] if not options or options.get("title_wakes") else keywords
    word = next((w for w in words if w and _matches(w, text, case, whole)), None)
    secondary = [w for w in options.get("secondary_keys") or [] if w]
    if word is None or not options.get("selective") or not secondary:
        return word
    hits = [_matches(w, text, case, whole) for w in secondary]
    logic = options.get("selective_logic", 0)
    passed = {0: any(hits), 1: not all(hits), 2: not any(hits), 3: all(hits)}.get(logic, any(hits))
    return word if passed else None
