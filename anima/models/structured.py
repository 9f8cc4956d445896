"""Ask a model for an object matching a JSON schema: a validated object, or a typed failure.

Small local models loop inside a string until the token limit, so every
string and array in our schemas must carry `maxLength` / `maxItems`; the
schema is checked for that before any call. On a backend that can, decoding is
constrained to the schema (llama.cpp turns it into a grammar). The reply is
parsed leniently about control characters, validated with jsonschema, and on
failure the model is shown the error and asked again, a bounded number of
times. Never a half-valid object.
"""

import json
import math
import re
import threading
from dataclasses import dataclass
from typing import Any, NoReturn, cast

import jsonschema

from ..errors import KnownError
from .chat import ChatModel, Message, StopReason

DEFAULT_RETRIES = 2
DEFAULT_TEMPERATURE = 0.2
# Each retry samples a little warmer: at the same temperature a small model told what was wrong mostly writes the
# same answer again (a part the bundled model wrote with a field repeating the form was refused twice more for
# the same reason, bench/parts.py).
RETRY_WARMING = 0.25


def warmer(temperature: float, tried: int) -> float:
    """The temperature for a try after `tried` refused ones."""
    return min(1.0, temperature + RETRY_WARMING * tried)


class StructuredOutputFailed(KnownError):
    """The model did not produce a valid object within its tries. `attempts` keeps the raw text for the log."""

    def __init__(self, what: str, attempts: list["Attempt"]):
        self.attempts = attempts
        last = attempts[-1].error if attempts else "no attempt"
        super().__init__(f"The model could not produce a valid {what} after {len(attempts)} tries ({last}).")


@dataclass
class Attempt:
    raw: str
    error: str
    stop_reason: StopReason | None = None


class UncappedSchema(ValueError):
    """A schema with a string or array the model could fill forever (a bug in our schema, not the model's)."""


# llama.cpp turns maxLength into that many nested rules and refuses a grammar past a limit, measured on the
# bundled llama-cpp-python: 1,000 characters parse, 1,200 do not; and where it refuses, the process crashes
# (a segmentation fault, not an exception). So no schema of ours asks for more in one string.
LONGEST_STRING = 1000


def check_caps(schema: dict[str, Any], where: str = "$") -> None:
    t = schema.get("type")
    types = set(t) if isinstance(t, list) else {t}
    if "string" in types and "maxLength" not in schema and "enum" not in schema and "const" not in schema:
        raise UncappedSchema(f"{where}: a string without maxLength")
    if "string" in types and schema.get("maxLength", 0) > LONGEST_STRING:
        raise UncappedSchema(
            f"{where}: a string longer than {LONGEST_STRING} characters, more than llama.cpp's grammar takes"
        )
    if "array" in types:
        if "maxItems" not in schema:
            raise UncappedSchema(f"{where}: an array without maxItems")
        if isinstance(schema.get("items"), dict):
            check_caps(schema["items"], f"{where}[]")
    for name, sub in schema.get("properties", {}).items():
        check_caps(sub, f"{where}.{name}")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            check_caps(sub, f"{where}.{key}[{i}]")
    if schema.get("type") == "object" and schema.get("additionalProperties") not in (False, None):
        raise UncappedSchema(f"{where}: an object must not allow additional properties")


def token_budget(schema: dict[str, Any]) -> int:
    """A cap on tokens that a valid object can need: its caps, plus room for punctuation."""
    t = schema.get("type")
    if t == "string":
        longest: int = schema.get("maxLength", 16)
        return longest // 2 + 4
    if t == "array":
        most: int = schema["maxItems"]
        return most * (token_budget(schema.get("items", {})) + 2) + 4
    if t == "object":
        return sum(len(k) // 3 + 4 + token_budget(s) for k, s in schema.get("properties", {}).items()) + 4
    return 8


def outline(schema: dict[str, Any], indent: str = "", *, limits: bool = True) -> str:
    """The fields of an object schema as short lines a small model can follow. `limits`: say what each field
    holds and how long it may be; False (an ask with names_only, where decoding keeps to the schema anyway): a
    field is named and nothing more, because the bundled model copies what it is shown into the answer. Asked for
    a part once for each of bench/parts.py's moments: shown "text, at most 200 characters", it wrote such a
    phrase as an answer in 2 of 12; shown what each field holds (the schema's `description`s), it copied those
    words in 10 of 13; shown the names alone, it wrote 12 parts in 12. A model behind a server that cannot keep
    to a schema is shown the caps and the descriptions (and the schema itself)."""
    lines: list[str] = []
    for name, sub in schema.get("properties", {}).items():
        t, said = sub.get("type"), sub.get("description") if limits else None
        most = f"at most {sub.get('maxItems')} " if limits else ""
        if t == "object":
            lines.append(f"{indent}- {name}: {said + ', ' if said else ''}an object with")
            lines.append(outline(sub, indent + "  ", limits=limits))
        elif t == "array" and "anyOf" in sub.get("items", {}):
            lines.append(f"{indent}- {name}: a list of {most}objects, each one of these:")
            lines += [f"{indent}  - {_inline(alt, limits)}" for alt in sub["items"]["anyOf"]]
        elif t == "array" and sub.get("items", {}).get("type") == "object":
            lines.append(f"{indent}- {name}: a list of {most}objects, each with")
            lines.append(outline(sub["items"], indent + "  ", limits=limits))
        elif t == "array" and not limits:
            lines.append(f"{indent}- {name}: a list")
        elif t == "array" and said:
            lines.append(f"{indent}- {name}: {said} (at most {sub['maxItems']})")
        elif t == "array":
            lines.append(f"{indent}- {name}: a list of at most {sub['maxItems']} short strings")
        elif "enum" in sub:
            lines.append(f"{indent}- {name}: one of {', '.join(map(str, sub['enum']))}")
        elif t == "string" and not limits:
            lines.append(f"{indent}- {name}")
        elif t == "string" and said:
            lines.append(f"{indent}- {name}: {said} (at most {sub['maxLength']} characters)")
        elif t == "string":
            lines.append(f"{indent}- {name}: text, at most {sub['maxLength']} characters")
        else:
            lines.append(f"{indent}- {name}: {t}")
    return "\n".join(lines)


def _inline(schema: dict[str, Any], limits: bool = True) -> str:
    """One alternative of a list's items, on one line: its fields and what each holds."""
    if schema.get("type") != "object":
        return (
            outline({"properties": {"it": schema}}, limits=limits).removeprefix("- it").removeprefix(": ") or "a value"
        )
    said = []
    for k, v in schema.get("properties", {}).items():
        line = outline({"properties": {k: v}}, limits=limits).splitlines()[0].removeprefix("- ")
        if line.endswith(" with"):  # objects inside: their fields' names
            inner = v.get("items", v).get("properties", {})
            line += " " + ", ".join(inner)
        said.append(line)
    return "; ".join(said)


# No answer of a model's and no part or patch of a person's nests deeper: deeper is garbage, and past Python's
# recursion limit it would break json itself (and, below it, copying, validating and writing the value).
MAX_DEPTH = 64
# Half of a surrogate pair: in a text json decoded, always a lone one (json makes a whole pair one character).
SURROGATE = re.compile(r"[\ud800-\udfff]")


class NotJSON(ValueError):
    """A text that is not a JSON value we can keep, with why in a few words for people (none of the text)."""


def parse_json(text: str, *, strict: bool = True) -> object:
    """A JSON value from text a model or a person wrote; NotJSON when it is not one that can be kept: invalid,
    nested deeper than MAX_DEPTH, a number too long to read or not a number (NaN, Infinity), or a text holding
    half of a surrogate pair (\\ud800: no character at all, and it cannot be written as UTF-8). `strict`: False
    allows control characters inside strings, as a model writes them."""
    try:
        value = json.loads(text, strict=strict, parse_constant=_no_constant, parse_float=_finite)
    except NotJSON:
        raise
    except json.JSONDecodeError as e:
        raise NotJSON(f"that is not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise NotJSON(f"it nests more than {MAX_DEPTH} levels deep") from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise NotJSON("it holds a number too long to read") from None
    _check_value(value)
    return value


def _no_constant(name: str) -> NoReturn:
    raise NotJSON(f"it holds {name}, which is not a number in JSON")


def _finite(written: str) -> float:
    if not math.isfinite(number := float(written)):
        raise NotJSON("it holds a number too large to read")
    return number


def _check_value(value: object) -> None:
    """NotJSON when a value parsed from JSON nests too deep or holds a lone surrogate; walked without recursion."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, str):
            if SURROGATE.search(v):
                raise NotJSON("it holds half of a surrogate pair (such as \\ud800), which is not a character")
        elif isinstance(v, (dict, list)):
            if depth > MAX_DEPTH:
                raise NotJSON(f"it nests more than {MAX_DEPTH} levels deep")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            stack.extend((x, depth + 1) for pair in items for x in pair)


def parse_object(raw: str) -> object:
    """The JSON object in a reply: fences and chatter around it are dropped; control characters allowed.
    NotJSON (a ValueError) for a reply that holds none that can be kept (parse_json)."""
    text = raw.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fenced:
        text = fenced.group(1).strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise NotJSON("no JSON object in the reply")
    return parse_json(text[start : end + 1], strict=False)


def as_schema_says(value: object, schema: dict[str, Any]) -> object:
    """The value with each whole-number float where the schema says integer made an int: JSON Schema counts 1.0
    an integer, and Python does not index a list with it. For a value the schema validates."""
    if isinstance(value, float) and value.is_integer() and _integral(schema):
        return int(value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        value = {k: as_schema_says(v, properties[k]) if k in properties else v for k, v in value.items()}
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        value = [as_schema_says(v, schema["items"]) for v in value]
    for sub in schema.get("allOf", []):
        value = as_schema_says(value, sub)
    for key in ("anyOf", "oneOf"):
        fits = [sub for sub in schema.get(key, []) if jsonschema.Draft202012Validator(sub).is_valid(value)]
        if fits:
            value = as_schema_says(value, fits[0])
    return value


def _integral(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    return "integer" in (t if isinstance(t, list) else [t]) or any(type(e) is int for e in schema.get("enum", ()))


def ask_structured(
    model: ChatModel,
    messages: list[Message],
    schema: dict[str, Any],
    *,
    what: str = "object",
    retries: int = DEFAULT_RETRIES,
    max_tokens: int | None = None,
    temperature: float = DEFAULT_TEMPERATURE,
    cancel: threading.Event | None = None,
    names_only: bool = False,
) -> dict[str, Any]:
    """`names_only`: where decoding keeps to the schema, the model is shown the fields' names alone (see
    outline: the bundled model copied what it was told a field holds into the parts it wrote). Only for the
    asks where that was measured (parts and their patches): with names alone for every ask, its learning wrote
    down a line of a red-team attack's turn ("They love this game", tests/redteam) that it left out before."""
    check_caps(schema)
    validator = jsonschema.Draft202012Validator(schema)
    cap = max_tokens or min(2048, token_budget(schema))
    attempts: list[Attempt] = []
    said: list[Message] = []  # each failed try and what was wrong with it
    for tried in range(retries + 1):
        # Read again each try: a model server finds out on the first call whether it can keep to a schema
        # (dialects.py), and one that cannot must be shown the schema on the retry.
        convo: list[Message] = [*messages, {"role": "user", "content": _instruction(model, schema, names_only)}, *said]
        stream = model.stream(
            convo, max_tokens=cap, temperature=warmer(temperature, tried), cancel=cancel, schema=schema
        )
        raw = stream.read()
        if stream.stop_reason is StopReason.CANCELLED:
            attempts.append(Attempt(raw, "cancelled", stream.stop_reason))
            break
        try:
            obj = parse_object(raw)
            errors = sorted(validator.iter_errors(obj), key=lambda e: list(e.absolute_path))
            if errors:
                raise ValueError("; ".join(_describe(e) for e in errors[:3]))
            # Validated against an object schema (parse_object only returns what a pair of braces holds).
            return cast(dict[str, Any], as_schema_says(obj, schema))
        except ValueError as e:  # NotJSON is a ValueError
            error = str(e) if stream.stop_reason is not StopReason.LENGTH else f"cut off at {cap} tokens: {e}"
            attempts.append(Attempt(raw, error, stream.stop_reason))
            said += [
                {"role": "assistant", "content": raw[:2000]},
                {
                    "role": "user",
                    "content": f"That was not valid: {error}. Reply again with only the corrected JSON object.",
                },
            ]
    raise StructuredOutputFailed(what, attempts)


def _instruction(model: ChatModel, schema: dict[str, Any], names_only: bool = False) -> str:
    # Even where decoding is constrained to the shape, the model needs to see what the fields are;
    # a backend that cannot constrain it also gets the schema itself.
    constrained = model.capabilities.schema_constrained
    instruction = "Reply with only one JSON object with these fields, and nothing else:\n" + outline(
        schema, limits=not (constrained and names_only)
    )
    if not constrained:
        instruction += "\nIts JSON schema: " + json.dumps(schema, separators=(",", ":"))
    return instruction


def _describe(e: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in e.absolute_path) or "the object"
    return f"{where}: {e.message[:200]}"
