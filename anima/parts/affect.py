"""The Self's affect profile (seed 000, "Tuning"): what it values, what it fears, what it seeks.

It is the "affective spine" parts grow from: the same moment makes a part in one
companion and nothing in another, because the Self cares about different things
(reflect/parts.py asks the model, with this profile, whether a moment mattered).
A pack ships one (parts/packs.py); it is kept in the soul's meta, beside the
parts. It steers behaviour, so only the person changes it (DESIGN.md, "What
shapes the companion"): the companion reads it and never writes it.
"""

import json
from typing import cast

import jsonschema

from ..errors import InvalidEdit
from ..store.soul import Soul
from ..trust import secrets
from ..trust.text import unfit_text
from .packs import AFFECT, AFFECT_META, AFFECT_SCHEMA, Profile, profile_lines

_VALIDATOR = jsonschema.Draft202012Validator(AFFECT_SCHEMA)


def check(profile: object) -> Profile:
    """The profile with its lines trimmed, or InvalidEdit in one line that quotes none of it."""
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(profile))
    if error is not None:
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        raise InvalidEdit(
            f"That is not an affect profile (values, fears, seeks: lists of short lines): at {where}, "
            f"{error.validator} fails; the old profile is kept."
        )
    valid = cast(Profile, profile)  # AFFECT_SCHEMA has just held it to one
    if (why := unfit_text(profile_lines(valid), names=())) is not None:
        raise InvalidEdit(f"That affect profile's {why}; the old profile is kept.")
    trimmed = {k: [" ".join(line.split()) for line in valid[k] if line.strip()] for k in AFFECT}
    for k in AFFECT:
        for line in trimmed[k]:
            if found := secrets.find(line):
                raise InvalidEdit(
                    f"A line of {k} holds {found[0]}, and secrets are never kept; the old profile is kept."
                )
    return trimmed


def render(profile: Profile) -> str:
    """The profile as the model reads it: three short lines, in the Self's voice."""
    said = {"values": "I value", "fears": "I fear", "seeks": "I seek"}
    lines = [f"{said[k]}: {'; '.join(profile[k])}." for k in AFFECT if profile.get(k)]
    return "\n".join(lines) or "I have no affect profile yet: I care about what the person cares about."


class Affect:
    def __init__(self, soul: Soul):
        self.soul = soul

    def profile(self) -> Profile:
        """{"values": [...], "fears": [...], "seeks": [...]}; empty lists before any was set or installed."""
        stored = self.soul.get_meta(AFFECT_META)
        return json.loads(stored) if stored else {k: [] for k in AFFECT}

    def set(self, profile: object, actor: str = "user") -> Profile:
        """The person's edit (the Open Mind, `python -m anima parts affect --set FILE`): checked whole, then written.
        The companion's own proposals never come here (it steers behaviour: only the person changes it)."""
        if actor != "user":
            raise InvalidEdit("Only you change the affect profile; it was not changed.")
        checked = check(profile)
        self.soul.set_meta(AFFECT_META, json.dumps(checked, ensure_ascii=False))
        return checked

    def rendered(self) -> str:
        return render(self.profile())
