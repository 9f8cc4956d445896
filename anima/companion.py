"""The Companion: the one facade the window, the terminal and the tests drive.

unlock, turn, recall, the Open Mind (self, memories, world cards, history),
forget, export and import. Heavy things (the chat model, the embedder, the
vector index) load in the background; nothing here imports Qt. The live
conversation's state has its own owner (conversation/live.py); this class
wires the rooms together and holds no state of the session itself.

The window and the terminal talk to the companion's methods and to the few
rooms it hands out on purpose (annotated on the class); never to what those
hold (tests/ui/test_facade.py).
"""

import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from .conversation import Conversation, TurnStream, branch
from .conversation.noted import Noted, noted
from .conversation.reaching_out import Limits, ReachedOut, ReachingOut
from .errors import InvalidEdit
from .interchange.characters import Characters
from .interchange.export import export_json
from .knowledge import traces
from .knowledge.branches import Versions
from .knowledge.conversations import Conversations
from .knowledge.episodes import Episodes
from .knowledge.history import History
from .knowledge.memories import Memories
from .knowledge.messages import External, Messages
from .knowledge.recalls import WorkspaceRecord
from .knowledge.rules import Rules
from .knowledge.world import Clerk, WorldCards
from .models.chat import ChatModel
from .models.embedder import Embedder
from .models.gpu import gpu_report
from .models.switch import SwitchableChat
from .parts import open_parts
from .parts.affect import Affect
from .parts.bids import Bidding, Mode
from .parts.open_parts import PartShown, PredictionShown
from .parts.packs import Installed, Packs
from .parts.parts import Part, Parts
from .parts.predictions import Clock, Evaluated, Evaluation, Prediction, Predictions, utc_now
from .reflect import Reflector
from .reflect.deep import Deepened, DeepReflection
from .reflect.evolve import Evolution, Evolved
from .reflect.governed import GovernedRewrite
from .reflect.human import HumanNotes
from .reflect.hygiene import Hygiene, Tended, tend
from .reflect.parts import PartCreation
from .reflect.quick import EVERY, QuickReflection, Reflected
from .reflect.rhythm import Rhythms
from .reflect.titles import Titling
from .reflect.world import WorldKeeping
from .retrieval.indexer import Indexer
from .retrieval.recall import Recall, Recalled
from .self.feelings import Feelings
from .self.growth import GrowthEntry, GrowthLog
from .self.selfmodel import SelfFloor, SelfModel, check_plain
from .self.sovereignty import Sovereignty
from .self.sovereignty import measure as measure_sovereignty
from .store import Home, Soul
from .store.core import Progress
from .store.forget import Forgotten, name_pattern
from .store.provenance import Provenance, Source, shown
from .store.sections import GATED as TARGETS
from .store.sections import title as label
from .trust.gate import Gate
from .trust.verdict import Change, Verdict
from .workspace import search


class Companion:
    # The rooms it hands the window and the terminal on purpose: each owns what the Open Mind reads and corrects of
    # one kind, and changes it through its typed methods. The rest it holds (the soul, the models, the conversation,
    # the reflector, the gate...) is its own: asked through the companion's methods below.
    home: Home  # where it lives: its folder, its passphrase
    self_model: SelfModel  # the five sections, working memory
    messages: Messages  # the conversation as stored: pages, search
    conversations: Conversations  # one soul, many conversations: listed, titled, searched (forgotten: below)
    memories: Memories
    world: WorldCards
    episodes: Episodes
    rules: Rules
    feelings: Feelings  # emotional signals, and how the person actually felt
    parts: Parts
    affect: Affect  # what the Self values, fears and seeks: parts grow from it
    rhythm: Rhythms  # how often it reflects, and when it may rewrite who it is
    characters: Characters  # character cards and lorebooks, in and out
    # A turn's settings, which the terminal sets from its options (--temperature).
    reply_tokens: int
    temperature: float
    # Whether a conversation's title is asked of the model after its first exchange (else its first line stands
    # in): the app turns it on; a fake model answers only what a test enqueues.
    titles_by_model: bool = False

    def __init__(
        self,
        home: Home,
        soul: Soul,
        chat: ChatModel,
        embedder: Embedder,
        *,
        session: str | None = None,
        background: bool = True,
        clock: Clock = utc_now,
    ):
        """`clock`: when predictions are made and fall due (tests move it)."""
        self.home = home
        self.soul = soul
        # Every room is handed the model in use, which the person may change while it runs (use_model).
        chat = self.chat = chat if isinstance(chat, SwitchableChat) else SwitchableChat(chat)
        self.embedder = embedder
        self.reply_tokens = 384
        self.temperature = 0.7
        self.indexer = Indexer(soul, embedder)
        # Loading stored vectors and re-indexing run in the background; a window starts them after its
        # first paint (start_background), a terminal or a test at once.
        self.indexer_thread = threading.Thread()
        if background:
            self.start_background()
        self.messages = Messages(soul, self.indexer)
        self.memories = Memories(soul, self.indexer)
        self.world = WorldCards(soul, self.indexer)
        self.parts = Parts(soul)  # seed 000's parts, changed by JSON Patch; packs install and export them
        self.packs = Packs(self.parts)
        self.affect = Affect(soul)  # what the Self values, fears and seeks: parts grow from it
        self.predictions = Predictions(soul, clock)
        self.bidding = Bidding(soul, chat, self.parts, embedder, self.affect, self.predictions, self._names)
        self.self_model = SelfModel(soul, self._floor_tokens)
        self.feelings = Feelings(soul)
        self.history = History(soul, self.indexer)
        self.recaller = Recall(soul, self.indexer)
        self.clerk = Clerk(soul, self.recaller)
        self.workspace_record = WorkspaceRecord(soul)
        self.conversation = Conversation(
            messages=self.messages,
            memories=self.memories,
            self_model=self.self_model,
            feelings=self.feelings,
            clerk=self.clerk,
            record=self.workspace_record,
            chat=chat,
            names=self._names,
            searched=self._searched,
            session=session,
            bidding=self.bidding,
        )
        # It speaks first when a note or a prediction falls due, within the person's limits (the window asks).
        self.reaching_out = ReachingOut(
            soul,
            chat,
            self.conversation,
            self.self_model,
            self.predictions,
            self.messages,
            lambda: clock().astimezone(),
        )
        # Learning about the person as they talk (reflect/human.py); a person may turn it off for this soul.
        self.gate = Gate(soul, self.self_model)
        self.episodes = Episodes(soul, self.indexer)
        self.rules = Rules(soul)
        self.reflector = Reflector(
            self.conversation,
            HumanNotes(soul, chat, self.self_model, self.memories, self.gate),
            soul,
            learns=soul.get_meta("learns_in_conversation", "1") == "1",
            quick=QuickReflection(soul, chat, self.messages, self.self_model, self.feelings, names=self._names),
            every=soul.get_int(EVERY, 1),
            deep=DeepReflection(
                soul,
                chat,
                self.messages,
                self.episodes,
                self.rules,
                self.self_model,
                self.memories,
                self.gate,
                names=self._names,
                tending=self._tend,
                world=WorldKeeping(soul, chat, self.messages, self.world, self._names),
            ),
            evaluation=Evaluation(chat, self.parts, self.predictions, self._names),
            creation=PartCreation(chat, self.parts, self.affect, self._names, clock),
        )
        self.rhythm = Rhythms(soul, self.reflector)
        self.conversations = Conversations(soul)
        self.titling = Titling(chat, self.conversations)
        # Another program on this soul (the window and `python -m anima chat`) may change these meanwhile: they
        # are read again when it has written something (the indexer notices, at the next recall).
        self._settings = self._stored_settings()
        self.indexer.on_change_elsewhere(self._reread_settings)
        # The character cards it came from, and itself as one (SillyTavern's formats).
        self.characters = Characters(soul, self.self_model, self.gate, self.world, self.conversation, names=self._names)
        # Search across the whole mind (the Open Mind's Ctrl+Shift+F).
        rooms = search.Rooms(
            parts=lambda: self.parts.all(archived=None),
            predictions=self.predictions.all,
            rules=self.rules.all,
            growth=self.growth_log,
            signals=self.feelings.all,
            floor=self.self_model.read,
            proposals=self.gate.pending,
        )
        self.mind_search = search.MindSearch(self.recaller, embedder, lambda: search.listed(rooms))
        self.evolution = Evolution(
            soul,
            chat,
            self.self_model,
            self.rules,
            GovernedRewrite(soul, self.self_model, self.gate),
            learned=self.memories.inferred,
            names=self._names,
        )

    def _names(self) -> tuple[str, str]:
        """The companion's name and the person's, as they are now (the rooms ask at each use: an import renames)."""
        return self.name, self.user_name

    def _floor_tokens(self, floor: SelfFloor) -> int:
        """What the SELF floor takes of the prompt, as the workspace lays it out (the self model's caps)."""
        return self.conversation.workspace().floor_tokens(floor, self.name)

    def _searched(self) -> tuple[object, ...]:
        """A mark of what recall searches, that changes when anything it could find does."""
        return self.soul.writes(), self.indexer.mark()

    def _tend(self, cancel: threading.Event | None) -> Tended:
        """Parts hygiene, as deep reflection runs it (reflect/hygiene.py)."""
        return Hygiene(self.soul, self.chat, self.parts, messages=self.messages, name=self.name).run(cancel)

    def _stored_settings(self) -> tuple[str | None, str | None]:
        return self.soul.get_meta("learns_in_conversation"), self.soul.get_meta(EVERY)

    def _reread_settings(self) -> None:
        """What another program changed of the settings read once at unlock (a value this one set, or that is
        as it was, stays as it is)."""
        stored = self._stored_settings()
        (learns, every), (learns_was, every_was) = stored, self._settings
        self._settings = stored
        if learns != learns_was:
            self.reflector.learns = (learns or "1") == "1"
        if every != every_was:
            self.reflector.every = self.soul.get_int(EVERY, 1)

    def start_background(self, chat: bool = True) -> None:
        """Start what loads in the background: the models (the embedder first: it loads in under a second, and a
        model the person chose may take many), then the vector index."""
        for model in (self.embedder, self.chat) if chat else (self.embedder,):
            start = getattr(model, "start_loading", None)
            if start:
                start()
        if not self.indexer_thread.is_alive() and self.indexer_thread.ident is None:
            self.indexer_thread = self.indexer.start(told=self._tell)

    # ---- opening ------------------------------------------------------------

    @classmethod
    def create(
        cls,
        home: Home,
        passphrase: str,
        name: str,
        chat: ChatModel,
        embedder: Embedder,
        *,
        user_name: str = "",
        remember: bool = False,
    ) -> "Companion":
        soul = home.create(passphrase, name=name, remember=remember)
        if user_name:
            soul.set_meta("user_name", user_name)
        return cls(home, soul, chat, embedder)

    @classmethod
    def unlock(cls, home: Home, passphrase: str | None, chat: ChatModel, embedder: Embedder) -> "Companion":
        return cls(home, home.unlock(passphrase), chat, embedder)

    @property
    def name(self) -> str:
        return self.soul.get_meta("name", "Anima")

    @property
    def user_name(self) -> str:
        return self.soul.get_meta("user_name", "")

    @property
    def learns(self) -> bool:
        return self.reflector.learns

    @learns.setter
    def learns(self, on: bool) -> None:
        self.reflector.learns = on

    def on_background_failure(self, listener: Callable[[str], None]) -> None:
        """`listener(what)` hears, from a background thread, of work between turns that failed because of a bug
        (`what` is one line for the person, never what they said)."""
        self.reflector.on_failure(listener)

    def _tell(self, what: str) -> None:
        """Work in the background stopped: its one line, to the listeners the reflector keeps (none are there yet
        while the constructor runs, which starts the indexer before it makes the reflector)."""
        reflector = getattr(self, "reflector", None)
        if reflector is not None:
            reflector.tell(what)

    # ---- the models and the index ------------------------------------------------

    @property
    def model_name(self) -> str:
        return self.chat.name

    def use_model(self, chat: ChatModel) -> bool:
        """Answer with `chat` from now on, without a restart: at once when no turn is under way (True), else from
        the end of that turn (False); the model it replaces is closed. Work between turns yields first (it waits
        for it: call it off the window's thread)."""
        self.conversation.interrupt()
        start = getattr(chat, "start_loading", None)
        if start is not None:
            start()
        return self.chat.switch(chat)

    def on_model_switch(self, listener: Callable[[str], None]) -> None:
        """`listener(name)` hears, from any thread, that the model named `name` now answers."""
        self.chat.on_switch(lambda model: listener(model.name))

    def model_ready(self) -> bool:
        """Whether the chat model has loaded (one the person chose may take many seconds); one that loads nothing
        is always ready."""
        return getattr(self.chat, "ready", True)

    def gpu_report(self, load: bool = False) -> str:
        """Where the chat model runs, in one line for a person (models/gpu.py). `load`: a local model is loaded
        first, so the report can count its layers."""
        if load:
            getattr(self.chat, "llama", None)  # a local model's llama.cpp handle waits until it has loaded
        return gpu_report(self.chat.current)

    def indexing(self) -> bool:
        """Whether the vector index is still loading or re-indexing in the background."""
        return self.indexer_thread.is_alive()

    def wait_until_indexed(self) -> None:
        """Wait for the vector index to load (a command that recalls or forgets needs all of it)."""
        self.indexer_thread.join()

    def on_soul(self, soul: Soul, home: Home | None = None) -> "Companion":
        """A companion on `soul`, in this one's home (or `home`: another companion the window switches to), with
        this one's models (the window's import: this one is closed with models=False, and loading them again would
        take seconds)."""
        return Companion(home or self.home, soul, self.chat, self.embedder)

    # ---- a turn -------------------------------------------------------------

    def start_session(self) -> None:
        """A new conversation: recent turns start empty, and earlier ones come back by recall."""
        self.conversation.restart()

    # ---- conversations (one soul, many of them) ------------------------------------

    @property
    def session(self) -> str:
        """The live conversation's session: what the window shows and a turn adds to."""
        return self.conversation.session

    def new_conversation(self) -> str:
        """Start a new conversation (Ctrl+N); returns its session. It is listed once it has a message."""
        self.conversation.restart()
        return self.conversation.session

    def open_conversation(self, session: str) -> None:
        """Go on with an earlier conversation: its newest turns are the transcript again; recall still reaches
        every conversation (one soul)."""
        self.conversations.get(session)  # NotFound for one forgotten meanwhile: the live one stays
        self.conversation.restart(session)

    def title_conversation(self, session: str) -> str | None:
        """Title a conversation from its first exchange through the model, when it can (titles_by_model, the model
        loaded, no turn meanwhile), after the work between turns; returns the title kept, or None (its first line
        stands in). Blocks: call it off the UI thread."""
        if not self.titles_by_model or not self.model_ready():
            return None
        titled = self.reflector.aside("titling a conversation", lambda cancel: self.titling.title(session, cancel))
        return titled if isinstance(titled, str) else None

    def forget_conversation(self, session: str) -> Forgotten:
        """Forget a whole conversation, absolutely: each of its messages as `forget` forgets one (both indexes,
        recalls, what only they held, the live transcript and the model's computed prompt), in one transaction,
        and its title with it. The live conversation, if it was this one, starts anew."""
        self.conversation.interrupt()
        gone = Forgotten()
        with self.soul.transaction():
            for message_id in self.conversations.message_ids(session):
                if self.soul.present({("message", message_id)}):  # not gone already with one before it
                    gone.add(self._forget_one("message", message_id))
        self.conversation.forget(set(gone.taken))
        if self.conversation.session == session:
            self.conversation.restart()
        return gone

    def turn(
        self,
        text: str,
        cancel: threading.Event | None = None,
        external: Sequence[External] = (),
        heard: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> TurnStream:
        """Record the message (and any text from outside sent with it) and prepare the reply; iterate the result
        to stream it. `heard`: see TurnStream. The model stays the same until the reply has ended (use_model)."""
        hold = self.chat.hold()
        try:
            stream = TurnStream(
                self.conversation,
                text,
                external=external,
                cancel=cancel,
                reply_tokens=self.reply_tokens,
                temperature=self.temperature,
                after=self.reflector.after,
                heard=heard,
                ended=hold.release,
            )
        except BaseException:
            hold.release()
            raise
        weakref.finalize(stream, hold.release)  # a turn prepared and never read
        return stream

    def reach_out(self, limits: Limits, typing: Callable[[], bool] = lambda: False) -> ReachedOut:
        """Speak first if a working-memory note or a prediction fell due and `limits` allow (the person's settings);
        says how it ended. Blocks while the model writes: call it off the window's thread. `typing()`: whether the
        person is typing now (nothing is sent then)."""
        return self.reaching_out.look(limits, typing)

    # ---- the last exchange again: versions, as SillyTavern's swipes (conversation/branch.py) ----------------

    def regenerate(self, reply_id: int, cancel: threading.Event | None = None) -> TurnStream:
        """A new reply to the message the last reply answered; the old one is kept as a version."""
        return branch.regenerate(self.conversation, reply_id, **self._turning(cancel))

    def edit_and_resend(self, message_id: int, text: str, cancel: threading.Event | None = None) -> TurnStream:
        """The person's last message as they corrected it, and a new reply; the old pair is kept as a version."""
        return branch.edit_and_resend(self.conversation, message_id, text, **self._turning(cancel))

    def choose_branch(self, message_id: int, index: int) -> Versions:
        """Step to version `index` (0-based) of a message of the last exchange (‹ 1/2 ›): the soul records it, and
        the conversation goes on from it."""
        self.conversation.interrupt()
        return branch.choose(self.conversation, message_id, index)

    def continue_reply(self, reply_id: int, cancel: threading.Event | None = None) -> branch.Continuation:
        """The model goes on with the last reply where it was cut off or stopped; iterate it to stream."""
        return branch.Continuation(
            self.conversation, reply_id, cancel=cancel, reply_tokens=self.reply_tokens, temperature=self.temperature
        )

    def _turning(self, cancel: threading.Event | None) -> dict[str, Any]:
        return {
            "cancel": cancel,
            "reply_tokens": self.reply_tokens,
            "temperature": self.temperature,
            "after": self.reflector.after,
        }

    def interrupt(self) -> None:
        """Stop the work between turns as a turn would (deep reflection at the model's next token) and wait for
        it: the window does before it closes."""
        self.conversation.interrupt()

    def read_draft(self, text: str) -> None:
        """The person paused while typing: the model reads ahead what that message would make. Never blocks."""
        self.reflector.draft(text)

    def settle(self) -> None:
        """Let the work between turns finish (learning, reading ahead), as a person reading the reply would."""
        self.reflector.wait()

    def reflect(self) -> Reflected:
        """Quick reflection now, on what it has not read yet (`python -m anima reflect`)."""
        self.conversation.interrupt()  # nothing else between turns uses the model meanwhile
        return self.reflector.reflect_now()

    def can_reflect_deeply(self, only_if_pending: bool = False) -> bool:
        """Whether deep reflection can run: it is on, and (`only_if_pending`) it has something to reflect on."""
        return self.reflector.deepens(only_if_pending)

    def reflect_deeply(self) -> Deepened | None:
        """Deep reflection now (`python -m anima reflect --deep`; the window when the person is idle): episodes,
        feedback and rules, growth, identity under governance. A turn meanwhile pre-empts it."""
        return self.reflector.deepen()

    def evolve(self) -> Evolved:
        """Rewrite the persona from what was learned, as governance allows (/evolve, the window's button)."""
        self.conversation.interrupt()  # nothing else between turns uses the model meanwhile
        return self.evolution.run()

    def sovereignty(self) -> Sovereignty:
        """How often its reading overrode how the person said they feel, and after they corrected it."""
        return measure_sovereignty(self.soul)

    def bids(self, message_id: int) -> list[dict[str, Any]]:
        """The bids a reply weighed, each with its part and whether the Self followed it (the "Why?" of a reply)."""
        return self.bidding.of(message_id)

    @property
    def parts_mode(self) -> Mode:
        """Standard, or isolated: text from outside reaches the Self only through the parts' bids."""
        return self.bidding.mode

    @parts_mode.setter
    def parts_mode(self, mode: str | Mode) -> None:
        self.conversation.set_mode(mode)

    def shown_parts(self) -> list[PartShown]:
        """The parts as the Open Mind shows them: active first, each with its lineage, its edits and its recent
        bids."""
        return open_parts.shown_parts(self.soul, self.parts, bids=self.bidding.of_part)

    def edit_part(self, part_id: int, text: str, *, shown: dict[str, Any]) -> Part:
        """The person's edit of a part as one whole JSON text, made from `shown`, the part as it was shown to them
        (open_parts.edit_whole: refused, changing nothing, when the part changed since)."""
        return open_parts.edit_whole(self.parts, part_id, text, shown=shown)

    def shown_predictions(self) -> list[PredictionShown]:
        """Every prediction with its part's name, as the Open Mind lists them (the soonest due first)."""
        return open_parts.predictions(self.soul)

    def all_predictions(self) -> tuple[datetime, list[Prediction]]:
        """The companion's time now, and every prediction, newest first (Prediction.status(now) tells pending, due
        and evaluated apart)."""
        return self.predictions.now(), self.predictions.all()

    def install_pack(self, pack: dict[str, Any]) -> Installed:
        """A parts pack read from a file (parts/packs.py): its affect profile and its parts."""
        return self.packs.install(pack)

    def export_pack(self, name: str, description: str) -> dict[str, Any]:
        """The active parts and the affect profile, as a pack."""
        return self.packs.export(name, description)

    def tend_parts(self, only: list[int] | None = None) -> Tended:
        """Parts hygiene now, on the parts that are due (or those in `only`): `python -m anima parts tend`."""
        return tend(self.soul, self.chat, self.parts, messages=self.messages, name=self.name, only=only)

    def evaluate_due(self) -> list[Evaluated]:
        """Judge the predictions that fell due now, as the reflector does between turns."""
        self.conversation.interrupt()
        return self.reflector.evaluate_now()

    def recall(self, query: str, k: int = 10, exclude: frozenset[tuple[str, int]] = frozenset()) -> list[Recalled]:
        return self.clerk.pick(query, k, exclude)

    def search_mind(self, query: str, per_kind: int = search.PER_KIND) -> dict[str, list[search.Found]]:
        """Every kind at once, by words and by meaning, grouped by kind (kind -> found, best first)."""
        return self.mind_search.search(query, per_kind)

    def last_recalled(self, kind: str) -> dict[int, str]:
        """Why each item of `kind` was recalled the last time a reply held it, in words, by id."""
        return self.workspace_record.last(kind)

    def section_history(self, name: str) -> list[dict[str, Any]]:
        """How a section of the self changed, oldest first: when, who, what it said before and after."""
        return self.self_model.history(name)

    def why(self, message_id: int) -> list[dict[str, Any]]:
        """What the workspace of a reply held and why (its scores), best first, each with its text now."""
        rows = self.workspace_record.of(message_id)
        now_rows = self.recaller.items([(r["item_kind"], r["item_id"]) for r in rows])
        return [{**r, "text": now_rows.get((r["item_kind"], r["item_id"]), {}).get("text")} for r in rows]

    def tokens_by_tier(self, message_id: int) -> dict[str, int] | None:
        """What a reply's workspace took, in the model's tokens by tier (workspace/budget.py), beside why():
        known for the replies of this session; None for another."""
        return self.conversation.spent(message_id)

    # ---- the Open Mind ----------------------------------------------------------

    def forget(self, kind: str, item_id: int) -> Forgotten:
        """Forget one item everywhere, the live conversation and the model's computed prompt included; for a
        message, what the companion wrote with words only it held too (knowledge/traces.py)."""
        self.conversation.interrupt()  # nothing between turns may hold it meanwhile
        gone = self._forget_one(kind, item_id)
        self.conversation.forget(set(gone.taken))
        return gone

    def _forget_one(self, kind: str, item_id: int) -> Forgotten:
        """One item and what only its words reached, in one transaction (or the caller's)."""
        with self.soul.transaction():
            words = traces.specific_words(self.soul, kind, item_id, (self.name, self.user_name))
            gone = self.soul.forget(kind, item_id)
            pattern = traces.only_theirs(self.soul, words, {i for k, i in gone.flagged if k == "memory"})
            if pattern is not None:
                gone.add(self.soul.forget_traces(pattern))
        return gone

    def forget_person(self, name: str) -> Forgotten:
        """Forget everything whose own words name a person (store/forget.py); says what went, by kind."""
        if name_pattern(name) is None:  # a blank name names no one: refused, not a forget of nothing that writes
            raise InvalidEdit("Name the person to forget: the name given is blank.")
        self.conversation.interrupt()
        gone = self.soul.forget_person(name)
        self.conversation.forget(set(gone.taken), name_pattern(name))
        return gone

    def gone_since(self, forgets: int | None, message_ids: Iterable[int]) -> tuple[int, set[int]]:
        """The soul's count of forgets (any program's), and which of these messages are no longer stored when it
        is not `forgets`: what a window shows that another program forgot. One read of a count while nothing
        was forgotten."""
        count = self.soul.forgets()
        if count == forgets:
            return count, set()
        keys = {("message", i) for i in message_ids}
        return count, {i for _, i in keys - self.soul.present(keys)}

    def edit_self(self, name: str, content: str, was: str | None = None) -> None:
        """The person's own edit of a part of the self in the Open Mind. What steers the companion goes through
        the gate (a secret is refused even here); the rest is written as it is. `was`: the text the editor was
        loaded from (as self_model.read() gave it); when the stored text is no longer that, something changed it
        meanwhile (a forget, an accepted proposal, another program), and the edit is refused: the whole text
        written back would undo that change. The check and the write are one transaction."""
        check_plain(name, content)  # before the gate reads it
        self.self_model.prepare()  # the model's tokenizer, which measuring waits for: not while holding the soul
        with self.soul.transaction():
            now = getattr(self.self_model.read(), name, None)
            if was is not None and now is not None and now.strip() != was.strip():
                raise InvalidEdit(
                    f"That was not saved: the {label(name)} was changed by something else after you "
                    f"began editing it, so look at what it holds now and save again."
                )
            if name not in TARGETS:
                self.self_model.write(name, content, "user")
                return
            [decision] = self.gate.submit([Change(name, "rewrite", content, Provenance(Source.APP))])
            if decision.verdict is not Verdict.APPLY:
                raise InvalidEdit(f"That was not saved: {decision.reason}. The old text is kept.")

    def forgets(self) -> int:
        """How many forgets the soul has seen, by any program: a change means something shown may be gone."""
        return self.soul.forgets()

    def data_version(self) -> int:
        """A count that changes when another program on the soul commits anything."""
        return self.soul.data_version()

    def said_elsewhere(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        """What another program on this soul stored of its own conversation after message `after_id`, the oldest
        `limit` first (this session's own messages are never among them)."""
        return self.conversation.said_elsewhere(after_id, limit)

    def growth_log(self) -> list[GrowthEntry]:
        """The growth log's newest entries, newest first, each with what it cites."""
        return GrowthLog(self.soul).entries()

    def edits_of(self, kind: str, item_id: int) -> list[dict[str, Any]]:
        """The history of one item's edits, oldest first."""
        return self.soul.history(kind, item_id)

    def provenance(self, kind: str, item_id: int) -> str:
        """Where an item came from, for a person ("text you pasted, message #12"; "not recorded" for old items)."""
        return shown(self.soul.provenance(kind, item_id))

    def noted(self, message_ids: list[int], wait: float = 120.0) -> list[Noted]:
        """What the turn of these messages taught: learned, or waiting for the person's OK (the cue under the
        reply). Waits up to `wait` seconds for learning from it to finish (call it off the UI thread)."""
        self.reflector.learned(wait)
        return noted(self.memories, self.gate, message_ids)

    def proposals(self, pending_only: bool = True) -> list[dict[str, Any]]:
        """Changes that wait for the person's say, each with where it came from."""
        return self.gate.pending() if pending_only else self.gate.proposals()

    def proposal_stale(self, proposal: dict[str, Any], floor: SelfFloor) -> str | None:
        """Why a proposal can no longer be applied as it was proposed (`floor`: the self as it is now), or None."""
        return self.gate.stale(proposal, floor)

    def on_proposals(self, listener: Callable[[], None]) -> None:
        """`listener()` hears, from any thread, that proposals were made or resolved (the window counts them)."""
        self.gate.on_proposals(listener)

    def accept_proposal(self, proposal_id: int) -> None:
        self.conversation.interrupt()
        self.gate.accept(proposal_id)

    def reject_proposal(self, proposal_id: int) -> None:
        self.gate.reject(proposal_id)

    def undo(self, edit_id: int) -> None:
        self.conversation.interrupt()
        gone = self.history.undo(edit_id)
        if gone:
            self.conversation.forget(set(gone))

    def edits(self, limit: int = 200) -> list[dict[str, Any]]:
        return self.history.edits(limit)

    # ---- the portable core and the readable exports ----------------------------

    def export_core(self, path: str | Path, export_passphrase: str, progress: Progress | None = None) -> None:
        Home.export(self.soul, path, export_passphrase, progress)

    def export_json(self, path: str | Path) -> dict[str, int]:
        return export_json(self.soul, path)

    def close(self, *, models: bool = True) -> None:
        """Close what it opened: the work between turns, the index loading, the soul, and the chat model.
        `models=False`: the chat model stays open, for the companion that takes this one's place on another
        soul (the window's import): a closed llama.cpp model, used again, crashes the process."""
        self.conversation.interrupt()
        if self.indexer_thread.ident is not None:
            self.indexer_thread.join()
        self.indexer.close()  # keeps the built vector graph in the soul when that is cheap
        try:
            self.soul.close()  # a full disk at the checkpoint is a DiskFull (what was saved is kept)
        finally:
            if models:
                self.chat.close()  # the model's native memory is freed all the same
