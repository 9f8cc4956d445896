"""One turn: record the message, recall, assemble the workspace, stream the reply, record it and what was used.

The person's own words and any text from outside sent with them (pasted, a
file, a tool's output: knowledge/messages.py's External) are stored apart, each
with where it came from, and reach the model as their words followed by
marked information (workspace/external.py). What code must say itself (a
secret will not be kept, what only the person may do) comes before the
model's words, and the reply is stored and shown without remote images or
links that carry data (outward.py).

Parts bid on the message and the Self chooses (parts/bids.py) before the
workspace is assembled: the bids it follows go in the turn's note, never the
floor, so the computed prefix is kept; they were usually weighed already, on the
draft as it was typed or between turns (reflect/reflector.py), and are weighed
here only when the message woke parts nobody asked yet. In isolation mode the
parts read the text from outside and the Self does not: its prompt carries the
person's own words, a marker where that text was, and the bids.
"""

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import KnownError
from ..knowledge.branches import Ending, Placed
from ..knowledge.messages import TYPED_MOST, EmptyMessage, External, MessageTooLong, said_before
from ..models.chat import StopReason
from ..parts.bids import HIDDEN
from ..trust import secrets
from ..trust.text import clean
from ..workspace.external import compose
from .in_role import Role
from .live import Conversation
from .outward import Unannounced, notices, safe_reply

# Said of a reply shown but not stored (something it was made from was forgotten while it was written).
NOT_KEPT = "Not saved: your companion will not remember this reply."
ENDINGS = {StopReason.CANCELLED: Ending.STOPPED, StopReason.LENGTH: Ending.CUT_OFF}


class TurnStream:
    """The reply as it streams. After it is exhausted: `reply_id`, `stop_reason`, `workspace`, `text`.

    `after(user_text, reply)` is called once the reply is recorded (the work between turns starts there);
    `heard(meanwhile)` as soon as it is known what another program said since the last turn, before recall and
    the parts' bids (which may take the model seconds): `anima chat` shows it, and that a reply is coming."""

    def __init__(
        self,
        conversation: Conversation,
        text: str,
        *,
        external: Sequence[External] = (),
        cancel: threading.Event | None = None,
        reply_tokens: int = 384,
        temperature: float = 0.7,
        after: Callable[[str, str], None] = lambda user_text, reply: None,
        heard: Callable[[list[dict[str, Any]]], None] | None = None,
        ended: Callable[[], None] = lambda: None,
        resend: Sequence[int] = (),
        version_of: int | None = None,
        reply_of: int | None = None,
    ):
        """`resend`: the ids of a message already stored, answered again (its text is `text`); `version_of`: the
        message sent is a new version of that one (edited and sent again); `reply_of`: the reply is a new version
        of that one (made again). See conversation/branch.py."""
        conversation.interrupt()  # the person comes first: the work between turns yields before anything is read
        self.conversation = conversation
        self.cancel = cancel or threading.Event()
        self.reply_tokens, self.temperature, self._after = reply_tokens, temperature, after
        self._ended = ended  # the reply is over, however it ended: the model may change (Companion.use_model)
        typed = clean(text)
        external = [External(e.source, kept, e.name) for e in external if (kept := clean(e.text))]
        if not typed and not external:
            raise EmptyMessage()
        if len(typed) > TYPED_MOST:
            raise MessageTooLong(len(typed))
        event = compose(typed, [(e.label, e.text) for e in external])  # what the parts read
        self.user_text = compose(typed, [(e.label, HIDDEN) for e in external]) if conversation.isolated() else event
        # What another program on the soul said since the last turn, read before this message (`anima chat` shows
        # it above the reply). First: what was recalled for the draft may be in it.
        self.meanwhile = conversation.catch_up_elsewhere()
        if heard is not None:
            heard(self.meanwhile)
        drafted = conversation.recalled_for_draft(self.user_text)  # asked before the message is stored
        self.forgets_at = conversation.begin_turn()
        ids = list(resend) or conversation.record_sent(typed, external)
        if version_of is not None:
            with conversation.messages.writing() as con:
                conversation.messages.branches.add(con, ids[0], version_of)
        self.branched = bool(resend) or version_of is not None or reply_of is not None
        self.reply_of = reply_of
        self.user_ids = ids
        self.user_id = ids[0]
        try:
            self.notices = notices(typed)
            self.weighed = conversation.weigh(event, self.user_text, cancel=self.cancel)
            self.recalled, recalled_for = (
                drafted if drafted is not None else (conversation.recall_for(self.user_text, ids), self.user_text)
            )
            self._mask_split(conversation)
            self.learned = conversation.learned()
            self.prepared = conversation.prepare(
                self.user_text, self.recalled, self.learned, self.weighed, recalled_for
            )
        except KnownError as e:
            # The message is stored already: whoever sends it again (the window, on a full disk or a busy soul)
            # must not store it twice.
            e.message_saved, e.user_ids = True, ids
            raise
        self.workspace = self.prepared.assembled
        # A secret the prompt holds (said in this session, or in this very message) or that recall found is never
        # said back: its value is masked in the reply before it is shown or stored (trust/secrets.py). Recalled
        # lines reach the prompt masked already (workspace/note.py); a model may still guess at one from the rest.
        read = [str(m["content"]) for m in self.workspace.messages] + [r.text for r in self.recalled]
        said = [str(m["content"]) for m in self.workspace.messages if m["role"] == "user"]
        self.secrets = secrets.values("\n".join(read)) | secrets.across([*said, self.user_text]) | self._split
        self.reply_id: int | None = None
        self.stop_reason: StopReason | None = None
        self.text = ""
        self._pieces: Iterator[str] | None = None

    def _mask_split(self, conversation: Conversation) -> None:
        """A recalled message that is the rest of a secret said over several messages ("my recovery words are:
        apple river", then "stone orange ..."): masked with the person's messages before it read together."""
        self._split: set[str] = set()  # and never said back either
        for r in self.recalled:
            if r.kind == "message" and (found := secrets.across(said_before(conversation.messages.soul, r.id))):
                r.text = secrets.masked(r.text, found)
                self._split |= found

    def __iter__(self) -> Iterator[str]:
        # One reply per turn: iterating again continues the same stream.
        if self._pieces is None:
            self._pieces = self._generate()
        return self._pieces

    def _generate(self) -> Iterator[str]:
        for notice in self.notices:
            piece = notice + "\n\n"
            self.text += piece
            yield piece
        # The reply never shows a sentence that announces how they seem to feel, echoes a note or speaks as the
        # person (outward.py, in_role.py): each sentence is let through when it ends; one that opens the reply has
        # the model asked again, once, told why; one later on is left out; the person's turn ends the reply.
        chat, again = self.conversation.chat, False
        role = Role(
            [m["content"] for m in self.workspace.messages if m["role"] == "system"],
            self.conversation.names()[1],
            self.user_text,
        )
        held = Unannounced(role)
        stream = chat.stream(
            self.workspace.messages,
            max_tokens=self.reply_tokens,
            temperature=self.temperature,
            stop=role.stops(),
            cancel=self.cancel,
        )
        try:
            while True:
                broke = False
                for piece in stream:
                    if said := self._unrepeated(held.let_through(piece)):
                        self.text += said
                        yield said
                    if held.ended or (held.opened_with_it and not again):
                        broke = True
                        break
                said = "" if broke and not held.ended else self._unrepeated(held.rest())
                if not held.opened_with_it or again:
                    if held.ended:
                        stream.close()  # the rest is the person's turn, written by the model: not read further
                    if said:
                        self.text += said
                        yield said
                    break
                stream.close()  # it opened out of its role: asked again, once, told why
                again, told, held = True, held.again, Unannounced(role)
                stream = chat.stream(
                    [*self.workspace.messages, {"role": "system", "content": told}],
                    max_tokens=self.reply_tokens,
                    temperature=self.temperature,
                    stop=role.stops(),
                    cancel=self.cancel,
                )
        finally:
            try:
                ended = StopReason.STOP_SEQUENCE if held.ended else StopReason.CANCELLED  # at the person's turn
                self.stop_reason = stream.stop_reason or ended
                self.text = safe_reply(self.text)
                self.reply_id = self.conversation.record_turn(
                    self.prepared, len(self.learned), self.user_ids, self.text, self.forgets_at, self.placed
                )
                if self.reply_id is not None:
                    self._after(self.user_text, self.text.strip())
            finally:
                self._ended()

    def _unrepeated(self, said: str) -> str:
        """A sentence of the reply as it may be shown: without the value of a secret the prompt holds."""
        return secrets.masked(said, self.secrets) if said and self.secrets else said

    @property
    def ending(self) -> Ending | None:
        """How the reply ended when it did not end by itself: the person stopped it, or it reached its limit."""
        return ENDINGS.get(self.stop_reason) if self.stop_reason is not None else None

    @property
    def placed(self) -> Placed | None:
        """The reply's place among versions (a turn made again, or after a message edited), and how it ended."""
        if not self.branched and self.ending is None:
            return None
        return Placed(self.reply_of, self.user_id if self.branched else None, self.ending)

    @property
    def not_kept(self) -> bool:
        """Whether the reply, once exhausted, said something that was not stored (NOT_KEPT): something it was
        made from was forgotten while it was written. A reply that stopped before a word is none."""
        return self.stop_reason is not None and self.reply_id is None and bool(self.text.strip())

    def read(self) -> str:
        for _ in self:
            pass
        return self.text
