"""The JSON documents the soul stores (kinds.Kind.document), and the schemas they fit.

The code that reads a part takes its fields as given: a stored part of another
shape ended every turn in a KeyError. What Anima writes is checked where it is
written (parts/part.py); what a core brings is checked here, as it is imported.
"""

import functools
import json
from typing import Any, cast

import jsonschema
import sqlcipher3

from .kinds import KINDS, RESOURCES


@functools.cache
def schema(kind: str) -> dict[str, Any]:
    """The schema of `kind`'s document, as its file declares it."""
    document = KINDS[kind].document
    if document is None:  # as indexing None raised before, said
        raise TypeError(f"a {kind} stores no document")
    return cast(dict[str, Any], json.loads((RESOURCES / document[1]).read_text(encoding="utf-8")))  # a JSON object


@functools.cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(kind))


def misfit(con: sqlcipher3.Connection) -> str | None:
    """The first stored document that does not fit its schema, said without a word of its text ("part #3 breaks
    its schema at /triggers (type)"); None when every one fits."""
    for kind in KINDS.values():
        if kind.document is None:
            continue
        column = kind.document[0]
        for item_id, text in con.execute(f"SELECT id, {column} FROM {kind.table}"):
            # Valid JSON: the table's CHECK holds every stored one to that (json_valid), but SQLite reads 1,000
            # levels deep, and Python's reader recurses: a part nested so deep fits no schema.
            try:
                error = jsonschema.exceptions.best_match(validator(kind.name).iter_errors(json.loads(text)))
            except RecursionError:
                return f"{kind.title} #{item_id} is nested too deep to read"
            if error is not None:
                where = "/" + "/".join(str(p) for p in error.absolute_path)
                return f"{kind.title} #{item_id} breaks its schema at {where} ({error.validator})"
    return None
