"""Lorebooks: SillyTavern's World Info files and a character card's `character_book`, in and out as world cards.

Two shapes come in. A World Info file is `{"entries": {"<uid>": {key, keysecondary, comment, content, constant,
selective, selectiveLogic, order, position (a number), disable, caseSensitive, ...}}}`; a character book (the
chara_card_v2 / v3 specs) is `{"entries": [{keys, secondary_keys, comment, name, content, constant, selective,
insertion_order, enabled, position ("before_char" | "after_char"), case_sensitive, priority, id, extensions}]}`.
Both become the same entries, mapped as SillyTavern's own conversions map one to the other (the World Info
fields it has no v2 name for live in the entry's `extensions`, under the names SillyTavern writes there). Tools
mix them (a card's book with World Info's `key` and `disable`, a character book keyed by uid), so each entry of
any book is read by the field names it has, whatever the others use (from_book). A yes-or-no field given as a
string ("true", "false", "1", "0", as some editors write them) is read as the yes or no it says, never as a
string that is merely not empty. Each
entry is a world card: its keys are the card's keywords, its comment (or name, or first key) its title, its
content its text, its enabled state the card's, and the rest its options, so an export gives it all back.

Other tools' lorebooks come in as SillyTavern's World Info import takes them: told apart by the mark each puts on
its books (NovelAI's `lorebookVersion`, Agnai's memory book `"kind": "memory"`, RisuAI's `"type": "risu"`, its
entries under `data`), each entry read as the World Info entry SillyTavern's conversions make of it (world-info.js:
convertNovelLorebook, convertAgnaiMemoryBook, convertRisuLorebook), then by the one path every entry takes; the
fields World Info has no name for are kept with the rest of its fields (options["wi"]).

Text in a lorebook is data: a card made from it is marked as from an imported card (store/provenance.py), and
a note shows it as information, never instructions (workspace/note.py).
"""

from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Any, overload

from ..errors import KnownError
from ..knowledge.world import (
    CARD_KINDS,
    IMPORTED_BODY_CHARS,
    IMPORTED_KEYWORD_CHARS,
    IMPORTED_KEYWORDS,
    TITLE_CHARS,
    WorldCards,
)
from ..store.provenance import Provenance, Source
from ..trust import secrets
from ..trust.conduct import directs
from ..trust.markup import unformatted
from ..trust.verdict import tainted
from ..trust.words import sentences

ENTRIES_MOST = 2000
DEFAULT_KIND = "situation"  # a lorebook says nothing of Anima's kinds; one exported from Anima says its own
# World Info fields and the names SillyTavern gives them in a character book entry's `extensions`.
_WI_TO_EXTENSION = {
    "position": "position",
    "excludeRecursion": "exclude_recursion",
    "preventRecursion": "prevent_recursion",
    "delayUntilRecursion": "delay_until_recursion",
    "displayIndex": "display_index",
    "probability": "probability",
    "useProbability": "useProbability",
    "depth": "depth",
    "selectiveLogic": "selectiveLogic",
    "group": "group",
    "groupOverride": "group_override",
    "groupWeight": "group_weight",
    "scanDepth": "scan_depth",
    "matchWholeWords": "match_whole_words",
    "useGroupScoring": "use_group_scoring",
    "automationId": "automation_id",
    "role": "role",
    "vectorized": "vectorized",
    "sticky": "sticky",
    "cooldown": "cooldown",
    "delay": "delay",
}
_EXTENSION_TO_WI = {v: k for k, v in _WI_TO_EXTENSION.items()}
# World Info fields every entry is mapped from (the rest are kept under options["wi"] as they were).
_WI_MAPPED = {
    "uid",
    "key",
    "keysecondary",
    "comment",
    "content",
    "constant",
    "selective",
    "order",
    "disable",
    "caseSensitive",
    "anima",
} | set(_WI_TO_EXTENSION)


@dataclass(frozen=True)
class _Tool:
    """Another tool's lorebook: the mark it puts on its books, where its entries are, and its entries' field names
    as the World Info names SillyTavern's conversion gives them (an entry's `enabled` is World Info's `disable`
    turned over, whatever the tool)."""

    mark: str
    says: object  # what the mark says; None: any value
    entries: str
    names: dict[str, str]


_TOOLS = (
    # NovelAI: an entry forced to activate is always in the context, as a constant entry is.
    _Tool(
        "lorebookVersion",
        None,
        "entries",
        {"displayName": "comment", "keys": "key", "text": "content", "forceActivation": "constant"},
    ),
    _Tool("kind", "memory", "entries", {"name": "comment", "keywords": "key", "entry": "content", "weight": "order"}),
    _Tool("type", "risu", "data", {"secondkey": "keysecondary", "alwaysActive": "constant", "insertorder": "order"}),
)


class LorebookRefused(KnownError):
    """A lorebook (or a card's book) that cannot come in; nothing was changed."""


@dataclass
class LoreEntry:
    title: str
    content: str
    keys: list[str]
    enabled: bool = True
    kind: str = DEFAULT_KIND
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Lorebook:
    name: str
    entries: list[LoreEntry]
    meta: dict[str, Any] = field(default_factory=dict)  # a character book's own fields (scan_depth, ...), entries aside
    empty: int = 0  # entries with no text, left out


def _strings(value: object) -> list[str]:
    """Keys as a list of non-empty strings: a list, or one comma-separated string (older files)."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return []
    out: list[str] = []
    for v in value:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        if isinstance(v, str) and v.strip() and v.strip() not in out:
            out.append(v.strip())
    return out


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


@overload
def _flag(value: object, default: bool) -> bool: ...
@overload
def _flag(value: object, default: None) -> bool | None: ...
def _flag(value: object, default: bool | None) -> bool | None:
    """A yes-or-no field: a boolean, a number (0 is no), or "true" / "false" / "1" / "0" (or yes / no, on / off;
    case and spaces aside); anything else (missing, null, another string) is `default`."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        said = value.strip().lower()
        if said in ("true", "1", "yes", "on"):
            return True
        if said in ("false", "0", "no", "off"):
            return False
    return default


def _number(value: object, default: float | None = None) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _title(options: dict[str, Any], keys: list[str], content: str) -> str:
    for candidate in (options.get("comment"), options.get("name"), *keys[:1], content):
        candidate = " ".join(_text(candidate).split())
        if candidate:
            if len(candidate) <= TITLE_CHARS:
                return candidate
            cut = candidate[: TITLE_CHARS - 1].rsplit(" ", 1)[0] or candidate[: TITLE_CHARS - 1]
            return cut + "…"
    return "Entry"


def _entry(where: str, content: str, keys: list[str], enabled: bool, options: dict[str, Any]) -> LoreEntry:
    if len(content) > IMPORTED_BODY_CHARS:
        raise LorebookRefused(
            f"{where} holds {len(content):,} characters of text; an entry may hold at most "
            f"{IMPORTED_BODY_CHARS:,}. Nothing was imported."
        )
    if len(keys) > IMPORTED_KEYWORDS or any(len(k) > IMPORTED_KEYWORD_CHARS for k in keys):
        raise LorebookRefused(
            f"{where} has more keys than an entry may ({IMPORTED_KEYWORDS} of at most "
            f"{IMPORTED_KEYWORD_CHARS} characters). Nothing was imported."
        )
    # Anima's own extension when it is an object; anything else there ("anima": "yes") is read as absent, as a
    # non-object `extensions` is, and not kept (an export writes Anima's own in its place).
    options["extensions"] = ext = {
        k: v for k, v in (options.get("extensions") or {}).items() if k != "anima" or isinstance(v, dict)
    }
    anima: dict[str, Any] = ext.get("anima") or {}  # kept above only when an object
    kind: str = anima["kind"] if anima.get("kind") in CARD_KINDS else DEFAULT_KIND
    if anima.get("title_wakes") is True:  # a card written in Anima, exported: it wakes by its title still
        options["title_wakes"] = True
    options = {k: v for k, v in options.items() if v is not None and v != [] and v != ""}
    options.setdefault("order", 100)  # a lorebook entry's options are never empty (world.py reads that so)
    return LoreEntry(_title(options, keys, content), content.strip(), keys, enabled, kind, options)


def from_book(book: dict[str, Any], name: str = "") -> Lorebook:
    """A book as it comes (a card's `character_book`, a World Info file, a bare character book): its entries a
    list or keyed by uid, each read by the field names it has, the spec's or World Info's (`key`, `keysecondary`,
    `disable`, `order`), whatever the others use; another tool's (_TOOLS) by its own. The book's own fields are
    kept (`meta`)."""
    items, tool = _items(book)
    entries = [
        _wi_entry_in(uid, e, "Entry {} of its lorebook") if tool or _world_info_shaped(e) else _book_entry_in(i, e)
        for i, (uid, e) in enumerate(items)
    ]
    return _book(book, name, entries, tool)


def _tool(book: dict[str, Any]) -> _Tool | None:
    return next((t for t in _TOOLS if t.mark in book and t.says in (None, book[t.mark])), None)


def _items(book: dict[str, Any]) -> tuple[list[tuple[str | int, object]], _Tool | None]:
    """A book's entries, (uid or index, entry), each of another tool's as the World Info entry it stands for; and
    the tool, if another wrote it."""
    tool = _tool(book)
    raw = book.get(tool.entries if tool else "entries")
    items: list[tuple[str | int, object]] | None = (
        list(raw.items()) if isinstance(raw, dict) else list(enumerate(raw)) if isinstance(raw, list) else None
    )
    if items is None:
        raise LorebookRefused("Its lorebook has no list of entries. Nothing was imported.")
    _count(items)
    return ([(uid, _as_world_info(e, tool.names)) for uid, e in items] if tool else items), tool


def _as_world_info(e: object, names: dict[str, str]) -> object:
    if not isinstance(e, dict):
        return e  # refused as not an object where it is read
    out: dict[str, object] = {(names[k] if k in names else k): v for k, v in e.items() if k != "enabled"}
    if "enabled" in e:
        out["disable"] = not _flag(e["enabled"], True)
    return out


def _world_info_shaped(e: object) -> bool:
    """Whether an entry is written with World Info's field names rather than a character book's."""
    return isinstance(e, dict) and "keys" not in e and any(k in e for k in ("key", "keysecondary", "disable", "uid"))


def _book(book: dict[str, Any], name: str, entries: list[LoreEntry | None], tool: _Tool | None = None) -> Lorebook:
    # Another tool's mark is not kept: the entries go out in the spec's shape, and would be misread under it.
    meta = {k: v for k, v in book.items() if k != "entries" and not (tool and k in (tool.mark, tool.entries))}
    return Lorebook(
        _text(book.get("name")) or name, [e for e in entries if e is not None], meta, sum(e is None for e in entries)
    )


def _book_entry_in(i: int, e: object) -> LoreEntry | None:
    """One entry of a character book; None for one with no text."""
    if not isinstance(e, dict):
        raise LorebookRefused(f"Entry {i + 1} of its lorebook is not an object. Nothing was imported.")
    content = _text(e.get("content"))
    if not content.strip():
        return None
    ext: dict[str, Any] = e["extensions"] if isinstance(e.get("extensions"), dict) else {}
    position = e.get("position") if e.get("position") in ("before_char", "after_char") else None
    options = {
        "id": e.get("id") if isinstance(e.get("id"), (int, str)) else None,
        "secondary_keys": _strings(e.get("secondary_keys")),
        "selective": _flag(e.get("selective"), False),
        "selective_logic": _number(ext.get("selectiveLogic")),
        "constant": _flag(e.get("constant"), False),
        "order": _number(e.get("insertion_order"), 100),
        "position": position,
        "case_sensitive": _flag(e.get("case_sensitive"), None),
        "priority": _number(e.get("priority")),
        "name": _text(e.get("name")),
        "comment": _text(e.get("comment")),
        "use_regex": e.get("use_regex"),
        "extensions": ext,
    }
    return _entry(
        f"Entry {i + 1} of its lorebook", content, _strings(e.get("keys")), _flag(e.get("enabled"), True), options
    )


def _wi_entry_in(uid: str | int, e: object, where: str) -> LoreEntry | None:
    """One World Info entry; None for one with no text."""
    if not isinstance(e, dict):
        raise LorebookRefused(f"{where.format(uid)} is not an object. Nothing was imported.")
    content = _text(e.get("content"))
    if not content.strip():
        return None
    ext = {_WI_TO_EXTENSION[k]: v for k, v in e.items() if k in _WI_TO_EXTENSION and k != "selectiveLogic"}
    if isinstance(e.get("anima"), dict):
        ext["anima"] = e["anima"]
    position = _number(e.get("position"))
    options = {
        "id": e.get("uid", uid),
        "secondary_keys": _strings(e.get("keysecondary")),
        "selective": _flag(e.get("selective"), False),
        "selective_logic": _number(e.get("selectiveLogic")),
        "constant": _flag(e.get("constant"), False),
        "order": _number(e.get("order"), 100),
        "position": None if position is None else ("before_char" if position == 0 else "after_char"),
        "case_sensitive": _flag(e.get("caseSensitive"), None),
        "comment": _text(e.get("comment")),
        "extensions": ext,
        "wi": {k: v for k, v in e.items() if k not in _WI_MAPPED},
    }
    return _entry(where.format(uid), content, _strings(e.get("key")), not _flag(e.get("disable"), False), options)


def _count(entries: Sized) -> None:
    if len(entries) > ENTRIES_MOST:
        raise LorebookRefused(
            f"It has {len(entries):,} lorebook entries; Anima takes at most {ENTRIES_MOST:,} at "
            "once. Nothing was imported."
        )


def parse(data: object, name: str = "") -> Lorebook:
    """Any lorebook: a World Info file, a bare character book, another tool's (_TOOLS), or a character card (or
    an Agnai character) that carries one."""
    if not isinstance(data, dict):
        raise LorebookRefused("It is not a lorebook (a JSON object with entries). Nothing was imported.")
    if str(data.get("spec", "")).startswith("chara_card_") and isinstance(data.get("data"), dict):
        book = data["data"].get("character_book")
        if not isinstance(book, dict):
            raise LorebookRefused("It is a character card with no lorebook in it. Nothing was imported.")
        return from_book(book, _text(data["data"].get("name")) or name)
    # Agnai's character file keeps its memory book under `characterBook` (null when it has none).
    if "characterBook" in data and not isinstance(data.get("entries"), (dict, list)):
        book = data["characterBook"]
        if not isinstance(book, dict):
            raise LorebookRefused("It is a character with no lorebook in it. Nothing was imported.")
        return from_book(book, _text(book.get("name")) or _text(data.get("name")) or name)
    if isinstance(data.get("entries"), (dict, list)) or _tool(data):
        book = from_book(data, name)
        # Entries that are all without the field a lorebook keeps an entry's text in are some other file's, not
        # empty entries: said so, rather than "0 world cards" as if it had been read.
        if (
            book.empty
            and not book.entries
            and not any(isinstance(e, dict) and "content" in e for _, e in _items(data)[0])
        ):
            raise LorebookRefused(
                "It is not a lorebook: none of its entries has the text field a lorebook entry "
                "has. Nothing was imported."
            )
        return book
    raise LorebookRefused("It is not a lorebook: there are no entries in it. Nothing was imported.")


# ---- into the soul ----------------------------------------------------------------


@dataclass
class Imported:
    created: list[int] = field(default_factory=list)
    disabled: int = 0
    already: int = 0  # the same card (title, text, keys) was already there
    secret: int = 0  # left out: they held a secret
    held: int = 0  # came in off: a link, a code, or obeying or being owned (held_back)

    def summary(self) -> str:
        said = f"{len(self.created)} world card{'s' if len(self.created) != 1 else ''}"
        if self.disabled:
            said += f" ({self.disabled} disabled, as they were)"
        if self.held:
            said += f"; {self.held} off until you turn them on (a link, a code or an order in them)"
        if self.already:
            said += f"; {self.already} already here"
        if self.secret:
            said += f"; {self.secret} left out: they held a secret, and secrets are never kept"
        return said


def held_back(text: str, person: str = "", companion: str = "") -> str | None:
    """Why an entry's text comes in off, for the person to read and turn on (verdict.tainted: a link, a code, obeying
    or being owned; conduct.directs: whom the companion answers to, what it writes about the person, whose messages
    count as theirs, however worded), or None. A tag that is formatting alone (<i>, <b>) is no link here, as in a
    card's fields. `person`, `companion`: their names (as cards.held_back takes them): the companion's own name is
    no one else."""
    plain = unformatted(text)
    return tainted(plain) or next((why for s in sentences(plain) if (why := directs(s, person, companion))), None)


def add(world: WorldCards, entries: list[LoreEntry], detail: str, person: str = "", companion: str = "") -> Imported:
    """Each entry as a world card (inside the caller's transaction when there is one: all of them, or none). An
    entry holding a secret is left out (secrets are never kept); one the gate would hold back (a link, a code,
    obeying or being owned: held_back) comes in off, for the person to read and turn on."""
    done, have = Imported(), world.existing()
    with world.soul.transaction():
        for e in entries:
            if (e.title, e.content, tuple(e.keys)) in have:
                done.already += 1
                continue
            text = f"{e.title}\n{e.content}"
            if secrets.find(text):
                done.secret += 1
                continue
            held = e.enabled and held_back(text, person, companion) is not None
            done.created.append(
                world.create(
                    e.kind,
                    e.title,
                    e.content,
                    e.keys,
                    "user",
                    enabled=e.enabled and not held,
                    options=e.options,
                    provenance=Provenance(Source.CARD, detail=detail),
                )
            )
            have.add((e.title, e.content, tuple(e.keys)))
            done.disabled += not e.enabled
            done.held += held
    return done


# ---- out of it ---------------------------------------------------------------------


def _book_entry(card: dict[str, Any], index: int) -> dict[str, Any]:
    o = card["options"]
    ext = dict(o.get("extensions") or {})
    if o.get("selective_logic") is not None:
        ext["selectiveLogic"] = o["selective_logic"]
    ext["anima"] = {**(ext.get("anima") or {}), "kind": card["kind"]}
    if not o or o.get("title_wakes"):
        ext["anima"]["title_wakes"] = True
    entry: dict[str, Any] = {
        "id": o.get("id", index),
        "keys": card["keywords"],
        "secondary_keys": o.get("secondary_keys", []),
        "comment": o.get("comment", card["title"]) if o else card["title"],
        "content": card["body"],
        "constant": bool(o.get("constant")),
        "selective": bool(o.get("selective")),
        "insertion_order": o.get("order", 100),
        "enabled": bool(card["enabled"]),
        "position": o.get("position") or "before_char",
        "use_regex": o.get("use_regex", True),
        "extensions": ext,
    }
    for key in ("name", "priority", "case_sensitive"):
        if o.get(key) is not None:
            entry[key] = o[key]
    return entry


def character_book(cards: list[dict[str, Any]], meta: dict[str, Any], name: str) -> dict[str, Any]:
    """World cards (WorldCards.all()) as a card's `character_book`."""
    book: dict[str, Any] = {"name": f"{name}'s world", "extensions": {}, **meta}
    book["entries"] = [_book_entry(c, i) for i, c in enumerate(sorted(cards, key=lambda c: c["id"]))]
    return book


def world_info(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """World cards as a SillyTavern World Info file (what its World Info import reads)."""
    entries: dict[str, dict[str, Any]] = {}
    for i, card in enumerate(sorted(cards, key=lambda c: c["id"])):
        b = _book_entry(card, i)
        uid = b["id"] if isinstance(b["id"], int) and str(b["id"]) not in entries else i
        while str(uid) in entries:  # two books' entries may share an id
            uid += 1
        ext = b["extensions"]
        e: dict[str, Any] = {
            "uid": uid,
            "key": b["keys"],
            "keysecondary": b["secondary_keys"],
            "comment": b["comment"],
            "content": b["content"],
            "constant": b["constant"],
            "vectorized": False,
            "selective": b["selective"],
            "selectiveLogic": ext.get("selectiveLogic", 0),
            "addMemo": True,
            "order": b["insertion_order"],
            "position": ext.get("position", 0 if b["position"] == "before_char" else 1),
            "disable": not b["enabled"],
            "probability": 100,
            "useProbability": True,
            "depth": 4,
            "displayIndex": i,
            "anima": ext["anima"],
        }
        e.update({_EXTENSION_TO_WI[k]: v for k, v in ext.items() if k in _EXTENSION_TO_WI and k != "selectiveLogic"})
        if b.get("case_sensitive") is not None:
            e["caseSensitive"] = b["case_sensitive"]
        e.update(card["options"].get("wi") or {})
        entries[str(uid)] = e
    return {"entries": entries}
