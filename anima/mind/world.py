"""World cards (seed 002, seed 003 section 2.7) and the clerk that brings the right ones to each moment.

A card is a short prose card about the people, places, recurring situations,
projects, platforms and threads of the person's life, with optional keywords.
"""

import json
import re

from ..errors import InvalidEdit
from ..retrieval.indexer import Indexer
from ..retrieval.recall import Recall, Recalled
from ..store.provenance import Provenance, Source
from ..store.soul import Soul, now

CARD_KINDS = ("person", "place", "situation", "project", "platform", "thread")
TITLE_CHARS, BODY_CHARS, KEYWORDS, KEYWORD_CHARS = 80, 1200, 12, 40


def _validated(kind: str, title: str, body: str, keywords: list[str]) -> dict:
    if kind not in CARD_KINDS:
        raise InvalidEdit(f"A world card is about one of: {', '.join(CARD_KINDS)}.")
    title, body = (title or "").strip(), (body or "").strip()
    if not title or not body:
        raise InvalidEdit("A world card needs a title and some text.")
    if len(title) > TITLE_CHARS or len(body) > BODY_CHARS:
        raise InvalidEdit(f"A card's title holds at most {TITLE_CHARS} characters and its text {BODY_CHARS}.")
    keywords = [k.strip() for k in keywords or [] if k and k.strip()]
    if len(keywords) > KEYWORDS or any(len(k) > KEYWORD_CHARS for k in keywords):
        raise InvalidEdit(f"A card has at most {KEYWORDS} keywords of at most {KEYWORD_CHARS} characters.")
    return {"kind": kind, "title": title, "body": body, "keywords": json.dumps(keywords, ensure_ascii=False)}


class WorldCards:
    def __init__(self, soul: Soul, indexer: Indexer):
        self.soul = soul
        self.indexer = indexer

    def create(self, kind: str, title: str, body: str, keywords: list[str] = (), actor: str = "user") -> int:
        fields = _validated(kind, title, body, list(keywords))
        t = now()
        made = Provenance(Source.APP) if actor == "user" else None  # a card the person wrote in the Open Mind
        cid = self.soul.add("world_card", actor, provenance=made, **fields, created_at=t, updated_at=t)
        self.indexer.index_items("world_card", [{"id": cid, **fields}])
        return cid

    def update(self, card_id: int, *, actor: str = "user", **changes) -> None:
        old = self.soul.get("world_card", card_id)
        merged = {"kind": old["kind"], "title": old["title"], "body": old["body"],
                  "keywords": json.loads(old["keywords"]), **changes}
        fields = _validated(merged["kind"], merged["title"], merged["body"], merged["keywords"])
        self.soul.update("world_card", card_id, actor, **fields, updated_at=now())
        self.indexer.index_items("world_card", [{"id": card_id, **fields}])

    def all(self) -> list[dict]:
        return [{**r, "keywords": json.loads(r["keywords"])}
                for r in self.soul.query("SELECT * FROM world_cards ORDER BY kind, title")]


class Clerk:
    """Picks what matches this moment: memories, episodes and cards by meaning and words, cards also by keyword."""

    def __init__(self, soul: Soul, recall: Recall):
        self.soul = soul
        self.recall = recall

    def pick(self, text: str, k: int, exclude=frozenset()) -> list[Recalled]:
        found = self.recall.search(text, k, exclude=exclude)
        have = {r.key for r in found}
        lowered = text.lower()
        for card in self.soul.query("SELECT id, kind, title, body, keywords, updated_at FROM world_cards"):
            if ("world_card", card["id"]) in have:
                continue
            for word in [card["title"], *json.loads(card["keywords"])]:
                if word and re.search(rf"(?<!\w){re.escape(word.lower())}(?!\w)", lowered):
                    found.append(Recalled("world_card", card["id"], f"{card['title']}: {card['body']}",
                                          card["updated_at"], 0.0, {"keyword": word}, card))
                    break
        return found
