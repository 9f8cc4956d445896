"""The last exchange made again: a reply regenerated, a message edited and sent again, a version stepped to,
a reply that was cut off continued.

As SillyTavern's swipes, these act on the conversation's end: the reply made again is the last one, the
message edited is the person's last, and a version can be stepped to while the conversation has not gone on
from it. The earlier versions stay in the soul (knowledge/branches.py); the transcript the model reads is
cut back to before the exchange and goes on from the version chosen.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import InvalidEdit
from ..knowledge.branches import Ending, Versions
from ..knowledge.messages import EmptyMessage
from ..models.chat import Message, StopReason
from ..trust.text import clean
from .live import Conversation
from .outward import safe_reply
from .turn import ENDINGS, TurnStream

# Said to the model after the reply it is to go on with (a chat model has no "go on" of its own).
CONTINUE = (
    "Your last reply was cut off. Continue it from exactly where it stopped, without repeating any of it and "
    "without saying that you are continuing."
)


def regenerate(conversation: Conversation, reply_id: int, **turn: Any) -> TurnStream:
    """A new reply to the message `reply_id` answered: a new version of it, the one the conversation goes on
    from. `turn`: TurnStream's settings (cancel, reply_tokens, temperature, after)."""
    conversation.interrupt()  # the work between turns yields before the transcript is cut back
    user_id, last = conversation.last_exchange()
    if reply_id != last or user_id is None:
        raise InvalidEdit("Only the last reply to a message of yours can be made again.")
    gone = conversation.rewind(user_id)
    sent = next(e for e in gone if ("message", user_id) in e.keys)
    ids = sorted(i for k, i in sent.keys if k == "message")
    with _restored_on_failure(conversation):
        return TurnStream(conversation, sent.content, resend=ids, reply_of=reply_id, **turn)


def edit_and_resend(conversation: Conversation, message_id: int, text: str, **turn: Any) -> TurnStream:
    """The person's last message, as they corrected it, sent again: a new version of it (what was sent with the
    old one stays with that) and a new reply; the old message and its reply stay as the version before."""
    if not clean(text):
        raise EmptyMessage()
    conversation.interrupt()
    user_id, _ = conversation.last_exchange()
    if message_id != user_id:
        raise InvalidEdit("Only your last message can be edited and sent again.")
    with conversation.messages.writing() as con:
        conversation.messages.branches.tie(con, message_id)  # its reply goes with it, as the version before
    conversation.rewind(message_id)
    with _restored_on_failure(conversation):
        return TurnStream(conversation, text, version_of=message_id, **turn)


def choose(conversation: Conversation, message_id: int, index: int) -> Versions:
    """Step to version `index` (0-based) of message `message_id`'s slot: the soul records it, and the transcript
    goes on from it (with the reply that follows it, for a message of the person's)."""
    branches = conversation.messages.branches
    versions = branches.versions(message_id)
    if not 0 <= index < versions.count:
        raise InvalidEdit(f"There is no version {index + 1} of that message; it has {versions.count}.")
    shown = versions.ids[versions.shown]
    if shown not in conversation.last_exchange():
        raise InvalidEdit("The conversation has gone on from this version: only the last exchange can be changed.")
    conversation.rewind(shown)
    with _restored_on_failure(conversation):
        branches.choose(versions.slot, versions.ids[index])
    _replay_chosen(conversation)
    return branches.versions(message_id)


def _replay_chosen(conversation: Conversation) -> None:
    """The transcript, cut back, takes the messages of the conversation stored after its end, as chosen."""
    after = max(
        (i for e in conversation.entries() if e.role != "system" for k, i in e.keys if k == "message"), default=0
    )
    conversation.replay([m for m in conversation.messages.recent(conversation.session, 200) if m["id"] > after])


@contextmanager
def _restored_on_failure(conversation: Conversation) -> Iterator[None]:
    """A turn made again that fails before it streams (a full disk, a busy soul) leaves the transcript as the
    soul has it: what was cut back comes back."""
    try:
        yield
    except BaseException:
        _replay_chosen(conversation)
        raise


class Continuation:
    """The model going on with a reply that was cut off (or stopped): iterate it for the new text; after, the
    reply as stored is `text`, `stop_reason` why this part ended."""

    def __init__(
        self,
        conversation: Conversation,
        reply_id: int,
        *,
        cancel: threading.Event | None = None,
        reply_tokens: int = 384,
        temperature: float = 0.7,
    ):
        conversation.interrupt()
        _, last = conversation.last_exchange()
        if reply_id != last:
            raise InvalidEdit("Only the last reply can be continued.")
        self.conversation, self.reply_id = conversation, reply_id
        self.cancel = cancel or threading.Event()
        self.reply_tokens, self.temperature = reply_tokens, temperature
        [row] = conversation.messages.these([reply_id])
        self.before: str = row["content"]
        self.text: str = self.before
        self.stop_reason: StopReason | None = None
        self.user_ids: list[int] = []  # as a TurnStream's: no message of the person's is stored
        self._pieces: Iterator[str] | None = None

    def __iter__(self) -> Iterator[str]:
        if self._pieces is None:
            self._pieces = self._generate()
        return self._pieces

    @property
    def not_kept(self) -> bool:
        """As a TurnStream's: what it said was stored (a continuation is never dropped for a forget)."""
        return False

    def _generate(self) -> Iterator[str]:
        c = self.conversation
        c.begin_turn()
        prepared = c.prepare(CONTINUE, [], [])
        messages: list[Message] = [*prepared.assembled.messages[:-1], {"role": "system", "content": CONTINUE}]
        stream = c.chat.stream(messages, max_tokens=self.reply_tokens, temperature=self.temperature, cancel=self.cancel)
        added = ""
        try:
            for piece in stream:
                added += piece
                yield piece
        finally:
            self.stop_reason = stream.stop_reason or StopReason.CANCELLED
            joined = self.before if self.before.endswith((" ", "\n")) or added[:1].isspace() else self.before + " "
            self.text = safe_reply(joined + added.rstrip()) if clean(added) else self.before
            if self.text != self.before:
                c.messages.revise(self.reply_id, self.text)
                c.revised(self.reply_id, self.text)
            with c.messages.writing() as con:
                c.messages.branches.end(con, self.reply_id, self.ending)

    @property
    def ending(self) -> Ending | None:
        return ENDINGS.get(self.stop_reason) if self.stop_reason is not None else None

    def read(self) -> str:
        for _ in self:
            pass
        return self.text
