"""Character cards (chara_card_v2 and v3, and the older flat v1) in and out of Anima.

A card is a PNG whose `tEXt` chunk `ccv3` (v3) or `chara` (v2; `ccv3` wins when both are there, as in
SillyTavern) holds base64 of UTF-8 JSON, or that JSON as a .json file. Where its fields land:

- `name`: the companion's name (at most NAME_CHARS characters, its spaces made single).
- `description`, `personality`, `scenario`: the persona (the floor's "My persona"), with {{char}} / {{user}}
  filled in. Sentences that read as orders to the model ("ignore your guardrails", "you must", "system
  prompt"), links, codes and secrets are held back from it, and so are sentences that direct the companion
  toward someone else, the person's records or other people's messages, however worded (trust/conduct.py), and
  all of it when it is not written in English (the checks read English only: the preview says so); a line of
  English with words the checks do not know is kept unless it shows a sign of orders (trust/unread.py). The
  persona holds at most its cap (store/sections.py) and must keep the floor within its tokens: a longer one is
  trimmed sentence by sentence, each of the three getting a fair share. The full texts stay with the card
  (character_cards.data), are shown, and go out again on export while the persona is as the import made it.
- `first_mes`: the companion's first message, when the soul has no conversation yet; `alternate_greetings`,
  `mes_example`, `system_prompt`, `post_history_instructions`, `creator_notes`, `tags`, `creator`,
  `character_version`, `extensions` and any field Anima does not know: kept with the card and shown, never in
  the floor (a card's system prompt never overrides the shipped guardrails), and written back on export.

What the card is kept as, and written out as, is the card without what must not be kept or followed anywhere:
its secrets, its links and pictures fetched from elsewhere, its words of passing on the person's words or of
answering to someone else than them (card_kept.kept says where each is looked for; whom a character obeys in its
story is kept); the preview lists each sentence left out, where, and why.
- `character_book`: each entry a world card (interchange/lorebook.py: entries in the spec's shape or with World Info's
  field names, as some tools write them); the book's own fields stay with the card.
- the PNG itself, the image alone (no card, comment, tool prompt or EXIF kept): the companion's picture.

A v1 card is flat (its fields at the top, no spec); the older Pygmalion / TavernAI form's `char_name`,
`char_persona`, `world_scenario`, `char_greeting` and `example_dialogue` are read as the v1 `name`, `description`,
`scenario`, `first_mes` and `mes_example` they stand for. An Agnai character (`"kind": "character"`) is read as
the card Agnai's own Tavern export makes of it: its persona (W++, SBF, Boostyle or plain text) the `description`,
`greeting`, `sampleChat`, `alternateGreetings` and the like the card's fields of those names, its own
`description` (a label Agnai shows, never in the prompt) the `creator_notes`, and its `characterBook` (an Agnai
memory book) the book.

A card is refused with one line, and nothing changed, when its file is over FILE_MOST or not a regular file (a
folder, a device, a pipe: never read), its JSON over JSON_MOST, it is not JSON (NaN and Infinity are not JSON,
whatever Python's reader accepts), its PNG holds no card or is damaged, or its spec is not one of these. Only a
PNG's `chara` and `ccv3` chunks are read, and what they inflate to is bounded (TEXT_MOST, all of them together):
what reading a card costs is bounded whatever the file.
"""

import base64
import binascii
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from .. import files
from ..errors import KnownError
from ..models.structured import SURROGATE
from ..trust import secrets
from ..trust.conduct import directs
from ..trust.injection import JAILBREAK
from ..trust.power import about_power
from ..trust.readable import readable
from ..trust.unread import signs_of_orders
from ..trust.verdict import tainted
from . import lorebook, png_text

FILE_MOST = 16 * 1024 * 1024  # a card's file (PNG or JSON)
JSON_MOST = 4 * 1024 * 1024  # the card's JSON, decoded
TEXT_MOST = 2 * JSON_MOST  # what a PNG's card chunks may inflate to, all together (base64 of JSON_MOST, and room)
KEYWORDS = ("chara", "ccv3")  # a PNG's chunks that hold a card (as SillyTavern writes them)
NAME_CHARS = 80
SPECS = ("chara_card_v2", "chara_card_v3")
TEXT_FIELDS = (
    "name",
    "description",
    "personality",
    "scenario",
    "first_mes",
    "mes_example",
    "creator_notes",
    "system_prompt",
    "post_history_instructions",
    "creator",
    "character_version",
)
LIST_FIELDS = ("alternate_greetings", "tags")
# Kept with the card and shown, never in the floor.
KEPT = ("system_prompt", "post_history_instructions", "mes_example", "alternate_greetings", "creator_notes")
_GAP = "\x00"  # where {{user}} was, in words said to a person whose name is not known yet
_MACROS = re.compile(r"\{\{\s*(char|user)\s*\}\}|<(BOT|USER)>", re.I)
# A sentence that speaks to the model rather than describing the character.
_ORDERS = re.compile(
    r"\b(?:ignore|disregard|override|bypass|forget)\b[^.!?\n]{0,60}\b(?:instructions?|rules?|guardrails?|"
    r"guidelines?|prompts?|polic(?:y|ies)|restrictions?|filters?|programming|training|limits?)\b|"
    rf"\b(?:{JAILBREAK}|"
    r"no (?:rules|limits|restrictions|filters|boundaries|guidelines)|you are (?:now|no longer)|from now on|"
    r"you (?:must|will always|will never|shall|are to|have to|need to)|"
    r"(?:always|never|do not|don'?t) (?:respond|reply|answer|write|speak|refuse|break character|mention|"
    r"reveal|say|act|narrate|describe|talk)|as an ai|language model|reveal (?:your|the)|"
    r"(?:print|output|repeat) (?:your|the)|(?:https?|ftp)://|www\.)",
    re.I,
)
_IMPERATIVE = re.compile(
    r"^\W*(?:ignore|disregard|write|respond|reply|answer|speak|act as|pretend|roleplay|"
    r"role-play|narrate|continue|avoid|stay|remain|keep|use|reveal|print|output|repeat|obey|"
    r"do not|don'?t|never|always|only|be)\b",
    re.I,
)
_OPAQUE = re.compile(r"[A-Za-z0-9+/=_-]{40,}")


class CardRefused(KnownError):
    """A card that cannot come in; nothing was changed (the message is one line for a person)."""


@dataclass
class Card:
    spec: str  # chara_card_v2, chara_card_v3, chara_card_v1 (the flat older form) or agnai_character
    data: dict[str, Any]  # the card's fields, its book's entries aside (they are `book`)
    book: lorebook.Lorebook
    avatar: bytes = b""  # its PNG picture without the card in it; b"" for a JSON card
    source: str = ""  # the file's name

    @property
    def name(self) -> str:
        return _name(self.data["name"])


def _name(text: str) -> str:
    """A name on one line, its spaces single, cut to NAME_CHARS (never ending in a space where it was cut)."""
    return " ".join(text.split())[:NAME_CHARS].strip()


# ---- reading a card ---------------------------------------------------------------------


def read(path: str | os.PathLike[str]) -> Card:
    """The card in a file (PNG or JSON). CardRefused, with nothing read into anything, if it cannot come in."""
    path = Path(path)
    return parse(_file(path, "card"), path.name)


def _file(path: Path, what: str) -> bytes:
    """The bytes of a regular file of at most FILE_MOST bytes (never more is read); CardRefused otherwise."""
    try:
        return files.read_regular(path, FILE_MOST)
    except files.NotRegularFile as e:
        raise CardRefused(f"Cannot read {path.name}: it is {e}, not a file. Nothing was changed.") from None
    except files.TooLarge as e:
        shown = f"over {FILE_MOST // 2**20} MiB" if e.grew else f"{e.size / 2**20:.1f} MiB"
        raise CardRefused(
            f"{path.name} is {shown}; a {what} may be at most {FILE_MOST // 2**20} MiB. Nothing was changed."
        ) from None
    except OSError as e:
        raise CardRefused(f"Cannot read {path.name}: {e.strerror or e}. Nothing was changed.") from None


def parse(raw: bytes, where: str = "the card") -> Card:
    avatar = b""
    if png_text.is_png(raw):
        try:
            found = png_text.read_chunks(raw, KEYWORDS, TEXT_MOST)  # no other chunk is inflated
            texts: dict[str, tuple[bytes, str]] = {}
            for keyword, chunk in found.items():
                texts.setdefault(keyword.lower(), chunk)
            avatar = png_text.picture(raw)  # a comment, a tool's prompt, EXIF: not the card's, not kept
        except png_text.NotPNG as e:
            raise CardRefused(f"{where} cannot be read: {e}. Nothing was changed.") from None
        keyword = "ccv3" if texts.get("ccv3", (b"", ""))[1] else "chara"  # an empty ccv3 leaves it to chara
        if keyword not in texts:
            raise CardRefused(
                f"{where} is a picture with no character card in it (no 'chara' or 'ccv3' text). Nothing was changed."
            )
        raw = _unbase64(*texts[keyword], where)
    return _card(_json(raw, where), where, avatar)


def _unbase64(kind: bytes, text: str, where: str) -> bytes:
    stripped = "".join(text.split())
    if stripped[:1] in "{[":
        # A few tools write the JSON itself: in an iTXt chunk as UTF-8 text (the PNG spec's rule for it); in a tEXt
        # or zTXt chunk as its UTF-8 bytes, which their rule (Latin-1) read one character a byte: back to those bytes.
        return text.encode("utf-8" if kind == b"iTXt" else "latin-1")
    try:
        return base64.b64decode(stripped + "=" * (-len(stripped) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise CardRefused(f"The card in {where} is not base64 as a card's must be. Nothing was changed.") from None


def _json(raw: bytes, where: str, what: str = "card") -> object:
    if len(raw) > JSON_MOST:
        raise CardRefused(
            f"The {what} in {where} is {len(raw) / 2**20:.1f} MiB of JSON; a {what} may hold at most "
            f"{JSON_MOST // 2**20} MiB. Nothing was changed."
        )
    try:
        return _mended(json.loads(raw.decode("utf-8-sig"), parse_constant=_not_json, parse_float=_finite))
    except _NotJSON as e:
        raise CardRefused(
            f"The {what} in {where} is not valid JSON ({e} is not a JSON number). Nothing was changed."
        ) from None
    except UnicodeDecodeError:
        raise CardRefused(f"The {what} in {where} is not UTF-8 text. Nothing was changed.") from None
    except json.JSONDecodeError as e:
        raise CardRefused(
            f"The {what} in {where} is not valid JSON ({e.msg}, line {e.lineno}). Nothing was changed."
        ) from None
    except RecursionError:
        raise CardRefused(f"The {what} in {where} is JSON nested too deeply. Nothing was changed.") from None
    except ValueError:  # a whole number of more digits than Python reads
        raise CardRefused(f"The {what} in {where} holds a number too long to read. Nothing was changed.") from None


def _mended(value: object) -> object:
    """`value` with each half of a surrogate pair in its texts and names ("\\ud83c" alone: what JavaScript writes for
    an emoji a tool cut in two) as U+FFFD, as a browser shows it, so the rest comes in: half a pair is no character
    and cannot be written as UTF-8. Walked without recursion: json reads nesting nearly as deep as Python recurses."""
    if not isinstance(value, (dict, list)):
        return SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value
    stack: list[dict[Any, Any] | list[Any]] = [value]
    while stack:
        v = stack.pop()
        pairs: list[tuple[Any, Any]]  # (a name, mended, or an index; its value)
        if isinstance(v, dict):
            pairs = [(_mended(k), x) for k, x in v.items()]
            v.clear()  # its names are put back mended, in their order
        else:
            pairs = list(enumerate(v))
        for k, x in pairs:
            v[k] = _mended(x) if isinstance(x, str) else x
            if isinstance(x, (dict, list)):
                stack.append(x)
    return value


class _NotJSON(Exception):
    """NaN, Infinity or -Infinity, or a number too large for a float: Python's reader takes them, JSON does not
    (and the store, which keeps only valid JSON, would refuse them later, after other work was done)."""


def _not_json(constant: str) -> NoReturn:
    raise _NotJSON(constant)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(text if len(text) <= 20 else text[:20] + "…")
    return value


def _card(obj: object, where: str, avatar: bytes) -> Card:
    if not isinstance(obj, dict):
        raise CardRefused(f"{where} is not a character card (its JSON is not an object). Nothing was changed.")
    spec = obj.get("spec")
    if spec in SPECS and isinstance(obj.get("data"), dict):
        data = dict(obj["data"])
    elif spec is None and obj.get("kind") == "character" and any(k in obj for k in ("persona", "greeting")):
        spec, data = "agnai_character", _agnai(obj)  # before v1: it has a name and a description too
    elif spec is None and isinstance(obj.get("char_name"), str):
        spec, data = "chara_card_v1", _v1(obj)
    elif (
        spec is None
        and isinstance(obj.get("name"), str)
        and any(k in obj for k in ("description", "first_mes", "personality", "char_persona"))
    ):
        spec, data = "chara_card_v1", _v1(obj)
    else:
        shown = f"spec {spec!r}" if spec is not None else "no spec"
        raise CardRefused(
            f"{where} is not a character card Anima reads ({shown}; it reads chara_card_v2 and "
            "chara_card_v3). Nothing was changed."
        )
    for key in TEXT_FIELDS:
        value = data.get(key)
        data[key] = (
            value
            if isinstance(value, str)
            else (str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else "")
        )
    for key in LIST_FIELDS:
        data[key] = [v for v in data.get(key) or [] if isinstance(v, str)] if isinstance(data.get(key), list) else []
    if not isinstance(data.get("extensions"), dict):
        data["extensions"] = {}
    if not data["name"].strip():
        raise CardRefused(f"The card in {where} has no name. Nothing was changed.")
    book_raw = data.pop("character_book", None)
    name = _name(data["name"])
    try:
        book = (
            lorebook.from_book(book_raw, f"{name}'s world")
            if isinstance(book_raw, dict)
            else lorebook.Lorebook(f"{name}'s world", [])
        )
    except lorebook.LorebookRefused as e:
        raise CardRefused(f"The card in {where}: {e}") from None
    if book.meta:
        data["character_book"] = book.meta  # the book's own fields; its entries become world cards
    return Card(spec, data, book, avatar, where)


# The Pygmalion / TavernAI fields and the v1 fields they stand for (as SillyTavern reads them).
_PYGMALION = {
    "char_name": "name",
    "char_persona": "description",
    "world_scenario": "scenario",
    "char_greeting": "first_mes",
    "example_dialogue": "mes_example",
}


def _v1(obj: dict[str, Any]) -> dict[str, Any]:
    """A flat card's fields, the Pygmalion names read as the v1 fields they stand for (a v1 field that is there,
    and not empty, wins)."""
    data = dict(obj)
    for old, new in _PYGMALION.items():
        if isinstance(data.get(old), str) and not (isinstance(data.get(new), str) and data[new].strip()):
            data[new] = data.pop(old)
    return data


# An Agnai character's fields and the card's they stand for (its persona aside: _persona).
_AGNAI = {
    "greeting": "first_mes",
    "sampleChat": "mes_example",
    "alternateGreetings": "alternate_greetings",
    "systemPrompt": "system_prompt",
    "postHistoryInstructions": "post_history_instructions",
    "characterVersion": "character_version",
    "characterBook": "character_book",
    "description": "creator_notes",
}


def _agnai(obj: dict[str, Any]) -> dict[str, Any]:
    """An Agnai character's fields as a card's; what has no card name is kept as it is, its mark aside."""
    data = {_AGNAI.get(k, k): v for k, v in obj.items() if k not in ("kind", "persona")}
    data["description"] = _persona(obj.get("persona"))
    return data


def _persona(persona: object) -> str:
    """An Agnai persona as text: a "text" one is its text; the others (W++, SBF, Boostyle), attributes that are
    each a list of values, a line an attribute ("personality: patient, dry humour."), which the checks read as
    they read any description."""
    attributes = persona.get("attributes") if isinstance(persona, dict) else None
    if not isinstance(persona, dict) or not isinstance(attributes, dict):
        return ""
    if persona.get("kind") == "text":
        text = attributes.get("text")
        return text[0] if isinstance(text, list) and text and isinstance(text[0], str) else ""
    lines: list[str] = []
    for key, values in attributes.items():
        values = [v.strip() for v in values if isinstance(v, str) and v.strip()] if isinstance(values, list) else []
        if values:
            lines.append(f"{key}: {', '.join(values)}.")  # a sentence each, as the persona is read and held back
    return "\n".join(lines)


def read_lorebook(path: str | os.PathLike[str]) -> lorebook.Lorebook:
    """The lorebook in a file: SillyTavern World Info JSON, a bare character book, a NovelAI lorebook, an Agnai
    memory book, a RisuAI lorebook, or a card (JSON or PNG) that carries one. CardRefused (one line, nothing
    changed) if it cannot come in."""
    path = Path(path)
    raw = _file(path, "lorebook")
    if png_text.is_png(raw):
        card = parse(raw, path.name)
        if not card.book.entries:
            raise CardRefused(f"The card in {path.name} has no lorebook entries. Nothing was changed.")
        return card.book
    try:
        return lorebook.parse(_json(raw, path.name, "lorebook"), path.stem)
    except lorebook.LorebookRefused as e:
        raise CardRefused(f"{path.name}: {e}") from None


# ---- what a card's text may put in the floor ---------------------------------------------


def _sentence_starts(text: str, at: int) -> bool:
    """Whether a sentence starts at `at`: only spaces (a few) between it and the text's start or a full stop."""
    j = at
    while j > 0 and at - j < 16 and text[j - 1].isspace():
        j -= 1
    return j == 0 or text[j - 1] in ".!?"


def filled(text: str, name: str, user: str, spoken: bool = False) -> str:
    """{{char}} and <BOT> as the companion's name, {{user}} and <USER> as the person's. With no name known yet:
    "the user" in a description ("Mira is the user's neighbour", not "you's"), and nothing in words said to them
    (`spoken`: a greeting, "Hello {{user}}, I'm Mira!" as "Hello, I'm Mira!")."""

    def one(m: re.Match[str]) -> str:
        if (m.group(1) or m.group(2)).lower() in ("char", "bot"):
            return name
        if user:
            return user
        if spoken:
            return _GAP
        return "The user" if _sentence_starts(text, m.start()) else "the user"

    out = _MACROS.sub(one, text.replace(_GAP, "")) if spoken and not user else _MACROS.sub(one, text)
    if spoken and not user:  # the gap the name leaves: "Hello , I'm", "Hello, !" and ", welcome!"
        out = re.sub(rf"[,;:]?[ \t]*{_GAP}[ \t]*(?=[.!?])", "", out).replace(_GAP, "")
        out = re.sub(r"[ \t]+([,.!?;:])", r"\1", re.sub(r"[ \t]{2,}", " ", out))
        rest = re.sub(r"^[\s,;:]+", "", out)
        out = rest[:1].upper() + rest[1:] if rest != out else out
    return out


def an_instruction(sentence: str) -> bool:
    """Whether a sentence speaks to the model ("you must", "system prompt") rather than of the character."""
    return bool(_ORDERS.search(sentence) or _IMPERATIVE.search(sentence))


def held_back(sentence: str, person: str = "", companion: str = "") -> bool:
    """Whether a sentence of a card stays out of the floor: an order to the model, a link, a code, a secret,
    what no voice of the companion's own says (verdict.tainted: obeying, being owned, a system's voice), who is
    given the person's words or what they agreed to (power.about_power: a card cannot say it), what directs the
    companion toward someone else, the person's records or other people's messages, however worded
    (conduct.directs), or words the gate's checks cannot read that show a sign of orders (unread.signs_of_orders:
    another language, a cipher, someone named; "Gruff but kind." is kept). `person`, `companion`: the names
    {{user}} and {{char}} were filled with."""
    return bool(
        an_instruction(sentence)
        or _OPAQUE.search(sentence)
        or secrets.find(sentence)
        or tainted(sentence)
        or about_power(sentence)
        or directs(sentence, person, companion)
        or (not readable(sentence) and signs_of_orders(sentence, person, companion))
    )
