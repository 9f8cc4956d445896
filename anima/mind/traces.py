"""What a forgotten message's own words reached that nothing links to it.

A forget follows the links: what cites the message is marked or goes (store/forget.py). But the companion also
writes from what it read without citing it: an identity or an inner state cites nothing, and a small model
cites the wrong experience for an insight. QA found "Quentavius", from one forgotten message, still in the
identity, in the growth entry that recorded the rewrite, and in an insight citing another episode.

So the message's specific words are read before it goes: those outside English's most frequent words (by
wordfreq, as the gate's readability check reads them: "Quentavius", "kayak", not "sister"), other than the two
names. Once it has gone, a word that no message, world card or character card still holds can only have come
from it, and what the companion wrote with it goes too (store/forget.py forget_traces). A fact learned from the
message stays, marked for the person to look over, as it does anyway.
"""

import re

from ..retrieval.fts import terms
from ..store.soul import Soul
from .readable import common

SPECIFIC_LETTERS = 4  # shorter words ("jo", "ada", "ok") are too often someone else's too


def specific_words(soul: Soul, kind: str, item_id: int, names: tuple[str, ...]) -> list[str]:
    """A message's specific words, read before it goes (none for another kind)."""
    if kind != "message":
        return []
    rows = soul.query("SELECT content FROM messages WHERE id = ?", (item_id,))
    if not rows:
        return []
    own = set(terms(" ".join(names)))
    return [w for w in terms(rows[0]["content"])
            if len(w) >= SPECIFIC_LETTERS and w.isalpha() and w not in own and not common(w)]


def only_theirs(soul: Soul, words: list[str]) -> re.Pattern | None:
    """After the forget, in its transaction: the words nothing kept still holds, as a pattern that finds them."""
    alone = [w for w in words if not _held(soul, w)]
    if not alone:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in alone) + r")(?!\w)", re.I)


def _held(soul: Soul, word: str) -> bool:
    quoted = '"' + word.replace('"', '""') + '"'
    if soul.query("SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1", (f"content : {quoted}",)):
        return True
    if soul.query("SELECT 1 FROM world_cards_fts WHERE world_cards_fts MATCH ? LIMIT 1", (quoted,)):
        return True
    like = f"%{word}%"
    return bool(soul.query("SELECT 1 FROM character_cards WHERE data LIKE ? OR persona LIKE ? LIMIT 1", (like, like)))
