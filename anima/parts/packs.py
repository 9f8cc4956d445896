"""Parts packs (seed 000): a companion's motivations in one JSON file, installed and exported.

A pack is an object with `name`, `description`, an `affect_profile` (what the
Self values, fears and seeks: the "affective spine" parts grow from) and
`parts` (objects that pass every check of parts/part.py). The same mechanism
makes very different companions: resources/packs/ ships a personal assistant
and a villain NPC.

Installing is the person's act: every part is checked before any is written,
then the parts (provenance: an imported card, the pack's name) and the affect
profile (kept in the soul's meta) are written in one transaction. A part whose
name an active part already has is skipped, so installing twice adds nothing.
"""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import jsonschema

from .. import files
from ..errors import InvalidEdit
from ..models.structured import NotJSON, parse_json
from ..store.kinds import RESOURCES
from ..store.provenance import Provenance, Source
from ..trust.text import unfit_text
from . import part as schema
from .parts import Parts

PACKS_DIR = RESOURCES / "packs"
AFFECT_META = "affect_profile"
AFFECT = ("values", "fears", "seeks")
AFFECT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": list(AFFECT),
    "properties": {
        k: {"type": "array", "maxItems": 12, "items": {"type": "string", "minLength": 1, "maxLength": 160}}
        for k in AFFECT
    },
}
PACK_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "description", "affect_profile", "parts"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "description": {"type": "string", "minLength": 1, "maxLength": 800},
        "affect_profile": AFFECT_SCHEMA,
        "parts": {"type": "array", "maxItems": 256, "items": {"type": "object"}},  # each checked as a part, below
    },
}
_PACK = jsonschema.Draft202012Validator(PACK_SCHEMA)
# An affect profile: what the Self values, fears and seeks, {"values": [lines], "fears": [...], "seeks": [...]}.
Profile = dict[str, list[str]]


@dataclass
class Installed:
    pack: str
    created: list[int] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # names an active part already had


def shipped() -> list[Path]:
    """The packs that ship with Anima."""
    return sorted(PACKS_DIR.glob("*.json"))


def check(pack: object) -> None:
    """InvalidEdit, in one line, unless the whole pack is valid (its shape, and every part in it)."""
    error = jsonschema.exceptions.best_match(_PACK.iter_errors(pack))
    if error is not None:
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        raise InvalidEdit(f"That is not a parts pack: at {where}, {error.validator} fails; nothing was installed.")
    valid = cast(dict[str, Any], pack)  # PACK_SCHEMA has just held it to a pack's object
    texts = [("name", valid["name"]), ("description", valid["description"])]
    if (why := unfit_text([*texts, *profile_lines(valid["affect_profile"])])) is not None:
        raise InvalidEdit(f"That pack's {why}; nothing was installed.")
    for i, p in enumerate(valid["parts"], 1):
        if (why := schema.problem(p)) is not None:
            raise InvalidEdit(f"Part {i} of the pack is not a part that can be kept: {why}; nothing was installed.")


def profile_lines(profile: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """An affect profile's lines, each with where it is ("values 2")."""
    return [(f"{k} {i}", line) for k in AFFECT for i, line in enumerate(profile.get(k, ()), 1)]


# A JSON file the person hands the parts (a pack, a patch, an affect profile): a part holds at most 16 KiB, so a
# pack of a hundred is under 2 MiB. Never more is read: /dev/zero filled 16 GB in 15 s.
JSON_FILE_MOST = 4 << 20


def read_json(path: str | Path, unchanged: str) -> object:
    """The JSON value in a file the person named; InvalidEdit ending in `unchanged` ("nothing was installed") when
    it is not a regular file of at most JSON_FILE_MOST bytes of UTF-8 JSON."""
    try:
        return parse_json(files.read_regular(Path(path), JSON_FILE_MOST).decode("utf-8"))
    except files.TooLarge:
        raise InvalidEdit(
            f"{path} is larger than {JSON_FILE_MOST >> 20} MiB, too large for a JSON file of parts; {unchanged}."
        ) from None
    except files.NotRegularFile as e:
        raise InvalidEdit(f"{path} is {e}, not a file; {unchanged}.") from None
    except OSError as e:
        raise InvalidEdit(f"Cannot read {path} ({e.strerror or e}); {unchanged}.") from None
    except UnicodeDecodeError as e:
        raise InvalidEdit(f"{path} is not a JSON file ({type(e).__name__}); {unchanged}.") from None
    except NotJSON as e:
        raise InvalidEdit(f"{path} is not a JSON file that can be read: {e}; {unchanged}.") from None


def read(path: str | Path) -> dict[str, Any]:
    """A pack file, checked whole."""
    pack = read_json(path, "nothing was installed")
    check(pack)
    return cast(dict[str, Any], pack)  # check() held it to PACK_SCHEMA


class Packs:
    def __init__(self, parts: Parts):
        self.parts = parts
        self.soul = parts.soul

    def affect_profile(self) -> Profile:
        stored = self.soul.get_meta(AFFECT_META)
        return json.loads(stored) if stored else {k: [] for k in AFFECT}

    def install(self, pack: dict[str, Any]) -> Installed:
        """The person installs a pack: all of it is checked first, then written in one transaction."""
        check(pack)
        done = Installed(pack["name"])
        active = {p.name for p in self.parts.all()}
        made = Provenance(Source.CARD, detail=f"pack: {pack['name']}")
        with self.soul.transaction():
            self.soul.set_meta(AFFECT_META, json.dumps(pack["affect_profile"], ensure_ascii=False))
            for p in pack["parts"]:
                if p["name"] in active:
                    done.skipped.append(p["name"])
                    continue
                done.created.append(self.parts.create(p, "user", made))
                active.add(p["name"])
        return done

    def export(self, name: str, description: str) -> dict[str, Any]:
        """The soul's active parts and its affect profile, as a pack another companion can install."""
        pack = {
            "name": name,
            "description": description,
            "affect_profile": self.affect_profile(),
            "parts": [p.data for p in self.parts.all()],
        }
        check(pack)
        return pack
