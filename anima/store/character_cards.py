"""What of the character_cards table the generic store (Soul.add, get, update) does not do: a card's picture
beside its row, the newest card, and the one rewrite of the cards stored before they were kept so (m013).

What a card is and what of it is kept is interchange's (interchange/characters.py, card_kept.py); the SQL is here.
"""

from collections.abc import Callable

import sqlcipher3

from .migrations import CARDS_TO_KEEP
from .soul import Row, Soul

Kept = Callable[[str], tuple[str, int]]  # a stored text -> (what is kept of it, how many sentences went)


def set_avatar(con: sqlcipher3.Connection, card_id: int, avatar: str) -> None:
    """The card's picture (base64), kept beside the row, not in its edit history (a picture is not an edit); in
    the caller's transaction."""
    con.execute("UPDATE character_cards SET avatar = ? WHERE id = ?", (avatar, card_id))


def newest(soul: Soul) -> Row | None:
    """The last imported card's row, or None."""
    rows = soul.query("SELECT * FROM character_cards ORDER BY id DESC LIMIT 1")
    return rows[0] if rows else None


def keep_as_kept(soul: Soul, data: Kept, edit: Callable[[str | None], tuple[str | None, int]]) -> int:
    """For a soul m013 marked: each card's data (through `data`), and the old and new values of every edit of a
    card (through `edit`), rewritten as they are kept, in one transaction that also removes the mark. Returns how
    many sentences went: 0 too when another program on this soul did it meanwhile."""
    gone = 0
    with soul.transaction() as con:
        if con.execute("SELECT 1 FROM meta WHERE key = ?", (CARDS_TO_KEEP,)).fetchone() is None:
            return 0  # another program on this soul did it meanwhile
        for card_id, text in con.execute("SELECT id, data FROM character_cards").fetchall():
            text, n = data(text)
            if n:
                con.execute("UPDATE character_cards SET data = ? WHERE id = ?", (text, card_id))
                gone += n
        for edit_id, *values in con.execute(
            "SELECT id, before, after FROM edit_history WHERE item_kind = 'character_card'"
        ).fetchall():
            (before, n_before), (after, n_after) = (edit(v) for v in values)
            if n_before or n_after:
                con.execute("UPDATE edit_history SET before = ?, after = ? WHERE id = ?", (before, after, edit_id))
                gone += n_before + n_after
        con.execute("DELETE FROM meta WHERE key = ?", (CARDS_TO_KEEP,))
    return gone
