"""The kinds of record the soul holds, declared once.

The store (which columns may be written), forgetting (where an item's words
are, what to flag), the indexes (what is full-text indexed and embedded),
recall, the exports and the Open Mind all read this table; none of them
writes the mapping out again.
"""

from dataclasses import dataclass
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


@dataclass(frozen=True)
class Kind:
    name: str  # "memory": how code, the edit history and evidence links name it
    table: str  # "memories": its table, and its key in `export --json`
    columns: tuple[str, ...]  # what a person or the AI may write
    text: tuple[str, ...]  # what the item itself says (forgetting a person looks here and nowhere else)
    title: str  # how a person reads its name ("world card")
    full_text: tuple[str, ...] = ()  # its own words in FTS5 ({table}_fts, and {table}_grams for unspaced scripts)
    embedded: tuple[str, ...] = ()  # the text its vector is made from; non-empty: recall finds it
    flaggable: bool = False  # has needs_regeneration: flagged when something it cites is forgotten
    sections: bool = False  # one row per section of text: forgetting a person removes lines, not the row
    # Made wholly from other items (flaggable too): once flagged, its words may carry what went, so it stands for
    # nothing (recall, the live session) until deep reflection makes it again (reflect/regenerate.py).
    made_again: bool = False
    # A column holding a JSON document, and the schema (a file in anima/resources) every stored one fits: the code
    # that reads it takes its fields as given, so an import refuses a core holding one that does not fit.
    document: tuple[str, str] | None = None

    @property
    def recalled(self) -> bool:
        return bool(self.embedded)

    @property
    def titles(self) -> str:
        """Its title for more than one ("memories", "growth-log entries")."""
        return plural(self.title)

    def amount(self, n: int) -> str:
        """`n` of it, as a person reads it: "1 memory", "2 memories"."""
        return f"{n} {self.title if n == 1 else self.titles}"


def plural(noun: str) -> str:
    """A kind's title (or a word like it) for more than one: every title is a regular English noun."""
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


_ALL = (
    Kind(
        "message",
        "messages",
        ("session", "role", "speaker", "content", "created_at"),
        text=("content",),
        title="message",
        full_text=("speaker", "content"),
        embedded=("speaker", "content"),
    ),
    Kind(
        "memory",
        "memories",
        (
            "kind",
            "content",
            "source",
            "source_message_id",
            "importance",
            "valid_from",
            "valid_to",
            "superseded_by",
            "suppression",
            "loads",
            "uses",
            "last_used_at",
            "needs_regeneration",
            "created_at",
        ),
        text=("content",),
        title="memory",
        full_text=("content",),
        embedded=("content",),
        flaggable=True,
    ),
    Kind(
        "episode",
        "episodes",
        (
            "summary",
            "started_at",
            "ended_at",
            "emotional_arc",
            "significance",
            "self_assessment",
            "needs_regeneration",
            "created_at",
        ),
        text=("summary", "emotional_arc", "self_assessment"),
        title="episode",
        full_text=("summary",),
        embedded=("summary",),
        flaggable=True,
        made_again=True,
    ),
    Kind(
        "world_card",
        "world_cards",
        ("kind", "title", "body", "keywords", "created_at", "updated_at", "enabled", "options"),
        text=("title", "body", "keywords", "options"),
        title="world card",
        full_text=("title", "body", "keywords"),
        embedded=("title", "body"),
    ),
    Kind(
        "part",
        "parts",
        ("name", "data", "archived", "created_at", "updated_at", "lineage"),
        text=("name", "data"),
        title="part",
        document=("data", "part.schema.json"),
    ),
    Kind(
        "prediction",
        "predictions",
        (
            "part_id",
            "suggestion",
            "predicted_result",
            "confidence",
            "timeframe_s",
            "made_at",
            "due_at",
            "result",
            "evaluated_at",
        ),
        text=("suggestion", "predicted_result", "result"),
        title="prediction",
    ),
    Kind(
        "self_model",
        "self_model",
        ("section", "content", "needs_regeneration", "updated_at"),
        text=("content",),
        title="self-model section",
        flaggable=True,
        sections=True,
    ),
    Kind("block", "blocks", ("name", "content", "updated_at"), text=("content",), title="block", sections=True),
    Kind(
        "growth_log",
        "growth_log",
        ("at", "entry", "needs_regeneration"),
        text=("entry",),
        title="growth-log entry",
        flaggable=True,
    ),
    Kind(
        "rule",
        "behavioral_rules",
        ("pattern", "confidence", "derived_at", "retired_at", "needs_regeneration", "support", "against"),
        text=("pattern",),
        title="behavioural rule",
        flaggable=True,
    ),
    Kind(
        "signal",
        "emotional_signals",
        (
            "message_id",
            "signal",
            "evidence",
            "at",
            "valence",
            "arousal",
            "dominance",
            "confidence",
            "evidence_type",
            "trajectory",
        ),
        text=("signal", "evidence"),
        title="emotional signal",
    ),
    Kind(
        "character_card",
        "character_cards",
        ("name", "spec", "data", "persona", "imported_at"),
        text=("name", "data", "persona"),
        title="character card",
    ),
    Kind(
        "proposal",
        "proposals",
        (
            "target",
            "op",
            "content",
            "replaces",
            "reason",
            "source",
            "message_id",
            "detail",
            "status",
            "created_at",
            "resolved_at",
        ),
        text=("content", "replaces", "detail"),
        title="proposed change",
    ),
)

KINDS: dict[str, Kind] = {k.name: k for k in _ALL}
RECALLED: tuple[str, ...] = tuple(k.name for k in _ALL if k.recalled)
INDEXED: tuple[Kind, ...] = tuple(k for k in _ALL if k.full_text)
# Records about records: the history of every edit, what cites what, what each reply's workspace held, and the
# bids it weighed; the versions of a message and which one the conversation goes on from, and how a reply ended.
LEDGERS = (
    "edit_history",
    "evidence",
    "recalls",
    "provenance",
    "bids",
    "message_versions",
    "version_chosen",
    "reply_endings",
)
# A conversation's row (its title, its counts): a trigger makes one as each message is stored, so an import,
# having restored the messages, lets the core's row (with the title) take the place of the one the trigger made.
CONVERSATIONS = "conversations"
# Every table that makes up the soul (what a portable core carries and an import restores), in the order an
# import restores them: conversations after the messages.
SOUL_TABLES = ("meta", *(k.table for k in _ALL), *LEDGERS, CONVERSATIONS, "embeddings")


def kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown kind of record: {name!r}") from None


def full_text_tables() -> list[str]:
    """Every FTS5 table the soul keeps (forgetting merges each, so no old segment still holds a word): the
    stemmed index of each indexed kind, and its trigram index for scripts written without spaces."""
    return [f"{k.table}_{index}" for k in INDEXED for index in ("fts", "grams")]
