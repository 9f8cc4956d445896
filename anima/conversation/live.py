"""The live conversation: the one owner of the session's state.

What the model has been sent (the transcript after the SELF floor, and the
floor at its head), the focus and feelings it last saw, what was learned but
not yet said in a note, and the serial that tells work prepared before a turn
that it is stale. The turn (turn.py) and the work between turns
(reflect/) change it only through the methods here; the lock guards the
transcript's end between the turn and the background.

The layout the model reads, and why it is kept byte-identical from call to
call, is in workspace/assemble.py.
"""

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from ..knowledge.branches import Placed
from ..knowledge.memories import Memories
from ..knowledge.messages import Embedded, External, Messages, NewMessage
from ..knowledge.recalls import WorkspaceRecord
from ..knowledge.world import Clerk
from ..models.chat import ChatModel
from ..parts.bids import Bidding, Mode, Weighed
from ..retrieval.fts import adds_no_terms
from ..retrieval.recall import Recalled
from ..self.feelings import Feelings
from ..self.selfmodel import SelfFloor, SelfModel
from ..self.working_memory import held as held_today
from ..spelling import Finds
from ..store.provenance import EXTERNAL, Provenance, Source
from ..store.soul import now
from ..trust.text import clean
from ..workspace import Assembled, Entry, Workspace
from ..workspace.note import said_already
from .elsewhere import SaidElsewhere
from .outward import safe_reply

log = logging.getLogger(__name__)

RECALL_K = 3  # newly recalled items per turn; what was recalled before is in the transcript's notes
# The person's messages after which a note of recalled items lets go (age_notes). Kept, every note stays until the
# transcript is trimmed: in a soul with a past each exchange's notes took ~250 tokens, the transcript filled its
# 2,560 in eight exchanges (trimming the conversation itself), and every token the model had read made the next
# message slower to read: 60 new tokens in 200 ms at 650 tokens of prompt, 340 ms at 2,100 (two cores, default
# model; bench/scale.py). A note is read by the message it was recalled for and the next ("tell me more").
NOTES_KEPT = 2
RECALL_K_AFTER_READ_AHEAD = 1
SPARE = 10  # items recalled beyond those wanted, for the ones a note already says (people repeat themselves)
DRAFT_RECALL_KEPT_S = 60
HISTORY_ON_OPEN = 200  # messages of a reopened session taken back into its transcript
SPENT_KEPT = 200  # the newest replies whose workspace's tokens by tier are kept, for "Why?" (in memory only)


@dataclass
class Prepared:
    """A message's workspace, the floor it starts with, and the moment's focus and feelings."""

    assembled: Assembled
    floor: SelfFloor
    focus: str
    feelings: str
    weighed: Weighed | None = None  # the parts' bids on the message and the Self's choice (its note holds the chosen)
    # The transcript's entries that did not fit, and the items of all the prompt read (the transcript kept, the
    # note): its reply outlives a forget only while those items are still stored (record_turn).
    left_out: tuple[Entry, ...] = ()
    read: frozenset[tuple[str, int]] = frozenset()


class Conversation:
    def __init__(
        self,
        *,
        messages: Messages,
        memories: Memories,
        self_model: SelfModel,
        feelings: Feelings,
        clerk: Clerk,
        record: WorkspaceRecord,
        chat: ChatModel,
        names: Callable[[], tuple[str, str]],
        searched: Callable[[], object],
        session: str | None = None,
        bidding: Bidding | None = None,
    ):
        """`names()`: the companion's name and the person's, as they are now. `searched()`: a mark of what recall
        searches, that changes when anything it could find does (Soul.writes, Indexer.mark). `bidding`: the parts
        that bid and the Self that chooses (parts/bids.py); None: no parts take part in a turn."""
        self.messages = messages
        self.memories = memories
        self.self_model = self_model
        self.feelings = feelings
        self.clerk = clerk
        self.record = record
        self.chat = chat
        self.names = names
        self.searched = searched
        self.bidding = bidding
        self.lock = threading.Lock()
        # Each opening is a new session: its turns are the recent history; earlier sessions come back by recall.
        self.session = session or now()
        # A greeting the person has not answered yet opens this conversation too, whichever session stored it.
        self._transcript: list[Entry] = self._reopened(self.session) or self._entries(messages.unanswered_opening())
        self._floor_sent: SelfFloor | None = None  # the floor at the head of the transcript's prefix
        self._focus_shown = self._feelings_shown = ""
        self._learned: list[tuple[int, str]] = []  # learned, not yet in a note the model has read
        self._written: str | None = None  # the human block as the companion's learning last wrote it
        self._held: str | None = None  # working memory as quick reflection last wrote it
        self.serial = 0  # bumped by every turn: work prepared before it is stale
        # The transcript's change count when reading ahead found it held all the last exchange brings to mind: any
        # change since (a turn, a note, a forgetting) makes it stale by itself.
        self._nothing_ahead_at: int | None = None
        # Bids weighed between turns (on the exchange) that the model has read: recorded with the next reply, and
        # their parts do not bid again on its message. Each with the message it was made for.
        self._heard: list[tuple[Weighed, int | None]] = []
        self._drafted: tuple[str, Weighed] | None = None  # bids weighed on the draft as it was typed
        # What recall found for the draft, the mark of the transcript and the soul it found it in, and when.
        self._draft_recall: tuple[str, tuple[int, object], list[Recalled], float] | None = None
        self._changes = 0  # bumped by every change to the transcript (what recall leaves out depends on it)
        self._last_reply: int | None = None
        self._forgets_seen = messages.soul.forgets()  # the soul's forgets the live session has caught up with
        # What entries that left the transcript (aged notes, trimmed turns) carried, and whether any was unvouched:
        # the model's computed prompt still holds what it computed after them while they were there (a dropped
        # block, models/shift.py), so another program's forget of it must still clear that (catch_up_forgotten).
        self._left_keys: set[tuple[str, int]] = set()
        self._left_unvouched = False
        # What another program on the soul says from now on (`anima chat` beside the window) joins this session's
        # transcript before the next turn: the person reads it in both, and may go on from it in either.
        self._elsewhere = SaidElsewhere(messages, self.session)
        self._interrupted: list[Callable[[], None]] = []  # who yields when the person comes first (interrupt)
        # Messages the person set aside this session (a reply made again, a message edited: rewind): not brought
        # back by recall into the turn that replaces them, nor after.
        self._aside: set[tuple[str, int]] = set()
        self._spent: dict[int, dict[str, int]] = {}  # reply id -> what its workspace took, by tier

    def _reopened(self, session: str) -> list[Entry]:
        """The newest turns of a session, as its transcript when it is opened again."""
        return self._entries(self.messages.recent(session, HISTORY_ON_OPEN))

    @staticmethod
    def _entries(rows: list[dict[str, Any]]) -> list[Entry]:
        return [
            Entry("assistant" if m["role"] == "companion" else "user", m["content"], frozenset({("message", m["id"])}))
            for m in rows
        ]

    # ---- the person comes first ------------------------------------------------

    def on_interrupt(self, listener: Callable[[], None]) -> None:
        """`listener()` hears, in the caller's thread, that the person needs the model and the soul now, and the
        conversation goes on once it returns: the reflector yields then (Reflector.turn_started)."""
        self._interrupted.append(listener)

    def interrupt(self) -> None:
        """The person needs the model and the soul now: a turn begins (TurnStream), a new session, another parts
        mode, or what they asked of the companion (a forget, an undo, a proposal accepted, reflection or evolution
        now, a card applied, closing). What works between turns yields first; a turn that starts while reflection
        uses the model makes reflection yield, never the other way round (DESIGN.md)."""
        for listener in self._interrupted:
            listener()

    # ---- reading the state --------------------------------------------------

    @property
    def name(self) -> str:
        return self.names()[0]

    def workspace(self) -> Workspace:
        return Workspace(self.chat.count_tokens, self.chat.capabilities.context_tokens)

    def entries(self) -> list[Entry]:
        with self.lock:
            return list(self._transcript)

    def follows_read_ahead(self) -> bool:
        """Whether the last exchange was read ahead: the transcript ends with the note it made, or it found nothing
        the transcript did not hold already. A message then adds a brief note of what it newly brings up."""
        with self.lock:
            return self._follows_read_ahead()

    def _follows_read_ahead(self) -> bool:  # under the lock
        return bool(self._transcript) and (
            self._transcript[-1].role == "system" or self._nothing_ahead_at == self._changes
        )

    def spent(self, reply_id: int) -> dict[str, int] | None:
        """What a reply of this session's workspace took, in tokens by tier (workspace/budget.py TIERS); None
        for a reply this session did not write (or one long ago)."""
        with self.lock:
            spent = self._spent.get(reply_id)
        return dict(spent) if spent is not None else None

    @property
    def last_reply(self) -> int | None:
        """The id of the last reply this session recorded."""
        with self.lock:
            return self._last_reply

    def isolated(self) -> bool:
        """Isolation mode (parts/bids.py): text from outside reaches the Self only through the parts' bids."""
        return self.bidding is not None and self.bidding.mode is Mode.ISOLATED

    def admissible(self, found: list[Recalled]) -> list[Recalled]:
        """Recalled items the Self may read: in isolation mode, none that came from outside."""
        if not self.isolated():
            return found
        outside = {s.value for s in EXTERNAL}
        return [r for r in found if r.row.get("origin") not in outside]

    def catch_up_elsewhere(self) -> list[dict[str, Any]]:
        """What another program on this soul stored of its own conversation since the last look joins the
        transcript (conversation/elsewhere.py); returns those messages. A turn calls it before its message is
        stored, and says what it took (TurnStream.meanwhile)."""
        rows, entries = self._elsewhere.catch_up(hide=self.isolated())
        if entries:
            with self.lock:
                self._transcript += entries
                self._changes += 1
                self.serial += 1  # what was read ahead did not know of it
        return rows

    def said_elsewhere(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        """What another program on this soul stored of its own conversation after message `after_id`, the oldest
        `limit` first (Messages.elsewhere): this session's own messages are never among them."""
        return self.messages.elsewhere(after_id, self.session, limit)

    def learned(self) -> list[tuple[int, str]]:
        with self.lock:
            return list(self._learned)

    def floor(self) -> SelfFloor:
        """The SELF floor for the next prompt. What the companion itself wrote into the human block during
        this session reaches the model in notes, and what quick reflection wrote into working memory waits for
        the next new floor, so the floor, at the very head of the prompt, stays byte-identical and the computed
        prefix stays valid; a person's own edits show at once, and a working-memory item that lapsed is gone."""
        live = self.self_model.read()
        with self.lock:
            sent, has_turns, written, held = self._floor_sent, bool(self._transcript), self._written, self._held
        if sent is None or not has_turns:
            return live
        kept = {}
        if live.human == written:
            kept["human"] = sent.human
        if (
            live.working_memory == held
            and held_today(sent.working_memory, self.self_model.today()) == sent.working_memory
        ):
            kept["working_memory"] = sent.working_memory
        return dataclasses.replace(live, **kept)

    def live_floor(self) -> SelfFloor:
        return self.self_model.read()

    # ---- a turn -------------------------------------------------------------

    def begin_turn(self) -> int:
        """A turn begins; returns the soul's forget count it begins at (record_turn compares it)."""
        self.catch_up_forgotten()
        with self.lock:
            self.serial += 1
            return self._forgets_seen

    def catch_up_forgotten(self) -> None:
        """What another program forgot leaves this live session too: the entries whose items are gone, and the
        notes whose words no item vouches for (what was forgotten is never recorded, so their words cannot be
        checked against it). One read of a count while nothing was forgotten."""
        count = self.messages.soul.forgets()
        if count == self._forgets_seen:
            return
        with self.lock:
            held = (
                {key for e in self._transcript for key in e.keys}
                | {("memory", i) for i, _ in self._learned}
                | self._left_keys
            )
            # Bids heard between turns are in their parts' words too (see forget).
            unvouched = any(not e.vouched for e in self._transcript) or bool(self._heard) or self._left_unvouched
        gone = held - self.messages.soul.present(held, standing=True)  # an episode a forget flagged is gone too
        if gone or unvouched:
            self.forget(gone, unvouched=True)
        with self.lock:
            self._forgets_seen = max(self._forgets_seen, count)

    def greet(self, text: str, provenance: Provenance) -> int:
        """The companion opens the conversation (an imported card's first message, or reaching out when a note
        falls due: reaching_out.py): stored as its own words in this session and in the transcript, so its next
        reply follows from it. A turn that begins meanwhile makes the greeting stale work: it is still stored, and
        the transcript keeps what the turn sent. Like a reply, it keeps no remote image or address
        (outward.safe_reply): a card's author or the model wrote it, not the person."""
        text = safe_reply(text)
        message_id = self.messages.record(
            "companion", text, speaker=self.name, session=self.session, provenance=provenance
        )
        with self.lock:
            self._transcript.append(Entry("assistant", text, frozenset({("message", message_id)})))
            self._changes += 1
            self.serial += 1  # what was read ahead did not know of it
        return message_id

    def record_sent(self, typed: str, outside: list[External]) -> list[int]:
        """What the person sent: their words (if any) and the text from outside sent with them, each stored as
        what it is (never as their words) and citing their message; all together or none (a full disk)."""
        person = self.names()[1]
        sent = [NewMessage("user", typed, person, None, self.session, Provenance(Source.PERSON))] if typed else []
        sent += [
            NewMessage("user", e.text, e.label, None, self.session, Provenance(e.source, None, e.name)) for e in outside
        ]
        return self.messages.record_many(sent, citing_first=bool(typed))

    def recall_for(self, text: str, message_ids: Sequence[int] = (), k: int | None = None) -> list[Recalled]:
        """What this message newly brings to mind, at most `k` items (see recall_new)."""
        return self.recall_new(text, message_ids, k)[0]

    def recall_new(
        self, text: str, message_ids: Sequence[int] = (), k: int | None = None
    ) -> tuple[list[Recalled], bool]:
        """What a message (or an exchange, read ahead) newly brings to mind, at most `k` items: not what the
        transcript already holds or its notes already say (workspace/note.py said_already), nor the message itself
        (its own words and what was sent with it). And whether it brought to mind items the notes hold or say (the
        transcript's own turns, found again by their words, are not brought to mind)."""
        # The message itself takes no part: recall then finds for it what it found for its draft (read along).
        itself = frozenset(("message", i) for i in message_ids)
        with self.lock:
            entries, follows = list(self._transcript), self._follows_read_ahead()
        # What another program said and this session has not taken in yet is not recalled either: it joins the
        # transcript in its place at the next turn, and the model would read it twice.
        present = set().union(*(e.keys for e in entries)) | self._elsewhere.unread() | self._aside
        if k is None:  # after a note read ahead, a message adds only what it newly brings up
            k = RECALL_K_AFTER_READ_AHEAD if follows else RECALL_K
        found = [
            r
            for r in self.admissible(self.clerk.pick(text, max(k, RECALL_K) + len(present) + SPARE, exclude=itself))
            if r.relevant
        ]
        fresh = [r for r in found if r.key not in present]
        notes = [e for e in entries if e.role == "system"]
        said = said_already(fresh, [e.content for e in notes], text)
        new = [r for r in fresh if r.key not in said]
        noted = set().union(*(e.keys for e in notes))
        return new[:k], bool(said) or any(r.key in noted for r in found)

    def recall_for_draft(self, text: str) -> list[Recalled]:
        """What a message still being typed would bring to mind, kept for its turn if it is sent as drafted."""
        mark, at = self._recall_mark(), time.monotonic()
        found = self.recall_for(text)
        with self.lock:
            self._draft_recall = (text, mark, found, at)
        return found

    def recalled_for_draft(self, text: str) -> tuple[list[Recalled], str] | None:
        """What recall found for this text as its draft, and the draft, if neither the transcript nor the soul
        changed since: a turn asks before it stores its message (which recall leaves out). None: recall it now.
        At 100,000 messages a recall takes 15-20 ms (bench/scale.py), a quarter of a typed message's wait.
        A message that only adds words of asking to its draft ("Say more.", "thanks!": typed on after the pause
        that handed the draft over) asks for the same things: the draft's recall stands, and its note, cut to
        what touches the draft (prepare's `recalled_for`), stays as the model read it along; only the message's
        last words are read again. (Parts' bids are weighed on the exact draft only: words after it have them
        weigh again.) A draft left longer than DRAFT_RECALL_KEPT_S is recalled again (recall weighs how recent
        things are, and "today")."""
        with self.lock:
            kept = self._draft_recall
        if (
            kept is None
            or not adds_no_terms(kept[0], text)
            or time.monotonic() - kept[3] > DRAFT_RECALL_KEPT_S
            or kept[1] != self._recall_mark()
        ):
            return None
        return kept[2], kept[0]

    def _recall_mark(self) -> tuple[int, object]:
        with self.lock:
            changes = self._changes
        return changes, self.searched()

    def weigh(self, event: str, shown: str | None = None, *, cancel: threading.Event | None = None) -> Weighed | None:
        """The parts' bids on a message and the Self's choice: those weighed on its draft when it was sent as
        drafted, else weighed now (a model call per part, and one for the Self). Parts that bid between turns
        are not asked again. None without parts."""
        if self.bidding is None:
            return None
        with self.lock:
            drafted, heard = self._drafted, [w for w, _ in self._heard]
        if drafted is not None and drafted[0] == event:
            return drafted[1]
        return self.bidding.weigh(event, shown, skip=set().union(*(w.part_ids for w in heard)), cancel=cancel)

    def weigh_draft(self, text: str, cancel: threading.Event | None = None) -> None:
        """Weigh the bids on a draft while it is typed (in the background): the turn finds them if it is sent so."""
        if self.bidding is None:
            return
        with self.lock:
            if self._drafted is not None and self._drafted[0] == text:
                return
        weighed = self.weigh(text, cancel=cancel)
        if weighed is not None and not (cancel is not None and cancel.is_set()):
            with self.lock:
                self._drafted = (text, weighed)

    def drafted(self, text: str) -> Weighed | None:
        with self.lock:
            return self._drafted[1] if self._drafted is not None and self._drafted[0] == text else None

    def weigh_exchange(self, exchange: str, cancel: threading.Event | None = None) -> Weighed | None:
        """Between turns: the bids on the exchange that just ended (their chosen ones are read ahead in a note)."""
        if self.bidding is None:
            return None
        return self.bidding.weigh(exchange, cancel=cancel)

    def hear(self, weighed: Weighed, serial: int) -> bool:
        """Bids weighed between turns that need no note (none was chosen): recorded with the next reply."""
        with self.lock:
            if self.serial != serial or not weighed.bids:
                return False
            self._heard.append((weighed, self._last_reply))
            return True

    def prepare(
        self,
        text: str,
        recalled: list[Recalled],
        learned: list[tuple[int, str]],
        weighed: Weighed | None = None,
        recalled_for: str | None = None,
    ) -> Prepared:
        """The workspace for a message (sent, or still being typed). Focus and feelings enter a note when they
        changed since the transcript last had them; the bids the Self chose to follow (`weighed`) too.
        `recalled_for`: what `recalled` was recalled for, if not `text` (its draft): the note cuts items to that."""
        floor = self.floor()
        feelings, felt = self.feelings.tier()  # how they seem, and the signals it is said from
        with self.lock:
            focus = floor.inner_state if floor.inner_state != self._focus_shown else ""
            emotional = feelings if feelings != self._feelings_shown else ""
            transcript, brief = list(self._transcript), self._follows_read_ahead()
        ws = self.workspace()

        def assemble(f: SelfFloor) -> Assembled:
            return ws.assemble(
                f,
                self.name,
                transcript,
                recalled,
                text,
                focus=focus,
                emotional=emotional,
                learned=learned,
                brief=brief,
                bids=weighed.chosen() if weighed else (),
                recalled_for=recalled_for,
            )

        assembled = assemble(floor)
        if assembled.kept_from and floor != (live := self.live_floor()):
            # The transcript is cut, so the whole prompt is read again anyway: the floor catches up.
            floor = live
            assembled = assemble(floor)
        if assembled.note is not None and emotional:
            # The note says how they seemed: like a recalled item, each signal it says so from leaves with it.
            assembled.note = dataclasses.replace(assembled.note, keys=assembled.note.keys | felt)
        start = assembled.kept_from
        read = frozenset().union(*(e.keys for e in transcript[start:]), assembled.note.keys if assembled.note else ())
        return Prepared(assembled, floor, floor.inner_state, feelings, weighed, tuple(transcript[:start]), read)

    def record_turn(
        self,
        prepared: Prepared,
        learned: int,
        user_ids: list[int],
        reply: str,
        forgets_at: int | None = None,
        placed: Placed | None = None,
    ) -> int | None:
        """The transcript grows by exactly what was sent and said, so the next turn's prefix matches. Records the
        reply and what its workspace held; returns the reply's id (None when it stopped before a word, or when
        something it was made from was forgotten while it was written). `forgets_at`: what begin_turn returned.
        `placed`: the reply's place among versions, and how it ended (knowledge/branches.py)."""
        said = clean(reply)  # a reply of invisible characters only is none: it stopped before a word
        reply_id = None
        try:
            # Embedded before the write lock is taken; then the forget count is read in the very transaction that
            # stores the reply, so no forget can commit between the look and the write (SQLite has one writer).
            ready = (
                self.messages.embedded([NewMessage("companion", said, self.name, None, self.session)]) if said else None
            )
            with self.messages.writing():
                overtaken = (
                    forgets_at is not None
                    and self.messages.soul.forgets() != forgets_at
                    and self._lost(prepared, user_ids)
                )
                if not overtaken and ready is not None:
                    reply_id = self._store_reply(ready, prepared, user_ids, placed)
        except BaseException:
            self._sent_turn(prepared, learned, user_ids)  # the message was stored: the model read it
            raise
        if overtaken:
            self._overtaken(user_ids, prepared.assembled.messages[-1]["content"])
            return None
        self._sent_turn(prepared, learned, user_ids)
        if reply_id is not None:
            with self.lock:
                self._transcript.append(Entry("assistant", reply, frozenset({("message", reply_id)})))
                self._heard, self._drafted, self._last_reply = [], None, reply_id
        return reply_id

    def _lost(self, prepared: Prepared, user_ids: list[int]) -> bool:
        """Whether something the reply was made from is gone: its message, an item its prompt read, a message the
        bids it records were weighed on, a line of its floor. A forget keeps no list of what went (that would be a
        trace of it), so what is still stored is looked at, in the transaction that would store the reply."""
        with self.lock:
            about = {("message", i) for _, i in self._heard if i is not None}
        keys = prepared.read | about | {("message", i) for i in user_ids}
        return bool(keys - self.messages.soul.present(keys, standing=True)) or self._floor_lost(prepared.floor)

    def _floor_lost(self, floor: SelfFloor) -> bool:
        """Whether a line of the floor the prompt began with has left the self: forgetting a person or a learned
        fact takes its lines from the self and the blocks, and their text carries no key to look for. Any other
        change to a line counts too: rare while a reply is written, and dropping a reply is the safe mistake."""
        # Against what is stored and what the next prompt keeps at its head: floor() keeps the sent copy of
        # working memory and the human block after reflection or learning rewrote them (the prefix stays valid),
        # and a line only that copy holds went nowhere. A line a forget took is in neither.
        live, kept = self.live_floor(), self.floor()
        return any(
            not _lines(getattr(floor, f)) <= _lines(getattr(live, f)) | _lines(getattr(kept, f))
            for f in (field.name for field in dataclasses.fields(SelfFloor))
        )

    def _store_reply(self, ready: Embedded, prepared: Prepared, user_ids: list[int], placed: Placed | None) -> int:
        """The reply, what its workspace held, the bids it weighed and the heat of the memories it used: one
        transaction (the caller's), so a forget finds all of it or none."""
        reply_id = self.messages.store(ready)[0]
        if placed is not None:
            with self.messages.writing() as con:
                self.messages.branches.place(con, reply_id, placed)
        with self.lock:
            weighed = [*self._heard, *([(prepared.weighed, user_ids[0])] if prepared.weighed else [])]
        held = prepared.assembled.held
        self.record.record(reply_id, held)
        with self.lock:
            self._spent[reply_id] = dict(prepared.assembled.by_tier)
            for old in list(self._spent)[:-SPENT_KEPT]:
                del self._spent[old]
        if self.bidding is not None and any(w.bids for w, _ in weighed):
            self.bidding.record(reply_id, weighed)
        self.memories.feedback([h.id for h in held if h.kind == "memory"], ready.rows[0]["content"])
        return reply_id

    def _sent_turn(self, prepared: Prepared, learned: int, user_ids: list[int]) -> None:
        """The transcript takes what this turn sent: its note and the message, after the entries that no longer
        fitted are dropped."""
        ws = prepared.assembled
        left_out = {id(e) for e in prepared.left_out}
        with self.lock:
            # By identity, not by index: a forget of something the prompt did not read may have dropped entries.
            self._transcript = [e for e in self._transcript if id(e) not in left_out]
            self._left(prepared.left_out)
            self._changes += 1
            self._draft_recall = None
            self._floor_sent = prepared.floor
            if ws.note:
                self._transcript.append(ws.note)
                self._focus_shown = prepared.focus
                self._feelings_shown = prepared.feelings
                del self._learned[:learned]
            self._transcript.append(
                Entry("user", ws.messages[-1]["content"], frozenset(("message", i) for i in user_ids))
            )

    def _overtaken(self, user_ids: list[int], sent: str) -> None:
        """Something the reply was made from was forgotten (here or by another program) while it was written: the
        reply is not kept, and the message stays in the transcript only if it is still stored. The transcript
        is not cut to what this turn sent: forgetting changed it, and the model reads it whole next time."""
        self.catch_up_forgotten()
        keys = frozenset(("message", i) for i in user_ids)
        with self.lock:
            if keys and self.messages.soul.present(keys) == keys:
                self._transcript.append(Entry("user", sent, keys))
                self._changes += 1
            self._draft_recall = None
            self._floor_sent = None
        log.info("something was forgotten while a reply was written: the reply is not kept")
        return None

    # ---- versions of the last exchange (conversation/branch.py) --------------------------------------------

    def last_exchange(self) -> tuple[int | None, int | None]:
        """The ids of the person's last message in the transcript (its own words, or what was sent) and of the
        reply after it (None: none yet)."""
        reply = None
        with self.lock:
            for entry in reversed(self._transcript):
                ids = sorted(i for k, i in entry.keys if k == "message")
                if not ids:  # a note
                    continue
                if entry.role == "user":
                    return ids[0], reply
                if reply is not None:  # two replies together (a greeting): no message of the person's before
                    break
                reply = ids[0]
        return None, reply

    def rewind(self, message_id: int) -> list[Entry]:
        """The transcript loses the entry that carries message `message_id` and all after it (the last exchange
        is made again); returns what it lost. The model reads what comes in their place from there."""
        with self.lock:
            at = next(
                (i for i, e in enumerate(self._transcript) if ("message", message_id) in e.keys), len(self._transcript)
            )
            gone, self._transcript = self._transcript[at:], self._transcript[:at]
            self._aside |= {key for e in gone if e.role != "system" for key in e.keys}
            self._changes += 1
            self.serial += 1  # what was read ahead read what went
            self._draft_recall = None
            self._nothing_ahead_at = None
            self._heard, self._drafted = [], None
            self._last_reply = next(
                (i for e in reversed(self._transcript) if e.role == "assistant" for k, i in e.keys if k == "message"),
                None,
            )
        return gone

    def replay(self, rows: Sequence[dict[str, Any]]) -> None:
        """Stored messages (a version the person stepped to, and what follows it) join the transcript's end."""
        with self.lock:
            for m in rows:
                self._aside.discard(("message", m["id"]))
                self._transcript.append(
                    Entry(
                        "assistant" if m["role"] == "companion" else "user",
                        m["content"],
                        frozenset({("message", m["id"])}),
                    )
                )
                if m["role"] == "companion":
                    self._last_reply = m["id"]
            self._changes += 1
            self.serial += 1

    def revised(self, message_id: int, text: str) -> None:
        """A reply in the transcript now says `text` (continued where it was cut off)."""
        with self.lock:
            self._transcript = [
                dataclasses.replace(e, content=text)
                if ("message", message_id) in e.keys and e.role == "assistant"
                else e
                for e in self._transcript
            ]
            self._changes += 1
            self.serial += 1

    # ---- between turns --------------------------------------------------------

    def note_learned(self, learned: list[tuple[int, str]], block: str | None) -> None:
        """Learning wrote these facts (and the human block as `block`): they reach the model in the next note."""
        with self.lock:
            self._learned += learned
            if block is not None:
                self._written = block

    def note_reflected(self, working_memory: str) -> None:
        """Quick reflection wrote working memory as `working_memory`: it shows from the next new floor on."""
        with self.lock:
            self._held = working_memory

    def read_ahead(
        self, serial: int, start: int, note: Entry, floor: SelfFloor, learned: int, weighed: Weighed | None = None
    ) -> bool:
        """A note the model has read ahead joins the transcript (its first `start` entries cut), unless a turn
        began since `serial`; with it, the bids it carries (`weighed`). Returns whether it joined."""
        with self.lock:
            if self.serial != serial:
                return False
            self._left(self._transcript[:start])
            del self._transcript[:start]
            self._transcript.append(note)
            self._changes += 1
            self._floor_sent = floor
            del self._learned[:learned]
            if weighed is not None and weighed.bids:
                self._heard.append((weighed, self._last_reply))
            return True

    def age_notes(self, serial: int) -> int:
        """Notes of recalled items that NOTES_KEPT of the person's messages have followed leave the transcript
        (what they carried may be recalled again), unless a turn began since `serial`. Returns how many left.
        None leave where the model cannot drop them from what it computed (Capabilities.drops_blocks): it would
        read everything after them again."""
        if not self.chat.capabilities.drops_blocks:
            return 0
        with self.lock:
            if self.serial != serial:
                return 0
            followed, aged = 0, set()
            for e in reversed(self._transcript):
                followed += e.role == "user"
                if e.ages and followed >= NOTES_KEPT:
                    aged.add(id(e))
            if aged:
                self._left([e for e in self._transcript if id(e) in aged])
                self._transcript = [e for e in self._transcript if id(e) not in aged]
                self._changes += 1
            return len(aged)

    def _left(self, entries: Iterable[Entry]) -> None:  # under the lock
        for e in entries:
            self._left_keys |= e.keys
            self._left_unvouched |= not e.vouched

    def read_ahead_nothing(self, serial: int) -> None:
        """Reading ahead found that what the exchange brings to mind the transcript holds already (as a note read
        ahead would, this makes the next message's note brief), unless a turn began since `serial`."""
        with self.lock:
            if self.serial == serial:
                self._changes += 1  # a draft recalled before it recalled for a note that was not brief
                self._nothing_ahead_at = self._changes

    def restart(self, session: str | None = None) -> None:
        """A new conversation (or `session`, an earlier one, opened again with its newest turns): recent turns start
        empty, and earlier ones come back by recall."""
        self.interrupt()
        transcript = [] if session is None else self._reopened(session)
        session = session or now()
        self._elsewhere.restart(session)  # first: a soul that fails it leaves the session as it was
        with self.lock:
            self.session = session
            self._transcript = transcript
            self._changes += 1
            self._draft_recall = None
            self._heard, self._drafted = [], None
            self._focus_shown = self._feelings_shown = ""
            self._floor_sent = None

    def set_mode(self, mode: str | Mode) -> None:
        """The parts' mode changes (parts/bids.py): bids weighed so far are dropped, and the next message's parts
        bid again."""
        self.interrupt()  # bids weighed in the other mode are not used
        if self.bidding is None:  # a conversation without parts has no mode: the error it always raised
            raise AttributeError("'NoneType' object has no attribute 'set_mode'")
        self.bidding.set_mode(mode)
        with self.lock:
            self._heard, self._drafted = [], None
            self._changes += 1  # what recall may show the Self changed with the mode

    # ---- forgetting -----------------------------------------------------------

    def forget(self, keys: AbstractSet[tuple[str, int]], names: Finds | None = None, unvouched: bool = False) -> int:
        """What was forgotten leaves the live session: entries that carry a forgotten item or name `names` (and,
        `unvouched`, every note its keys do not vouch for), what was learned of it, and the prompt the model
        computed from it (never reused). Returns entries dropped."""

        # `about` of a bid heard between turns may be None (no reply yet): a key that matches nothing.
        def touched(text: str, entry_keys: AbstractSet[tuple[str, int | None]] = frozenset()) -> bool:
            return bool(entry_keys & keys) or (names is not None and names.search(text) is not None)

        with self.lock:
            kept = [e for e in self._transcript if not touched(e.content, e.keys) and (e.vouched or not unvouched)]
            dropped = len(self._transcript) - len(kept)
            self._transcript = kept
            self._changes += 1
            self._draft_recall = None  # it may hold what was forgotten
            self._learned = [(i, fact) for i, fact in self._learned if not touched(fact, {("memory", i)})]
            # Bids weighed between turns are stored with the next reply, in their parts' words: like a note's,
            # those words cannot be checked against what another program forgot.
            self._heard = (
                []
                if unvouched
                else [
                    (w, about)
                    for w, about in self._heard
                    if not any(touched(b.line(), {("part", b.part_id)}) for b in w.bids)
                    and not touched(w.event, {("message", about)})
                ]
            )
            self._drafted = None
            self._written = self._held = None
            self._floor_sent = None
            self._focus_shown = self._feelings_shown = ""
            self._left_keys, self._left_unvouched = set(), False  # what the model computed goes too (below)
            self.serial += 1  # a note being read ahead may carry it
        self.chat.forget_computed()
        return dropped


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}
