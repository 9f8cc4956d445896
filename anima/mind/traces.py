"""What a forgotten message's own words reached that nothing links to it.

A forget follows the links: what cites the message is marked or goes (store/forget.py). But the companion also
writes from what it read without citing it: an identity or an inner state cites nothing, and a small model
cites the wrong experience for an insight. QA found "Quentavius", from one forgotten message, still in the
identity, in the growth entry that recorded the rewrite, and in an insight citing another episode.

So the message's specific words are read before it goes: names (a word capitalised inside a sentence, outside
English's most frequent: "Quentavius", "Miso", "Lisbon", not "Monday") and words no language weighed writes
(mind/readable.py: "zorblatt" typed in small letters; not "kayak", "cozy", "heute"), four letters or more,
other than the two names. A review found a looser rule (any word outside English's most frequent) took the
companion's own words ("thoughtful", "warmth") and, in German, nearly every word. Once the message has gone, a
specific word that nothing kept still holds (a message, a block, a card, a rule, a memory other than
reflection's and the ones the forget marked) can only have come from it, and what the companion wrote with it
goes too (store/forget.py forget_traces). A fact learned from the message stays, marked for the person to look
over, as it does anyway. Scripts written without capitals or spaces (Chinese, Japanese) give no such word.
"""

import re

from ..retrieval.fts import terms
from ..store.provenance import Source
from ..store.soul import Soul
from .readable import common, unknown

SPECIFIC_LETTERS = 4  # shorter words ("jo", "ada", "ok") are too often someone else's too
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_END = ".!?:;\"'(…\n"


def specific_words(soul: Soul, kind: str, item_id: int, names: tuple[str, ...]) -> list[str]:
    """A message's specific words, in small letters, read before it goes (none for another kind)."""
    if kind != "message":
        return []
    rows = soul.query("SELECT content FROM messages WHERE id = ?", (item_id,))
    return specific(rows[0]["content"], names) if rows else []


def specific(text: str, names: tuple[str, ...] = ()) -> list[str]:
    own = set(terms(" ".join(names)))
    out = []
    for m in _WORD.finditer(text):
        word = m.group().lower()
        if len(word) < SPECIFIC_LETTERS or word in own or word in out:
            continue
        inside = m.start() > 0 and text[:m.start()].rstrip()[-1:] not in _SENTENCE_END
        if inside and m.group()[0].isupper() and not common(word) or unknown(word):
            out.append(word)
    return out


def only_theirs(soul: Soul, words: list[str]) -> re.Pattern | None:
    """After the forget, in its transaction: the words nothing kept still holds, as a pattern that finds them
    (with a plural or a possessive)."""
    alone = [w for w in words if not _held(soul, w)]
    if not alone:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in alone) + r")(?:e?s)?(?!\w)", re.I)


def _held(soul: Soul, word: str) -> bool:
    quoted = '"' + word.replace('"', '""') + '"'
    if soul.query("SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1", (f"content : {quoted}",)):
        return True
    if soul.query("SELECT 1 FROM world_cards_fts WHERE world_cards_fts MATCH ? LIMIT 1", (quoted,)):
        return True
    # A memory the forget did not mark (a fact from it is marked, and stays for the person to judge) that is not
    # reflection's own: the person's, or learned from another message.
    if soul.query(f"SELECT 1 FROM memories_fts f JOIN memories m ON m.id = f.rowid LEFT JOIN provenance p ON "
                  f"p.item_kind = 'memory' AND p.item_id = m.id WHERE memories_fts MATCH ? AND "
                  f"m.needs_regeneration = 0 AND coalesce(p.source, '') != '{Source.REFLECTION.value}' LIMIT 1",
                  (quoted,)):
        return True
    found = re.compile(rf"(?<!\w){re.escape(word)}", re.I)  # small tables, read whole: any letters' case
    return any(found.search(r["t"] or "") for r in soul.query(
        "SELECT content AS t FROM blocks UNION ALL SELECT pattern FROM behavioral_rules UNION ALL "
        "SELECT data FROM character_cards UNION ALL SELECT persona FROM character_cards"))
