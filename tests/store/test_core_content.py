"""A core's content is read as it inflates (store/core_content.py): what it gives is what json.loads reads from the
same text, however the text is cut into steps; what is not a core's content is refused; and an import holds a
batch of rows, not the soul."""

import json
import random
import secrets
import tracemalloc
import zlib

import pytest

from anima.errors import BadCore
from anima.store import Home, core, core_content
from anima.store.migrations import SCHEMA_VERSION

EXPORT = "export passphrase for the content"
TABLES = {
    "meta": {"columns": ["key", "value"], "rows": [["name", "Ada é 🌍"], ["user_name", "Sam"]]},
    "messages": {
        "columns": ["id", "session", "role", "speaker", "content", "created_at"],
        "rows": [
            [i, "s", "user", "Sam", f'line {i} — 日本語 "quoted" \\ 🌍 {1.5e-7 * i}', "2026"] for i in range(1, 1200)
        ],
    },
    "embeddings": {
        "columns": ["kind", "item_id", "model", "dim", "vector"],
        "rows": [["message", 1, "m", 2, {"$b64": "AAAAAAAAgD8="}]],
    },
}


def read(text: str, step: int | None = None, seed: int = 0) -> dict:
    """core_content.tables over `text` as UTF-8, cut into steps of `step` bytes (random ones when None)."""
    data, rng, pieces, at = text.encode("utf-8"), random.Random(seed), [], 0
    while at < len(data):
        n = step or rng.randint(1, 64)
        pieces.append(data[at : at + n])
        at += n
    got = {}
    for name, columns, rows in core_content.tables(
        iter(pieces), lambda name, columns: None, lambda row, width, name: row
    ):
        got.setdefault(name, {"columns": columns, "rows": []})["rows"].extend(rows)
    return got


@pytest.mark.parametrize(
    "dumps",
    [
        lambda t: json.dumps({"tables": t}, ensure_ascii=False),  # as core.py writes it
        lambda t: json.dumps({"tables": t}),  # \u escapes, surrogate pairs among them
        lambda t: json.dumps({"tables": t}, indent=3),
        lambda t: json.dumps({"tables": t}, separators=(",", ":")),
        lambda t: json.dumps({"format": {"a": [1, 2.5e10]}, "tables": t, "z": 7}),  # keys let be, as json.loads did
    ],
    ids=["as-written", "ascii", "indented", "compact", "other-keys"],
)
def test_any_cut_of_the_text_gives_what_json_reads(dumps):
    text = dumps(TABLES)
    want = json.loads(text)["tables"]
    for step in (1, 2, 3, 7, 4096, None):
        assert read(text, step) == want


def test_a_number_cut_at_a_step_is_read_whole():
    text = json.dumps({"tables": {"messages": {"columns": ["id"], "rows": [[123456789], [-2.5e-300], [10]]}}})
    for step in range(1, len(text) + 1):
        assert read(text, step)["messages"]["rows"] == [[123456789], [-2.5e-300], [10]]


def test_the_rows_come_a_batch_at_a_time():
    rows = [[i] for i in range(core_content.ROWS_AT_ONCE * 2 + 5)]
    text = json.dumps(
        {"tables": {"messages": {"columns": ["id"], "rows": rows}, "meta": {"columns": ["key"], "rows": []}}}
    )
    batches = [
        (name, len(rows))
        for name, _, rows in core_content.tables(iter([text.encode()]), lambda *a: None, lambda row, width, name: row)
    ]
    assert batches == [
        ("messages", core_content.ROWS_AT_ONCE),
        ("messages", core_content.ROWS_AT_ONCE),
        ("messages", 5),
        ("meta", 0),
    ]


@pytest.mark.parametrize(
    "text",
    [
        '{"tables": {"messages": {"rows": [[1]], "columns": ["id"]}}}',  # rows before their columns
        '{"tables": {"meta": {"columns": ["key"], "rows": []}, "meta": {"columns": ["key"], "rows": []}}}',
        '{"tables": {}} trailing',
        '{"tables": {}, "tables": {}}',
        '{"tables": {"messages": {"columns": ["id"], "rows": [[1], [2]',  # ends inside its rows
        '{"tables": {"messages": {"columns": ["id"], "rows": [[1] [2]]}}}',
        '{"tables": {"messages": {"columns": ["id"]}}}',
        '{"tables": []}',
        '{"other": 1}',
        '["tables"]',
        "",
        '{"tables": {"messages": {"columns": ["id"], "rows": [["\\ud800"]]} }',
    ],
    ids=[
        "rows-first",
        "table-twice",
        "trailing",
        "tables-twice",
        "truncated",
        "no-comma",
        "no-rows",
        "tables-list",
        "no-tables",
        "a-list",
        "empty",
        "unclosed",
    ],
)
def test_text_that_is_no_core_content_is_refused(text):
    with pytest.raises((ValueError, KeyError, TypeError)):
        read(text, 5)


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(UnicodeDecodeError):
        list(core_content.tables(iter([b'{"tables": {"m\xff": {}}}']), lambda *a: None, lambda *a: a[0]))


def test_a_refused_content_in_a_sealed_core_is_one_sentence_and_imports_nothing(tmp_path):
    """Sealed with the known passphrase, so each chunk passes its check: the content itself is refused."""
    for n, text in enumerate(
        [
            '{"tables": {"meta": {"rows": [], "columns": ["key"]}}}',
            '{"tables": {"meta": {"columns": ["key", "value"], "rows": [["name", "Ada"]]}}} x',
        ]
    ):
        path = tmp_path / f"bad{n}.core"
        core._seal(path, zlib.compress(text.encode()), SCHEMA_VERSION, EXPORT)
        target = Home(tmp_path / f"target{n}")
        with pytest.raises(BadCore, match="content cannot be read") as err:
            target.import_core(path, EXPORT, "new machine passphrase")
        assert "\n" not in str(err.value)
        assert not target.dir.exists()


def imported_peak(tmp_path, rows: int) -> tuple[int, int]:
    """(the most Python memory an import of a core of `rows` long messages held, its content's length)."""
    messages = [[i, "s", "user", "Sam", secrets.token_hex(1000), "2026"] for i in range(1, rows + 1)]
    tables = {"meta": TABLES["meta"], "messages": {"columns": TABLES["messages"]["columns"], "rows": messages}}
    content = len(json.dumps({"tables": tables}))
    path = tmp_path / f"{rows}.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    del messages, tables
    target = Home(tmp_path / f"target-{rows}")
    tracemalloc.start()
    try:
        target.import_core(path, EXPORT, "new machine passphrase")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    with target.unlock("new machine passphrase") as soul:
        assert soul.query("SELECT count(*) AS n FROM messages")[0]["n"] == rows
        assert soul.get_meta("name") == "Ada é 🌍"
    return peak, content


def test_an_import_holds_a_batch_of_rows_not_the_soul(tmp_path):
    """Read whole, the content's text and the objects made from it were all held at once (1.5 GB for a
    100,000-message soul's 154 MB core); read as it inflates, what is held is a few steps and a batch, however
    large the core (a fixed ~10 MB, mostly 1 MiB pieces: sealed, opened, inflated, decoded)."""
    small, _ = imported_peak(tmp_path, 1_500)
    large, content = imported_peak(tmp_path, 6_000)
    assert large < small * 1.5 and large < content, (small, large, content)


def test_the_names_are_judged_before_the_rest_is_built(tmp_path, monkeypatch):
    """A new home's passphrase is judged against the names in the core's settings (written first) before its
    messages are built; refused, nothing is left."""
    path = tmp_path / "named.core"
    core.write_core(path, TABLES, SCHEMA_VERSION, EXPORT)
    built, judged = [], []
    real = Home._restore

    def judge(names):
        judged.append((names, list(built)))
        raise BadCore("refused: the passphrase holds a name")

    def restore(staging, key, version, tables, cid):
        def watched():
            for table in tables:
                built.append(table[0])
                yield table

        return real(staging, key, version, watched(), cid)

    monkeypatch.setattr(Home, "_restore", staticmethod(restore))
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore, match="refused"):
        target.import_core(path, EXPORT, "new machine passphrase", judge_new=judge)
    assert judged == [(("Ada é 🌍", "Sam"), ["meta"])]
    assert not target.dir.exists()


def test_a_number_standing_alone_cut_anywhere_is_read_whole():
    """Keys beside "tables" are let be, as json.loads let them be, whatever number they hold and wherever an
    inflate step cuts it ("1." of "1.5e3" is no number yet)."""
    text = '{"format": 1.5e-3, "tables": {"m": {"columns": ["id"], "rows": [[-0.25E+2]], "n": 7}}, "z": -12.5e3}'
    want = {"m": {"columns": ["id"], "rows": [[-25.0]]}}
    for step in range(1, len(text) + 1):
        assert read(text, step) == want


def test_text_wrong_where_it_is_read_is_refused_without_reading_on():
    """A mistake early in the content is refused there: not after the rest of it (up to content_limit) is read
    into memory in the hope that more text mends it."""
    pulled = []

    def pieces():
        yield b'{"tables": {"messages": {"columns": ["id"], "rows": [[1,,'
        for _ in range(200):
            pulled.append(1)
            yield b" " * (1 << 20)
        yield b"]]}}}"

    with pytest.raises(json.JSONDecodeError):
        list(core_content.tables(pieces(), lambda *a: None, lambda row, width, name: row))
    assert len(pulled) < 3


def test_a_long_name_is_told_short(tmp_path):
    """A hostile core's table name of five million characters makes a BadCore of one short line."""
    name = "\x01" * 5_000_000
    text = json.dumps({"tables": {name: {"rows": [], "columns": ["id"]}}})
    path = tmp_path / "long.core"
    core._seal(path, zlib.compress(text.encode()), SCHEMA_VERSION, EXPORT)
    with pytest.raises(BadCore) as err:
        Home(tmp_path / "target").import_core(path, EXPORT, "new machine passphrase")
    assert len(str(err.value)) < 300, len(str(err.value))
