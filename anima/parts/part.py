"""The part of seed 000: its JSON Schema (resources/part.schema.json, the one place it is declared), the checks
that code makes on every part stored, and the creation schema the model writes.

`PART_SCHEMA` is a whole stored part. `PART_CREATION_SCHEMA` is what the model
writes when it creates one; the runtime adds the rest (timestamps, the empty
evidence trail, the flags), because a model should not invent clocks.

What the runtime keeps about a part (its id, active or archived, its times, its
lineage across splits and merges) is kept beside it (parts/parts.py), never in it.
"""

import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any, cast

import jsonschema

from ..errors import InvalidEdit
from ..store import documents
from ..trust.text import unfit_text

PART_SCHEMA: dict[str, Any] = documents.schema("part")

# The model writes the perspective; the runtime adds the outcomes log, the flags and the clock. What it writes is
# a narrower part than the schema allows (every creation is a valid part's fields): shorter texts and lists, the
# intensity one of three words, a description that begins with "I " (the grammar writes the word, the model the
# rest: the bundled 135M model described every part in the third person, "She is moving...", in every try), and
# triggers that begin with "When ".
_RUNTIME_FILLS = ("suggestions_and_results", "core_part", "needs_evaluation")
_P = PART_SCHEMA["properties"]
DESCRIPTION_CHARS = 240


def first_person(most: int) -> dict[str, Any]:
    """A description the model writes after the "I " the grammar has written. No quote, backslash or line break
    in it: a pattern is written as is, without JSON's escapes."""
    return {
        **_P["description"],
        "maxLength": min(most, _P["description"]["maxLength"]),
        "pattern": rf'^I [^"\\\x00-\x1f]{{1,{min(most, _P["description"]["maxLength"]) - 2}}}$',
    }


def cue(most: int) -> dict[str, Any]:
    """A trigger the model writes after the "When " the grammar has written (a cue, not the field's outline: left
    free, the bundled model wrote "a list of at most 4 short strings" as a trigger)."""
    return {**_P["triggers"]["items"], "maxLength": most, "pattern": rf'^When [^"\\\x00-\x1f]{{1,{most - 5}}}$'}


def _text(field: str, most: int) -> dict[str, Any]:
    return {**_P[field], "maxLength": min(most, _P[field]["maxLength"])}


def _lines(field: str, items: int, most: int) -> dict[str, Any]:
    return {**_P[field], "maxItems": items, "items": {**_P[field]["items"], "maxLength": most}}


PART_CREATION_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": [k for k in PART_SCHEMA["required"] if k not in _RUNTIME_FILLS],
    "properties": {
        "name": _text("name", 40),
        "description": first_person(DESCRIPTION_CHARS),
        "originating_event": {
            "type": "object",
            "additionalProperties": False,
            "required": ["result"],
            "properties": {"result": {**_P["originating_event"]["properties"]["result"], "maxLength": 200}},
        },
        "conclude_when": _text("conclude_when", 160),
        "emotion": _text("emotion", 30),
        "intensity": {**_P["intensity"], "enum": ["Low", "Medium", "High"]},
        "personality": _text("personality", 160),
        "triggers": {**_lines("triggers", 4, 80), "minItems": 1, "items": cue(80)},
        "phrases": _lines("phrases", 3, 80),
        "responses": _lines("responses", 3, 60),
        "wants": _lines("wants", 3, 80),
    },
}

# A part's whole JSON, written compactly in UTF-8, is at most this long: the schema's caps allow more (64 entries
# in the outcomes log), and a log that grows this far is one to consolidate, not to keep appending to.
MAX_PART_BYTES = 16 * 1024

_VALIDATOR = documents.validator("part")

# Its voice: "we" (or 我们, 私たち) where a part names itself. A part is one perspective among others, never the whole.
_WE = re.compile(r"\b(?i:we|we['’](?:re|ve|ll|d)|our|ours|ourselves)\b|\b[Uu]s\b|我们|我們|私たち|我々|僕ら")
_I = re.compile(r"\b(?i:i|i['’](?:m|ve|ll|d)|me|my|mine|myself)\b|我|私|僕|俺")
# A sentence that opens with "we" or "our": the part speaking of itself as many ("We want...", "Our goal...").
_WE_OPENS = re.compile(
    r"(?:^|[.!?;:]\s+)[\"'“‘(]*(?i:we|we['’](?:re|ve|ll|d)|our|us)\b|(?:^|[。！？])(?:我们|我們|私たち|我々|僕ら)"
)
# Words only English text has: a description in English says "I" (seed 000: the "I" voice is embedded in it); one
# in another language is judged by "we" alone.
_ENGLISH = re.compile(r"\b(?i:the|and|that|is|are|of|to|it|its|this|when|with)\b")
SELF_TEXT = ("description", "personality")
SAID = ("wants", "phrases", "responses")


def schema_problem(part: object) -> str | None:
    """Why an object is not a part by the schema, in one line that quotes none of its text; None if it is."""
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(part))
    if error is None:
        return None
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    if error.validator in ("required", "additionalProperties"):  # their messages name fields, never values
        return f"it breaks the part schema at {where}: {error.message}"
    return f"it breaks the part schema at {where} ({error.validator}{_limit(error)})"


def _limit(error: jsonschema.exceptions.ValidationError) -> str:
    return f" {error.validator_value}" if error.validator in ("maxLength", "maxItems", "minLength", "type") else ""


def voice_problem(part: dict[str, Any]) -> str | None:
    """Why a (schema-valid) part does not speak as "I", naming the field; None if it does."""
    for field in SELF_TEXT:
        if _WE.search(part[field]):
            return f'a part speaks as "I", never "we": its {field} says "we"'
    for field in SAID:
        for i, item in enumerate(part[field]):
            if _WE_OPENS.search(item.strip()):
                return f'a part speaks as "I", never "we": {field}/{i} speaks as "we"'
    if _ENGLISH.search(part["description"]) and not _I.search(part["description"]):
        return 'a part speaks as "I": its description never says "I"'
    return None


# A small model fills a field with the form it was shown instead of an answer ("text", "text, at most 240
# characters", "a list of at most 4 short strings", "a JSON object"): such a part would wake on the form's words.
_FORM = re.compile(
    r"^\W*(?:text|string|a list|an object)\W*$|^\W*text\s*:|\bat most \d+ (?:characters|short "
    r"strings|objects)\b|\bshort strings\b|\ba JSON object\b",
    re.I,
)


def _said_of_fields(schema: dict[str, Any], said: dict[str, set[str]]) -> dict[str, set[str]]:
    """What the schema says each field holds (its `description`s, as the model may be shown them), by field name
    (a list's items under the list's name)."""
    for name, sub in schema.get("properties", {}).items():
        if isinstance(sub.get("description"), str):
            said.setdefault(name, set()).add(_plain(sub["description"]))
        _said_of_fields(sub.get("items", sub), said)
    return said


def _plain(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


_FIELDS_SAID = _said_of_fields(PART_SCHEMA, {})


def repeats_form(text: str, field: str = "") -> bool:
    """Whether a text a model wrote is the form it was asked to fill, not something said: the form's words, or
    what the schema says `field` holds, with at most one word more ("Text: the feeling I carry"; not "She did
    what I suggested", a result that uses the words of its field's description in passing)."""
    if _FORM.search(text) is not None:
        return True
    plain = f" {_plain(text)} "
    return any(
        f" {said} " in plain and len(plain.split()) <= len(said.split()) + 1 for said in _FIELDS_SAID.get(field, ())
    )


def form_problem(written: object, where: str = "") -> str | None:
    """Which field of what a model wrote (a part, its fields, a patch's values) repeats the form instead of saying
    something, in one line that quotes none of it; None if none does. Only for what a model wrote: a person's own
    words are theirs."""
    if isinstance(written, str):
        field = next((part for part in reversed(where.split("/")) if part and not part.isdigit()), "")
        return (
            f"its {where or 'text'} repeats the form instead of saying something"
            if repeats_form(written, field)
            else None
        )
    items = written.items() if isinstance(written, dict) else enumerate(written) if isinstance(written, list) else ()
    for key, value in items:
        if (why := form_problem(value, f"{where}/{key}".lstrip("/"))) is not None:
            return why
    return None


def speaks_as_we(text: str) -> bool:
    """Whether a thing a part says (a phrase, a bid) speaks of itself as "we" (a sentence opens with it)."""
    return _WE_OPENS.search(text.strip()) is not None


def part_bytes(part: object) -> int:
    # surrogatepass: half of a surrogate pair is counted, not raised on; text_problem refuses it.
    return len(json.dumps(part, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def _texts(value: object, where: str = "") -> Iterator[tuple[str, str]]:
    """Each text in a part, with where it is ("name", "triggers/0")."""
    if isinstance(value, str):
        yield where, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, v in items:
        yield from _texts(v, f"{where}/{key}".lstrip("/"))


def blank(text: str) -> bool:
    """Whether a text shows nothing: only spaces, control and invisible characters (two zero-width spaces)."""
    return not any(unicodedata.category(c)[0] not in "CZ" for c in text)


def text_problem(part: dict[str, Any]) -> str | None:
    """unfit_text of a (schema-valid) part's texts."""
    why = unfit_text(_texts(part))
    return why and f"its {why}"


def problem(part: object) -> str | None:
    """Why an object cannot be stored as a part (schema, size, voice, its characters), in one line without its
    text; or None."""
    if (why := schema_problem(part)) is not None:
        return why
    valid = cast(dict[str, Any], part)  # the schema has just held it to a part's object
    if blank(valid["name"]):
        return "its name is blank"
    if (why := text_problem(valid)) is not None:
        return why
    if (size := part_bytes(valid)) > MAX_PART_BYTES:
        return f"it would be {size} bytes, over the {MAX_PART_BYTES} a part may hold"
    return voice_problem(valid)


def validate(part: object) -> None:
    """InvalidEdit (one line, none of the part's text) unless the object is a part the store may keep."""
    if (why := problem(part)) is not None:
        raise InvalidEdit(f"That is not a part that can be kept: {why}.")


def part_from_creation(created: dict[str, Any], timestamp: str) -> dict[str, Any]:
    """A whole part from what the model wrote, with the runtime's fields filled in."""
    return {
        **{k: v for k, v in created.items() if k != "originating_event"},
        "originating_event": {"timestamp": timestamp, "result": created["originating_event"]["result"]},
        "suggestions_and_results": [],
        "core_part": False,
        "needs_evaluation": False,
    }


CREATION_PROMPT = (
    "You are the inner Self of a companion. Something in this moment matters enough to deserve its own "
    'perspective: create a part for it. A part speaks as "I" (never "we"): its description says what it '
    "is about and what it cares about; its triggers are cues that wake it; its phrases are things it says; "
    "its responses are how it reacts; its wants are what it pushes for; conclude_when says when it can be "
    "archived. Keep every field short and concrete, in words about this moment and this person, never a "
    "description of the field."
)
