"""The portable core of a large soul is written a piece at a time: neither its JSON text nor the sealed file is
ever whole in memory (a 100,000-message soul's export peaked at 1.7 GB holding both, and copies of them)."""

import json
import os
import secrets

from anima.store import core
from anima.store.migrations import SCHEMA_VERSION

EXPORT = "export passphrase for the streamed core"


def big_tables(rows: int = 6_000) -> dict:
    # Incompressible text, so the payload spans several 1 MiB chunks.
    return {"messages": {"columns": ["id", "content", "created_at"],
                         "rows": [[i, secrets.token_hex(200) + " é", "2026-11-29"] for i in range(1, rows + 1)]},
            "meta": {"columns": ["key", "value"], "rows": [["name", "Anima"]]}}


def test_a_large_core_is_encoded_and_written_in_pieces_and_reads_back_whole(tmp_path, monkeypatch):
    tables = big_tables()
    whole = len(json.dumps({"tables": tables}, ensure_ascii=False))
    longest, writes = [0], []
    real_dumps, real_write = json.dumps, os.write

    def dumps(obj, *args, **kwargs):
        text = real_dumps(obj, *args, **kwargs)
        longest[0] = max(longest[0], len(text))
        return text

    def write(fd, data):
        writes.append(len(data))
        return real_write(fd, data)
    monkeypatch.setattr(json, "dumps", dumps)
    monkeypatch.setattr(os, "write", write)
    path = tmp_path / "big.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    monkeypatch.undo()
    assert longest[0] < whole / 4  # the text a thousand rows at a time, never whole
    assert len(writes) > 2 and max(writes) <= core.CHUNK + 4 + 16  # a sealed chunk at a time
    assert sum(writes) == path.stat().st_size
    assert core.read_core(path, EXPORT).tables == tables

