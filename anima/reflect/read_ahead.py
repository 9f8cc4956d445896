"""Reading ahead: recall for the exchange that just ended, and have the model read it before the next turn.

A turn's first token waits for the model to read every token it has not read
before: the new message, and the note of what was recalled for it. So after
each reply, while the person reads and types, the companion recalls what the
exchange brings to mind and evaluates that note (with what it has just learned
about the person) into the model's context. The next turn then finds it
already read, and adds only what its own message newly brings up.

While the person types, the companion also reads along (read_draft): the
window hands it the draft whenever typing pauses, and the model reads the
prompt that message would make. When the message is sent as it was drafted,
its turn finds nearly all of its prompt already read.

Only for backends that keep their computed prefix in this process (llama.cpp).
"""

import logging

from ..conversation import Conversation
from ..models.chat import Message
from ..parts.bids import Weighed
from ..trust.text import clean
from ..workspace import note_entry
from ..workspace.once import unsaid_facts, unsaid_items

log = logging.getLogger(__name__)

READ_AHEAD_ITEMS = 3


def read_ahead(conversation: Conversation, exchange: str, serial: int, weighed: Weighed | None = None) -> None:
    """`serial`: the conversation's serial when the exchange ended; a turn begun since makes this stale.
    `weighed`: the parts' bids on the exchange (parts/bids.py): the ones the Self follows join the note."""
    c = conversation
    # First, so that what an aged note carried may be recalled again for this exchange.
    aged = c.age_notes(serial)
    found, held = c.recall_new(exchange, k=READ_AHEAD_ITEMS)
    learned = c.learned()
    # None the floor says already: a line of the human block, recalled as a memory or just learned (once.py).
    human = c.floor().human
    items, saying = unsaid_items(found, [], human, learned), unsaid_facts(learned, human)
    held = held or len(items) < len(found)
    chosen = weighed.chosen() if weighed is not None else []
    nothing = not (items or saying or chosen)
    if nothing or c.serial != serial:
        if weighed is not None and not chosen:
            c.hear(weighed, serial)  # weighed, none followed: the next reply records them
        if nothing and held:
            c.read_ahead_nothing(serial)  # what the exchange brings to mind, the transcript holds already
        if nothing and aged:
            _let_go(c, serial)
        return
    note = note_entry("", "", items, saying, query=exchange, bids=chosen)
    assert note is not None  # items, learned facts or bids always make a note
    ws = c.workspace()
    floor, start, transcript = c.floor(), 0, c.entries()
    messages = ws.prefix(floor, c.name, transcript, note)
    if messages is None:
        # The next turn would have to cut the transcript: cut it now, while the person reads and types. llama.cpp
        # drops the cut turns from what it computed (models/shift.py); if the floor changed meanwhile, it catches
        # up here too, and then the whole prompt is read again (seconds on a laptop), better now than in a turn.
        floor = c.live_floor()
        start = ws.trimmed_start(floor, c.name, transcript, note)
        messages = ws.prefix(floor, c.name, transcript[start:], note)
        if messages is None:
            return
    if c.serial != serial:
        return
    _read(c, messages)
    if c.read_ahead(serial, start, note, floor, len(learned), weighed):
        log.info(
            "read ahead %d recalled items, %d learned facts and %d bids%s",
            len(items),
            len(saying),
            len(chosen),
            f", the transcript cut by {start} entries" if start else "",
        )


def _let_go(c: Conversation, serial: int) -> None:
    """The notes that aged leave what the model computed now, while the person reads, not in the next turn (the
    shift of what followed them: models/shift.py)."""
    messages = c.workspace().prefix(c.floor(), c.name, c.entries(), None)
    if messages is not None and c.serial == serial:
        _read(c, messages)
        log.info("let go of notes the conversation has moved past")


def read_draft(conversation: Conversation, text: str) -> None:
    """Read the prompt a message still being typed would make (the turn recomputes it: this only warms the model)."""
    text = clean(text)
    if not text:
        return
    c = conversation
    prepared = c.prepare(text, c.recall_for_draft(text), c.learned(), c.drafted(text))
    if prepared.assembled.kept_from:
        return  # a trim may bring a new floor and a full read, which the turn could not interrupt: leave it
    _read(c, prepared.assembled.messages)


def _read(c: Conversation, messages: list[Message]) -> None:
    """The model reads `messages` now (one token asked for, and let go), so a turn that sends them finds them read."""
    c.chat.stream(messages, max_tokens=1, temperature=0.0).read()
