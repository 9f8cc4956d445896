"""What a forgotten message's own words reached that nothing links to it.

A forget follows the links: what cites the message is marked or goes (store/forget.py). But the companion also
writes from what it read without citing it: an identity or an inner state cites nothing, and a small model
cites the wrong experience for an insight. QA found "Quentavius", from one forgotten message, still in the
identity, in the growth entry that recorded the rewrite, and in an insight citing another episode.

So the message's names are read before it goes: words capitalised inside a sentence, outside English's most
frequent ("Quentavius", "Miso", "Lisbon", "Алексей"; not "Monday"), four letters or more, other than the two
names; none from a message written in capitals or title case ("Happy Birthday To My Thoughtful Sister!"). A
review and QA found looser rules took the companion's own words: any word outside English's most frequent took
"thoughtful" and, in German or Russian, nearly every word; a word unknown to the word lists took "chatbot".
Once the message has gone, a name that nothing kept still holds (a message, a block, a card, a rule, what the
person wrote anywhere, a memory other than reflection's and the facts the forget marked) can only have come
from it, and what the companion wrote with it goes too (store/forget.py forget_traces). A fact learned from
the message stays, marked for the person to look over, as it does anyway. Not found: a name in small letters, in
another grammatical case ("Алексее"), or in a script without capitals (Chinese, Japanese).
"""

import re

from ..retrieval.fts import terms
from ..store.forget import said
from ..store.provenance import Source
from ..store.soul import Soul
from ..trust.readable import common

SPECIFIC_LETTERS = 4  # shorter names ("Jo", "Ada") are too often someone else's too
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_END = ".!?:;\"'(…\n"


def specific_words(soul: Soul, kind: str, item_id: int, names: tuple[str, ...]) -> list[str]:
    """A message's names, in small letters, read before it goes (none for another kind)."""
    if kind != "message":
        return []
    rows = soul.query("SELECT content FROM messages WHERE id = ?", (item_id,))
    return specific(rows[0]["content"], names) if rows else []


def specific(text: str, names: tuple[str, ...] = ()) -> list[str]:
    words = list(_WORD.finditer(text))
    long = [m.group() for m in words if len(m.group()) >= SPECIFIC_LETTERS]
    if sum(w[0].isupper() for w in long) * 2 > len(long):
        return []  # shouted, or in title case: its capitals name nothing
    own = set(terms(" ".join(names)))
    out = []
    for m in words:
        word, lower = m.group(), m.group().lower()
        inside = m.start() > 0 and text[: m.start()].rstrip()[-1:] not in _SENTENCE_END
        if (
            len(word) >= SPECIFIC_LETTERS
            and inside
            and word[0].isupper()
            and not word.isupper()
            and lower not in own
            and lower not in out
            and not common(lower)
        ):
            out.append(lower)
    return out


def only_theirs(soul: Soul, words: list[str], marked: set[int]) -> re.Pattern[str] | None:
    """After the forget, in its transaction: the names nothing kept still holds (`marked`: the memories the
    forget marked, which hold none for this), as a pattern that finds them (with a plural or a possessive)."""
    written: list[str] = []  # the small tables' texts, read once for all the names (a card can be long)
    alone = [w for w in words if not _indexed(soul, w, marked) and not _written(soul, w, written)]
    if not alone:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in alone) + r")(?:e?s)?(?!\w)", re.I)


def _indexed(soul: Soul, word: str, marked: set[int]) -> bool:
    """Whether a message, a world card, or a memory not of reflection's own holds `word` (by their full-text
    indexes)."""
    quoted = '"' + word.replace('"', '""') + '"'
    if soul.query("SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1", (f"content : {quoted}",)):
        return True
    if soul.query("SELECT 1 FROM world_cards_fts WHERE world_cards_fts MATCH ? LIMIT 1", (quoted,)):
        return True
    # A memory that is not reflection's own: the person's, or learned from another message.
    return any(
        r["id"] not in marked
        for r in soul.query(
            f"SELECT m.id FROM memories_fts f JOIN memories m ON m.id = f.rowid LEFT JOIN provenance p ON "
            f"p.item_kind = 'memory' AND p.item_id = m.id WHERE memories_fts MATCH ? AND "
            f"coalesce(p.source, '') != '{Source.REFLECTION.value}'",
            (quoted,),
        )
    )


def _written(soul: Soul, word: str, texts: list[str]) -> bool:
    """Whether a block, a rule, a card or whatever the person wrote holds `word`, in any letters' case. `texts`:
    those texts, read on the first call into the list given, which the next calls reuse."""
    if not texts:
        texts.extend(
            said(r["t"]) or ""
            for r in soul.query(
                "SELECT content AS t FROM blocks UNION ALL SELECT pattern FROM behavioral_rules UNION ALL "
                "SELECT data FROM character_cards UNION ALL SELECT persona FROM character_cards UNION ALL "
                "SELECT after FROM edit_history WHERE actor = 'user'"
            )
        )  # and whatever the person wrote
        texts.append("")  # read, even when there was nothing to read
    found = re.compile(rf"(?<!\w){re.escape(word)}", re.I)
    return any(found.search(t) for t in texts)
