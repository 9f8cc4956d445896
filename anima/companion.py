"""The Companion: the one facade the window, the terminal and the tests drive.

unlock, turn, recall, the Open Mind (self, memories, world cards, history),
forget, export and import. Heavy things (the chat model, the embedder, the
vector index) load in the background; nothing here imports Qt.
"""

import dataclasses
import threading
from pathlib import Path

from .between import BetweenTurns
from .errors import NotFound
from .mind.conversation import Conversation
from .mind.feelings import Feelings
from .mind.human import HumanNotes
from .mind.memories import Memories
from .mind.selfmodel import SelfFloor, SelfModel
from .mind.world import Clerk, WorldCards
from .models.chat import ChatModel
from .models.embedder import Embedder
from .retrieval.indexer import Indexer
from .retrieval.recall import Recall, Recalled
from .store import Home, Soul
from .store.soul import now
from .turn import TurnStream
from .workspace import Entry, Workspace


class Companion:
    def __init__(self, home: Home, soul: Soul, chat: ChatModel, embedder: Embedder, *, session: str | None = None,
                 background: bool = True):
        self.home = home
        self.soul = soul
        self.chat = chat
        self.embedder = embedder
        # Each opening is a new session: its turns are the recent history; earlier sessions come back by recall.
        self.session = session or now()
        self.reply_tokens = 384
        self.temperature = 0.7
        self.indexer = Indexer(soul, embedder)
        # Loading stored vectors and re-indexing run in the background; a window starts them after its
        # first paint (start_background), a terminal or a test at once.
        self.indexer_thread = threading.Thread()
        if background:
            self.start_background()
        self.conversation = Conversation(soul, self.indexer)
        self.memories = Memories(soul, self.indexer)
        self.world = WorldCards(soul, self.indexer)
        self.self_model = SelfModel(soul)
        self.feelings = Feelings(soul)
        self.recaller = Recall(soul, self.indexer)
        self.clerk = Clerk(soul, self.recaller)
        # The session's transcript as sent to the model (see workspace.py), and the focus and feelings it last saw.
        self.transcript: list[Entry] = [
            Entry("assistant" if m["role"] == "companion" else "user", m["content"], frozenset({("message", m["id"])}))
            for m in self.conversation.recent(self.session, 200)]
        self.focus_shown = self.feelings_shown = ""
        # Learning about the person as they talk (mind/human.py); a person may turn it off for this soul.
        self.human_notes = HumanNotes(soul, chat, self.self_model, self.memories)
        self.learns = soul.get_meta("learns_in_conversation", "1") == "1"
        self.learned_unsaid: list[tuple[int, str]] = []  # learned, not yet in a note the model has read
        self.floor_sent: SelfFloor | None = None  # the floor at the head of the transcript's prefix
        self.between = BetweenTurns(self)

    def start_background(self, chat: bool = True) -> None:
        """Start what loads in the background: the models, then the vector index."""
        for model in (self.chat, self.embedder) if chat else (self.embedder,):
            start = getattr(model, "start_loading", None)
            if start:
                start()
        if not self.indexer_thread.is_alive() and self.indexer_thread.ident is None:
            self.indexer_thread = self.indexer.start()

    # ---- opening ------------------------------------------------------------

    @classmethod
    def create(cls, home: Home, passphrase: str, name: str, chat: ChatModel, embedder: Embedder, *,
               user_name: str = "", remember: bool = False) -> "Companion":
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

    def workspace(self) -> Workspace:
        return Workspace(self.chat.count_tokens, self.chat.capabilities.context_tokens)

    # ---- a turn -------------------------------------------------------------

    def start_session(self) -> None:
        """A new conversation: recent turns start empty, and earlier ones come back by recall."""
        self.between.turn_started()
        self.session = now()
        self.transcript = []
        self.focus_shown = self.feelings_shown = ""
        self.floor_sent = None

    def floor(self) -> SelfFloor:
        """The SELF floor for the next prompt. What the companion itself wrote into the human block during
        this session reaches the model in notes (render_note's `learned`), so the floor, at the very head
        of the prompt, stays byte-identical and the computed prefix stays valid; a person's own edits
        show at once."""
        live = self.self_model.read()
        sent = self.floor_sent
        if sent is not None and self.transcript and live.human == self.human_notes.written:
            return dataclasses.replace(live, human=sent.human)
        return live

    def read_draft(self, text: str) -> None:
        """The person paused while typing: the model reads ahead what that message would make. Never blocks."""
        self.between.draft(text)

    def settle(self) -> None:
        """Let the work between turns finish (learning, reading ahead), as a person reading the reply would."""
        self.between.wait()

    def transcript_keys(self) -> set:
        """Items the transcript already holds: its own messages and the items its notes recalled."""
        keys = set()
        for e in self.transcript:
            keys |= e.keys
        return keys

    def turn(self, text: str, cancel: threading.Event | None = None) -> TurnStream:
        """Record the message and prepare the reply; iterate the result to stream it."""
        return TurnStream(self, text, cancel)

    def recall(self, query: str, k: int = 10, exclude=frozenset()) -> list[Recalled]:
        return self.clerk.pick(query, k, exclude)

    def why(self, message_id: int) -> list[dict]:
        """What the workspace of a reply held and why (its scores), best first, each with its text now."""
        import json
        rows = self.soul.query("SELECT item_kind, item_id, rank, score, components FROM recalls WHERE message_id = ? "
                               "ORDER BY rank", (message_id,))
        now_rows = self.recaller.items([(r["item_kind"], r["item_id"]) for r in rows])
        return [{**r, "components": json.loads(r["components"]),
                 "text": now_rows.get((r["item_kind"], r["item_id"]), {}).get("text")} for r in rows]

    # ---- the Open Mind ----------------------------------------------------------

    def forget(self, kind: str, item_id: int) -> None:
        self.soul.forget(kind, item_id)

    def forget_person(self, name: str) -> int:
        """Forget every memory, message and card that names a person. Returns how many items went."""
        words = " ".join(name.replace('"', " ").split())
        if not words:
            return 0
        phrase = f'"{words}"'  # FTS5 phrase: the whole name, in order
        gone = 0
        for kind, table in (("memory", "memories"), ("message", "messages"), ("world_card", "world_cards"),
                            ("episode", "episodes")):
            ids = [r["rowid"] for r in self.soul.query(f"SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?",
                                                       (phrase,))]
            for item_id in ids:
                self.soul.forget(kind, item_id)
                gone += 1
        return gone

    def undo(self, edit_id: int) -> None:
        """Undo one recorded edit: an update gets its old values back, a creation is removed.
        The undo is itself recorded (as the user's), so it can be undone in turn."""
        import json
        rows = self.soul.query("SELECT * FROM edit_history WHERE id = ?", (edit_id,))
        if not rows:
            raise NotFound(f"There is no edit #{edit_id} to undo.")
        e = rows[0]
        if e["op"] == "create":
            self.soul.forget(e["item_kind"], e["item_id"])
        elif e["op"] == "update":
            before = json.loads(e["before"])
            self.soul.update(e["item_kind"], e["item_id"], "user", **before)
            if e["item_kind"] in ("memory", "world_card"):
                row = self.soul.get(e["item_kind"], e["item_id"])
                self.indexer.index_items(e["item_kind"], [row])

    def edits(self, limit: int = 200) -> list[dict]:
        return self.soul.query("SELECT * FROM edit_history ORDER BY id DESC LIMIT ?", (limit,))

    # ---- the portable core -------------------------------------------------------

    def export_core(self, path: str | Path, export_passphrase: str, progress=None) -> None:
        Home.export(self.soul, path, export_passphrase, progress)

    def close(self) -> None:
        self.between.turn_started()
        if self.indexer_thread.ident is not None:
            self.indexer_thread.join()
        self.soul.close()
