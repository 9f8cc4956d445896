"""One turn: record the message, recall, assemble the workspace, stream the reply, record it and what was used.

(Parts' bids and the Self's arbitration join here when parts exist; see DESIGN.md, "One turn".)
"""

import json
import threading
from typing import Iterator

from .models.chat import StopReason
from .retrieval.fts import terms
from .store.soul import now
from .workspace import Entry

RECALL_K = 3  # newly recalled items per turn; what was recalled before stays in the transcript
RECALL_K_AFTER_ANTICIPATION = 1


def follows_read_ahead(c) -> bool:
    """Whether the transcript ends with a note read ahead (anticipate.py): the message then adds a brief one."""
    return bool(c.transcript) and c.transcript[-1].role == "system"


def choose_recalled(c, text: str, message_id: int | None = None) -> list:
    """What this message newly brings to mind: not what the transcript already holds, nor the message itself."""
    # The message itself takes no part: recall then finds for it what it found for its draft (read along).
    itself = frozenset({("message", message_id)} if message_id is not None else ())
    present = c.transcript_keys()
    found = c.recall(text, RECALL_K + len(present), exclude=itself)
    # After a note read ahead, this message adds only what it newly brings up.
    k = RECALL_K_AFTER_ANTICIPATION if follows_read_ahead(c) else RECALL_K
    return [r for r in found if r.key not in present and r.relevant][:k]


def prepare(c, text: str, recalled: list, learned: list):
    """The workspace for a message (sent, or still being typed), the floor it starts with, and the emotional
    context of the moment. Focus and feelings enter a note when they changed since the transcript last had them."""
    floor = c.floor()
    focus = floor.inner_state if floor.inner_state != c.focus_shown else ""
    feelings = c.feelings.context()
    emotional = feelings if feelings != c.feelings_shown else ""
    ws = c.workspace()
    brief = follows_read_ahead(c)

    def assemble():
        return ws.assemble(floor, c.name, c.transcript, recalled, text, focus=focus, emotional=emotional,
                           learned=learned, brief=brief)
    assembled = assemble()
    if assembled.kept_from and floor != (live := c.self_model.read()):
        # The transcript is cut, so the whole prompt is read again anyway: the floor catches up.
        floor = live
        assembled = assemble()
    return assembled, floor, feelings


class TurnStream:
    """The reply as it streams. After it is exhausted: `reply_id`, `stop_reason`, `workspace`."""

    def __init__(self, companion, text: str, cancel: threading.Event | None):
        self.companion = companion
        self.cancel = cancel or threading.Event()
        c = companion
        c.between.turn_started()
        self.user_id = c.conversation.record("user", text, speaker=c.user_name, session=c.session)
        self.user_text = c.soul.get("message", self.user_id)["content"]
        self.recalled = choose_recalled(c, self.user_text, self.user_id)
        self.learned = list(c.learned_unsaid)
        self.workspace, self._floor, self._feelings = prepare(c, self.user_text, self.recalled, self.learned)
        self._focus = self._floor.inner_state
        self.reply_id: int | None = None
        self.stop_reason: StopReason | None = None
        self.text = ""
        self._pieces: Iterator[str] | None = None

    def __iter__(self) -> Iterator[str]:
        # One reply per turn: iterating again continues the same stream.
        if self._pieces is None:
            self._pieces = self._generate()
        return self._pieces

    def _generate(self) -> Iterator[str]:
        c = self.companion
        stream = c.chat.stream(self.workspace.messages, max_tokens=c.reply_tokens, temperature=c.temperature,
                               cancel=self.cancel)
        try:
            for piece in stream:
                self.text += piece
                yield piece
        finally:
            self.stop_reason = stream.stop_reason or StopReason.CANCELLED
            self._record()

    def read(self) -> str:
        for _ in self:
            pass
        return self.text

    def _record(self) -> None:
        c = self.companion
        ws = self.workspace
        # The transcript grows by exactly what was sent and said, so the next turn's prefix matches.
        del c.transcript[:ws.kept_from]
        c.floor_sent = self._floor
        if ws.note:
            c.transcript.append(ws.note)
            c.focus_shown = self._focus
            c.feelings_shown = self._feelings
            del c.learned_unsaid[:len(self.learned)]
        c.transcript.append(Entry("user", ws.messages[-1]["content"], frozenset({("message", self.user_id)})))
        reply = self.text.strip()
        if not reply:
            return  # stopped before a word: nothing to remember
        self.reply_id = c.conversation.record("companion", reply, speaker=c.name, session=c.session)
        c.transcript.append(Entry("assistant", self.text, frozenset({("message", self.reply_id)})))
        c.between.after(self.user_text, reply)
        with c.soul.transaction() as con:
            for h in ws.held:
                con.execute("INSERT INTO recalls VALUES (?, ?, ?, ?, ?, ?)",
                            (self.reply_id, h.kind, h.id, h.rank, h.score, json.dumps(h.components)))
        feedback(c.soul, ws.held, reply)


def used_by(reply: str, text: str) -> bool:
    """Whether a reply drew on an item: it repeats enough of the item's content words."""
    item = set(terms(text))
    if not item:
        return False
    shared = item & set(terms(reply))
    return len(shared) >= 2 and len(shared) / len(item) >= 0.3


def feedback(soul, held, reply: str) -> None:
    """Memories the reply used gain importance; memories loaded again and again but never used lose it."""
    memory_ids = [h.id for h in held if h.kind == "memory"]
    if not memory_ids:
        return
    rows = soul.query(f"SELECT id, content, importance, loads, uses FROM memories WHERE id IN "
                      f"({','.join('?' * len(memory_ids))})", memory_ids)
    with soul.transaction() as con:
        for r in rows:
            if used_by(reply, r["content"]):
                con.execute("UPDATE memories SET uses = uses + 1, loads = loads + 1, last_used_at = ?, "
                            "importance = min(1.0, importance + 0.05) WHERE id = ?", (now(), r["id"]))
            else:
                cooled = r["importance"] - 0.02 if r["loads"] + 1 >= 5 and r["uses"] == 0 else r["importance"]
                con.execute("UPDATE memories SET loads = loads + 1, importance = max(0.05, ?) WHERE id = ?",
                            (cooled, r["id"]))
