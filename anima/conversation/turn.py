"""One turn: record the message, recall, assemble the workspace, stream the reply, record it and what was used.

(Parts' bids and the Self's arbitration join here when parts exist; see DESIGN.md, "One turn".)
"""

import threading
from typing import Callable, Iterator

from ..mind.messages import clean
from ..models.chat import StopReason
from .live import Conversation


class TurnStream:
    """The reply as it streams. After it is exhausted: `reply_id`, `stop_reason`, `workspace`.

    `after(user_text, reply)` is called once the reply is recorded (the work between turns starts there)."""

    def __init__(self, conversation: Conversation, text: str, *, cancel: threading.Event | None = None,
                 reply_tokens: int = 384, temperature: float = 0.7,
                 after: Callable[[str, str], None] = lambda user_text, reply: None):
        self.conversation = conversation
        self.cancel = cancel or threading.Event()
        self.reply_tokens, self.temperature, self._after = reply_tokens, temperature, after
        conversation.begin_turn()
        self.user_id = conversation.record_message("user", text)
        self.user_text = clean(text)  # as it was stored
        self.recalled = conversation.recall_for(self.user_text, self.user_id)
        self.learned = conversation.learned()
        self.prepared = conversation.prepare(self.user_text, self.recalled, self.learned)
        self.workspace = self.prepared.assembled
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
        stream = self.conversation.chat.stream(self.workspace.messages, max_tokens=self.reply_tokens,
                                               temperature=self.temperature, cancel=self.cancel)
        try:
            for piece in stream:
                self.text += piece
                yield piece
        finally:
            self.stop_reason = stream.stop_reason or StopReason.CANCELLED
            self.reply_id = self.conversation.record_turn(self.prepared, len(self.learned), self.user_id, self.text)
            if self.reply_id is not None:
                self._after(self.user_text, self.text.strip())

    def read(self) -> str:
        for _ in self:
            pass
        return self.text
