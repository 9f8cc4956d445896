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

from .mind.conversation import clean
from .turn import choose_recalled, prepare
from .workspace import note_entry

log = logging.getLogger(__name__)

ANTICIPATED_ITEMS = 3


def read_ahead(c, exchange: str, current, lock) -> None:
    """`current()` says whether no turn has started since; `lock` guards the transcript's end."""
    present = c.transcript_keys()
    found = [r for r in c.recall(exchange, ANTICIPATED_ITEMS + len(present)) if r.key not in present and r.relevant]
    items = found[:ANTICIPATED_ITEMS]
    with lock:
        learned = list(c.learned_unsaid)
    if not (items or learned) or not current():
        return
    note = note_entry("", "", items, learned, query=exchange)
    ws = c.workspace()
    floor, start = c.floor(), 0
    messages = ws.prefix(floor, c.name, c.transcript, note)
    if messages is None:
        # The next turn would have to cut the transcript: cut it now, while the person reads and types. llama.cpp
        # drops the cut turns from what it computed (models/shift.py); if the floor changed meanwhile, it catches
        # up here too, and then the whole prompt is read again (seconds on a laptop), better now than in a turn.
        floor = c.self_model.read()
        start = ws.trimmed_start(floor, c.name, c.transcript, note)
        messages = ws.prefix(floor, c.name, c.transcript[start:], note)
        if messages is None:
            return
    if not current():
        return
    c.chat.stream(messages, max_tokens=1, temperature=0.0).read()  # the model reads it now
    with lock:
        if current():
            del c.transcript[:start]
            c.transcript.append(note)
            c.floor_sent = floor
            del c.learned_unsaid[:len(learned)]
            log.info("read ahead %d recalled items and %d learned facts%s", len(items), len(learned),
                     f", the transcript cut by {start} entries" if start else "")


def read_draft(c, text: str) -> None:
    """Read the prompt a message still being typed would make (the turn recomputes it: this only warms the model)."""
    text = clean(text)
    if not text:
        return
    assembled, _, _ = prepare(c, text, choose_recalled(c, text), list(c.learned_unsaid))
    if assembled.kept_from:
        return  # a trim may bring a new floor and a full read, which the turn could not interrupt: leave it
    c.chat.stream(assembled.messages, max_tokens=1, temperature=0.0).read()
