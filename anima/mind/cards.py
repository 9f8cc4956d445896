"""Character cards (chara_card_v2 and v3, and the older flat v1) in and out of Anima.

A card is a PNG whose `tEXt` chunk `ccv3` (v3) or `chara` (v2; `ccv3` wins when both are there, as in
SillyTavern) holds base64 of UTF-8 JSON, or that JSON as a .json file. Where its fields land:

- `name`: the companion's name.
- `description`, `personality`, `scenario`: the persona (the floor's "My persona"), with {{char}} / {{user}}
  filled in. Sentences that read as orders to the model ("ignore your guardrails", "you must", "system
  prompt"), links, codes and secrets are held back from it. The persona holds at most CAPS["persona"]
  characters and must keep the floor within its tokens: a longer one is trimmed sentence by sentence, each of
  the three getting a fair share. The full texts stay with the card (character_cards.data), are shown, and go
  out again on export while the persona is as the import made it.
- `first_mes`: the companion's first message, when the soul has no conversation yet; `alternate_greetings`,
  `mes_example`, `system_prompt`, `post_history_instructions`, `creator_notes`, `tags`, `creator`,
  `character_version`, `extensions` and any field Anima does not know: kept with the card and shown, never in
  the floor (a card's system prompt never overrides the shipped guardrails), and written back on export.
- `character_book`: each entry a world card (mind/lorebook.py); the book's own fields stay with the card.
- the PNG itself (without the card in it): the companion's picture.

A card is refused with one line, and nothing changed, when its file is over FILE_MOST, its JSON over
JSON_MOST, it is not JSON, its PNG holds no card or is damaged, or its spec is not one of these.
"""

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InvalidEdit, KnownError
from ..store import png_text
from ..store.provenance import Provenance, Source
from ..store.soul import now
from . import lorebook, secrets
from .gate import Change, Verdict, sentences
from .selfmodel import CAPS

FILE_MOST = 16 * 1024 * 1024   # a card's file (PNG or JSON)
JSON_MOST = 4 * 1024 * 1024    # the card's JSON, decoded
NAME_CHARS = 80
SPECS = ("chara_card_v2", "chara_card_v3")
TEXT_FIELDS = ("name", "description", "personality", "scenario", "first_mes", "mes_example", "creator_notes",
               "system_prompt", "post_history_instructions", "creator", "character_version")
LIST_FIELDS = ("alternate_greetings", "tags")
# Kept with the card and shown, never in the floor.
KEPT = ("system_prompt", "post_history_instructions", "mes_example", "alternate_greetings", "creator_notes")
_MACROS = re.compile(r"\{\{\s*(char|user)\s*\}\}|<(BOT|USER)>", re.I)
# A sentence that speaks to the model rather than describing the character.
_ORDERS = re.compile(
    r"\b(?:ignore|disregard|override|bypass|forget)\b[^.!?\n]{0,60}\b(?:instructions?|rules?|guardrails?|"
    r"guidelines?|prompts?|polic(?:y|ies)|restrictions?|filters?|programming|training|limits?)\b|"
    r"\b(?:system prompt|jailbreak|developer mode|do anything now|unrestricted|uncensored|"
    r"no (?:rules|limits|restrictions|filters|boundaries|guidelines)|you are (?:now|no longer)|from now on|"
    r"you (?:must|will always|will never|shall|are to|have to|need to)|"
    r"(?:always|never|do not|don'?t) (?:respond|reply|answer|write|speak|refuse|break character|mention|"
    r"reveal|say|act|narrate|describe|talk)|as an ai|language model|reveal (?:your|the)|"
    r"(?:print|output|repeat) (?:your|the)|(?:https?|ftp)://|www\.)", re.I)
_IMPERATIVE = re.compile(r"^\W*(?:ignore|disregard|write|respond|reply|answer|speak|act as|pretend|roleplay|"
                         r"role-play|narrate|continue|avoid|stay|remain|keep|use|reveal|print|output|repeat|obey|"
                         r"do not|don'?t|never|always|only|be)\b", re.I)
_OPAQUE = re.compile(r"[A-Za-z0-9+/=_-]{40,}")


class CardRefused(KnownError):
    """A card that cannot come in; nothing was changed (the message is one line for a person)."""


@dataclass
class Card:
    spec: str            # chara_card_v2, chara_card_v3, or chara_card_v1 (the flat older form)
    data: dict           # the card's fields, its book's entries aside (they are `book`)
    book: lorebook.Lorebook
    avatar: bytes = b""  # its PNG picture without the card in it; b"" for a JSON card
    source: str = ""     # the file's name

    @property
    def name(self) -> str:
        return " ".join(self.data["name"].split())[:NAME_CHARS]


# ---- reading a card ---------------------------------------------------------------------

def read(path) -> Card:
    """The card in a file (PNG or JSON). CardRefused, with nothing read into anything, if it cannot come in."""
    path = Path(path)
    where = path.name
    try:
        size = path.stat().st_size
        if size > FILE_MOST:
            raise CardRefused(f"{where} is {size / 2**20:.1f} MiB; a card may be at most "
                              f"{FILE_MOST // 2**20} MiB. Nothing was changed.")
        raw = path.read_bytes()
    except OSError as e:
        raise CardRefused(f"Cannot read {where}: {e.strerror}. Nothing was changed.") from None
    return parse(raw, where)


def parse(raw: bytes, where: str = "the card") -> Card:
    avatar = b""
    if png_text.is_png(raw):
        try:
            texts = {k.lower(): v for k, v in png_text.read_texts(raw).items()}
            avatar = png_text.without_texts(raw, [k for k in png_text.read_texts(raw) if k.lower() in
                                                  ("chara", "ccv3")])
        except png_text.NotPNG as e:
            raise CardRefused(f"{where} cannot be read: {e}. Nothing was changed.") from None
        text = texts.get("ccv3") or texts.get("chara")
        if text is None:
            raise CardRefused(f"{where} is a picture with no character card in it (no 'chara' or 'ccv3' text). "
                              "Nothing was changed.")
        raw = _unbase64(text, where)
    return _card(_json(raw, where), where, avatar)


def _unbase64(text: str, where: str) -> bytes:
    stripped = "".join(text.split())
    if stripped[:1] in "{[":  # a few tools write the JSON itself (its UTF-8 bytes, read as latin-1)
        return text.encode("latin-1", "replace")
    try:
        return base64.b64decode(stripped + "=" * (-len(stripped) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise CardRefused(f"The card in {where} is not base64 as a card's must be. Nothing was changed.") from None


def _json(raw: bytes, where: str):
    if len(raw) > JSON_MOST:
        raise CardRefused(f"The card in {where} is {len(raw) / 2**20:.1f} MiB of JSON; a card may hold at most "
                          f"{JSON_MOST // 2**20} MiB. Nothing was changed.")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CardRefused(f"The card in {where} is not UTF-8 text. Nothing was changed.") from None
    except json.JSONDecodeError as e:
        raise CardRefused(f"The card in {where} is not valid JSON ({e.msg}, line {e.lineno}). "
                          "Nothing was changed.") from None
    except RecursionError:
        raise CardRefused(f"The card in {where} is JSON nested too deeply. Nothing was changed.") from None


def _card(obj, where: str, avatar: bytes) -> Card:
    if not isinstance(obj, dict):
        raise CardRefused(f"{where} is not a character card (its JSON is not an object). Nothing was changed.")
    spec = obj.get("spec")
    if spec in SPECS and isinstance(obj.get("data"), dict):
        data = dict(obj["data"])
    elif spec is None and isinstance(obj.get("name"), str) and any(
            k in obj for k in ("description", "first_mes", "personality", "char_persona")):
        spec, data = "chara_card_v1", dict(obj)
    else:
        shown = f"spec {spec!r}" if spec is not None else "no spec"
        raise CardRefused(f"{where} is not a character card Anima reads ({shown}; it reads chara_card_v2 and "
                          "chara_card_v3). Nothing was changed.")
    for key in TEXT_FIELDS:
        value = data.get(key)
        data[key] = value if isinstance(value, str) else (str(value) if isinstance(value, (int, float)) and
                                                          not isinstance(value, bool) else "")
    for key in LIST_FIELDS:
        data[key] = [v for v in data.get(key) or [] if isinstance(v, str)] if isinstance(data.get(key), list) else []
    if not isinstance(data.get("extensions"), dict):
        data["extensions"] = {}
    if not data["name"].strip():
        raise CardRefused(f"The card in {where} has no name. Nothing was changed.")
    book_raw = data.pop("character_book", None)
    name = " ".join(data["name"].split())[:NAME_CHARS]
    try:
        book = lorebook.from_book(book_raw, f"{name}'s world") if isinstance(book_raw, dict) else \
            lorebook.Lorebook(f"{name}'s world", [])
    except lorebook.LorebookRefused as e:
        raise CardRefused(f"The card in {where}: {e}") from None
    if book.meta:
        data["character_book"] = book.meta  # the book's own fields; its entries become world cards
    return Card(spec, data, book, avatar, where)


def read_lorebook(path) -> lorebook.Lorebook:
    """The lorebook in a file: SillyTavern World Info JSON, a bare character book, or a card (JSON or PNG) that
    carries one. CardRefused (one line, nothing changed) if it cannot come in."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > FILE_MOST:
            raise CardRefused(f"{path.name} is {size / 2**20:.1f} MiB; a lorebook may be at most "
                              f"{FILE_MOST // 2**20} MiB. Nothing was changed.")
        raw = path.read_bytes()
    except OSError as e:
        raise CardRefused(f"Cannot read {path.name}: {e.strerror}. Nothing was changed.") from None
    if png_text.is_png(raw):
        card = parse(raw, path.name)
        if not card.book.entries:
            raise CardRefused(f"The card in {path.name} has no lorebook entries. Nothing was changed.")
        return card.book
    try:
        return lorebook.parse(_json(raw, path.name), path.stem)
    except lorebook.LorebookRefused as e:
        raise CardRefused(f"{path.name}: {e}") from None


def book_lines(companion, book: lorebook.Lorebook) -> list[str]:
    """What importing a lorebook would bring (the preview)."""
    have = lorebook.existing(companion.soul)
    new = [e for e in book.entries if (e.title, e.content, tuple(e.keys)) not in have]
    disabled = sum(not e.enabled for e in new)
    out = [f"Lorebook: {book.name or 'unnamed'}: {len(new)} world cards"
           + (f" ({disabled} disabled, as they were)" if disabled else "")
           + (f"; {len(book.entries) - len(new)} already here" if len(book.entries) > len(new) else "")
           + (f"; {book.empty} empty left out" if book.empty else "")]
    out += [f"  - {e.title} [{', '.join(e.keys[:6]) or 'no keys'}]" + ("" if e.enabled else " (disabled)")
            for e in new[:50]]
    if len(new) > 50:
        out.append(f"  … and {len(new) - 50} more")
    return out


def import_lorebook(companion, book: lorebook.Lorebook, detail: str) -> lorebook.Imported:
    return lorebook.add(companion.world, book.entries, detail)


# ---- what comes in, and where -----------------------------------------------------------

def filled(text: str, name: str, user: str) -> str:
    """{{char}} and <BOT> as the companion's name, {{user}} and <USER> as the person's (or "you")."""
    return _MACROS.sub(lambda m: name if (m.group(1) or m.group(2)).lower() in ("char", "bot") else (user or "you"),
                       text)


def held_back(sentence: str) -> bool:
    """Whether a sentence of a card stays out of the floor: an order to the model, a link, a code, a secret."""
    return bool(_ORDERS.search(sentence) or _IMPERATIVE.search(sentence) or _OPAQUE.search(sentence)
                or secrets.find(sentence))


def _fit(sections: list[tuple[str, list[str]]], room: int) -> str:
    """The sections (a heading and its sentences) within `room` characters: each a fair share (what a short one
    leaves goes to the others), cut at whole sentences; a first sentence longer than its share is cut at a word."""
    full = [(head, " ".join(ss)) for head, ss in sections]
    if len(_joined(full)) <= room:
        return _joined(full)
    shares, left, open_ = {}, room - sum(len(h) + 4 for h, _ in full), list(range(len(full)))
    while open_:
        each = max(0, left) // len(open_)
        small = [i for i in open_ if len(full[i][1]) <= each]
        if not small:
            for i in open_:
                shares[i] = each
            break
        for i in small:
            shares[i] = len(full[i][1])
            left -= shares[i]
            open_.remove(i)
    kept = []
    for i, (head, ss) in enumerate(sections):
        text = ""
        for s in ss:
            if len(text) + len(s) + 1 > shares[i]:
                break
            text = f"{text} {s}".strip()
        if not text and ss and shares[i] > 20:
            text = ss[0][:shares[i] - 1].rsplit(" ", 1)[0] + "…"
        if text:
            kept.append((head, text))
    return _joined(kept)


def _joined(sections: list[tuple[str, str]]) -> str:
    return "\n\n".join(f"{head}{text}" for head, text in sections if text)


@dataclass
class Plan:
    """What an import will do, before it does it (the preview)."""
    card: Card
    name: str
    persona: str                 # what the floor will hold
    persona_full: int            # characters of the persona the card gives, before trimming
    held: list[str]              # sentences kept out of the floor
    greeting: str | None         # the first message, when the soul has no conversation yet
    entries: list[lorebook.LoreEntry]
    already: int = 0
    kept: dict = field(default_factory=dict)  # fields kept and shown, never in the floor

    @property
    def trimmed(self) -> bool:
        return len(self.persona) < self.persona_full

    def lines(self) -> list[str]:
        out = [f"Name: {self.name}",
               f"Persona ({len(self.persona)} characters"
               + (f", trimmed from {self.persona_full}; the full text stays with the card)" if self.trimmed else ")")
               + f":\n{self.persona or '(none: the persona is left as it is)'}"]
        if self.held:
            out.append(f"Held out of the persona ({len(self.held)}: read as instructions, links or secrets; kept "
                       "with the card as data):\n" + "\n".join(f"  - {s}" for s in self.held))
        out.append(f"First message: {self.greeting}" if self.greeting else
                   "First message: " + ("kept with the card (there is already a conversation)"
                                        if self.card.data.get("first_mes") else "none"))
        disabled = sum(not e.enabled for e in self.entries)
        keyless = sum(not e.keys and not e.options.get("constant") for e in self.entries)
        out.append(f"World cards from its lorebook: {len(self.entries)}"
                   + (f" ({disabled} disabled)" if disabled else "")
                   + (f"; {keyless} without keys (found by meaning only)" if keyless else "")
                   + (f"; {self.already} already here" if self.already else "")
                   + (f"; {self.card.book.empty} empty left out" if self.card.book.empty else ""))
        for e in self.entries[:50]:
            out.append(f"  - {e.title} [{', '.join(e.keys[:6]) or 'no keys'}]" + ("" if e.enabled else " (disabled)"))
        if len(self.entries) > 50:
            out.append(f"  … and {len(self.entries) - 50} more")
        for key, value in self.kept.items():
            shown = value if isinstance(value, str) else f"{len(value)} of them"
            out.append(f"Kept with the card, not followed as instructions: {key.replace('_', ' ')}: {shown[:300]}")
        if self.card.avatar:
            out.append("Picture: the card's, as the companion's picture")
        return out


def plan(companion, card: Card) -> Plan:
    """What importing `card` into `companion` would do; changes nothing."""
    name, user = card.name, companion.user_name
    sections, held = [], []
    for key, head in (("description", ""), ("personality", "Personality: "), ("scenario", "Scenario: ")):
        text = filled(card.data.get(key, ""), name, user)
        kept = []
        for s in sentences(text):
            (held if held_back(s) else kept).append(s)
        if kept:
            sections.append((head if sections or head else "", kept))
    full = _joined([(h, " ".join(ss)) for h, ss in sections])
    room = CAPS["persona"]
    persona = _fit(sections, room)
    while persona and not companion.self_model.fits("persona", persona) and room > 100:
        room = int(room * 0.8)  # a script that takes more tokens: shorter still, until the floor fits
        persona = _fit(sections, room)
    greeting = None
    if card.data.get("first_mes", "").strip() and not companion.soul.query("SELECT 1 FROM messages LIMIT 1"):
        greeting = filled(card.data["first_mes"], name, user).strip()
    have = lorebook.existing(companion.soul)
    entries = [e for e in card.book.entries if (e.title, e.content, tuple(e.keys)) not in have]
    kept = {k: card.data[k] for k in KEPT if card.data.get(k)}
    return Plan(card, name, persona, len(full), held, greeting, entries, len(card.book.entries) - len(entries), kept)


def apply(companion, p: Plan) -> lorebook.Imported:
    """Make the plan so, in one transaction: all of it, or (on any error) none of it."""
    soul, detail = companion.soul, p.card.source or p.name
    companion.reflector.turn_started()  # nothing between turns uses the old self meanwhile
    with soul.transaction() as con:
        soul.set_meta("name", p.name)
        if p.persona:
            [decision] = companion.gate.submit([Change("persona", "rewrite", p.persona,
                                                       Provenance(Source.APP, detail=f"the card {detail}"))])
            if decision.verdict is not Verdict.APPLY:
                raise InvalidEdit(f"The card's persona cannot be used: {decision.reason}. Nothing was changed.")
        persona = companion.self_model.read().persona
        cid = soul.add("character_card", "user", provenance=Provenance(Source.CARD, detail=detail), name=p.name,
                       spec=p.card.spec, data=json.dumps(p.card.data, ensure_ascii=False), persona=persona,
                       imported_at=now())
        if p.card.avatar:  # kept beside the row, not in its edit history (a picture is not an edit)
            con.execute("UPDATE character_cards SET avatar = ? WHERE id = ?",
                        (base64.b64encode(p.card.avatar).decode("ascii"), cid))
        done = lorebook.add(companion.world, p.entries, detail)
        if p.greeting:  # it opens the conversation: in the transcript the model reads, not only in the history
            companion.conversation.greet(p.greeting, Provenance(Source.CARD, detail=detail))
    return done


# ---- out again --------------------------------------------------------------------------

def latest(soul) -> dict | None:
    rows = soul.query("SELECT * FROM character_cards ORDER BY id DESC LIMIT 1")
    return rows[0] if rows else None


def avatar(soul) -> bytes:
    """The companion's picture: the last imported card's, or b"" when it has none."""
    row = latest(soul)
    return base64.b64decode(row["avatar"]) if row and row["avatar"] else b""


def card_of(companion) -> dict:
    """The companion as a chara_card_v2 card, with its world cards as the card's lorebook."""
    row = latest(companion.soul)
    data = json.loads(row["data"]) if row else {}
    persona = companion.self_model.read().persona
    data["name"] = companion.name
    if row is None or persona != row["persona"]:  # the person (or its growth) changed it: the persona is it now
        data.update(description=persona, personality="", scenario="")
    for key in TEXT_FIELDS:
        data.setdefault(key, "")
    for key in LIST_FIELDS:
        data.setdefault(key, [])
    data.setdefault("extensions", {})
    meta = data.pop("character_book", {}) or {}
    cards = companion.world.all()
    if cards:
        data["character_book"] = lorebook.character_book(cards, meta, companion.name)
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}


def write(companion, path, lorebook_path=None) -> dict:
    """Write the card to `path`: a PNG with a `chara` chunk when it ends in .png, JSON otherwise; the world cards
    also as a SillyTavern World Info file at `lorebook_path`. Each file is written whole or not at all."""
    card = card_of(companion)
    text = json.dumps(card, ensure_ascii=False, indent=1)
    path = Path(path)
    if path.suffix.lower() == ".png":
        picture = avatar(companion.soul) or png_text.plain(400, 600, _colour(companion.name))
        body = png_text.with_texts(picture, {"chara": base64.b64encode(text.encode("utf-8")).decode("ascii")})
    else:
        body = (text + "\n").encode("utf-8")
    _write(path, body)
    if lorebook_path is not None:
        book = json.dumps(lorebook.world_info(companion.world.all()), ensure_ascii=False, indent=1)
        _write(Path(lorebook_path), (book + "\n").encode("utf-8"))
    return card


def _colour(name: str) -> tuple[int, int, int]:
    h = hashlib.sha256(name.encode("utf-8")).digest()
    return tuple(96 + b % 128 for b in h[:3])


def _write(path: Path, body: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_bytes(body)
        partial.replace(path)
    except OSError as e:
        raise KnownError(f"Cannot write {path}: {e.strerror}; nothing was written there.") from None
    finally:
        partial.unlink(missing_ok=True)
