"""Hostile cores: each is refused with a clear BadCore, quickly, within bounded memory, and leaves the target home
as it was. The cores here are built by hand, some with the known export passphrase (a compression bomb passes
every check but its size)."""

import json
import os
import struct
import tracemalloc
import zlib

import pytest

from anima.errors import BadCore
from anima.store import Home, core, keys
from anima.store.migrations import SCHEMA_VERSION

EXPORT = "export passphrase"
TABLES = {"meta": {"columns": ["key", "value"], "rows": [["name", "Ada"]]}}


@pytest.fixture
def small_core(tmp_path):
    path = tmp_path / "small.core"
    core.write_core(path, TABLES, SCHEMA_VERSION, EXPORT)
    return path


def split(data: bytes) -> tuple[str, bytes]:
    """A core's header (as text) and what follows it."""
    start = len(core.MAGIC) + 4
    (length,) = struct.unpack(">I", data[len(core.MAGIC) : start])
    return data[start : start + length].decode("ascii"), data[start + length :]


def with_header(text: str, rest: bytes = b"") -> bytes:
    raw = text.encode("ascii")
    return core.MAGIC + struct.pack(">I", len(raw)) + raw + rest


def with_kdf(data: bytes, **raw: str) -> bytes:
    """The core with kdf numbers replaced by raw JSON text (9e999 is no number json.dumps writes)."""
    header, rest = split(data)
    h = json.loads(header)
    for name in raw:
        h["kdf"][name] = f"@{name}@"
    text = json.dumps(h)
    for name, value in raw.items():
        text = text.replace(f'"@{name}@"', value)
    return with_header(text, rest)


def refused(path, tmp_path, match=None):
    """Import `path` into a new home: BadCore, and nothing created there."""
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore, match=match) as err:
        target.import_core(path, EXPORT, "new machine passphrase")
    assert "\n" not in str(err.value)
    assert not target.dir.exists() or list(target.dir.iterdir()) == []
    return str(err.value)


# ---- the header's numbers ---------------------------------------------------------------------------------------

# kdf numbers, as raw JSON text, that no file Anima wrote holds: scrypt refuses them, or they are no whole number.
HOSTILE_KDF = [
    {"n": "1048576", "r": "1"},  # OpenSSL: N must be below 2^(16 r)
    {"n": "65536", "r": "1"},
    {"n": "9e999"},  # json reads it as infinity
    {"n": "-9e999"},
    {"n": "1e300"},
    {"n": "16384.0"},
    {"n": "NaN"},
    {"n": "Infinity"},
    {"n": "true"},
    {"n": '"16384"'},
    {"n": "null"},
    {"n": "1" + "0" * 4000},
    {"n": str(2**4000)},
    {"r": "9e999"},
    {"p": "1e300"},
    {"p": "false"},
    {"r": "0"},
    {"p": "-1"},
]


@pytest.mark.parametrize("kdf", HOSTILE_KDF)
def test_a_core_whose_kdf_numbers_scrypt_would_refuse_is_refused_before_any_work(
    small_core, tmp_path, kdf, monkeypatch
):
    bad = tmp_path / "bad.core"
    bad.write_bytes(with_kdf(small_core.read_bytes(), **kdf))
    derived = []
    monkeypatch.setattr(keys.hashlib, "scrypt", lambda *a, **kw: derived.append(kw) or b"\0" * 32)
    said = refused(bad, tmp_path, match="is damaged")
    assert derived == []  # refused from the header's numbers: no key was derived with them
    assert len(said) < 400  # no number thousands of digits long


@pytest.mark.parametrize(
    "field, value",
    [
        ("schema_version", "9e999"),
        ("schema_version", "-Infinity"),
        ("schema_version", "NaN"),
        ("schema_version", "0"),
        ("format_version", "1e300"),
        ("format_version", "true"),
    ],
)
def test_a_core_whose_versions_are_not_whole_numbers_is_refused(small_core, tmp_path, field, value):
    header, rest = split(small_core.read_bytes())
    h = json.loads(header)
    h[field] = "@v@"
    bad = tmp_path / "bad.core"
    bad.write_bytes(with_header(json.dumps(h).replace('"@v@"', value), rest))
    refused(bad, tmp_path, match="is damaged")


def test_a_header_nested_thousands_deep_is_refused(tmp_path):
    bad = tmp_path / "deep.core"
    bad.write_bytes(with_header("[" * 60000 + "]" * 60000))
    refused(bad, tmp_path, match="is damaged")


def test_a_cost_the_bounds_miss_is_still_refused_by_the_derivation(small_core, tmp_path, monkeypatch):
    """A backstop: were the bounds to let through a cost OpenSSL refuses, the import says the file is damaged."""
    monkeypatch.setattr(keys.Cost, "bounded", lambda self: self)
    bad = tmp_path / "bad.core"
    bad.write_bytes(with_kdf(small_core.read_bytes(), n=str(2**16), r="1"))
    assert "cannot be computed" in refused(bad, tmp_path, match="is damaged")


# ---- what is read, and how much ----------------------------------------------------------------------------------


def peak_while(fn) -> int:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def sparse(path, size: int, head: bytes = b""):
    """A file of `size` bytes that takes no disk: `head`, then zeros."""
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)


def test_a_large_foreign_file_is_refused_from_its_first_bytes(tmp_path):
    big = tmp_path / "zeros.bin"
    sparse(big, 600 << 20)
    peak = peak_while(lambda: refused(big, tmp_path, match="not an Anima core file"))
    assert peak < 1 << 20
    noise = tmp_path / "noise.bin"
    sparse(noise, 600 << 20, os.urandom(1 << 20))
    peak = peak_while(lambda: refused(noise, tmp_path, match="not an Anima core file"))
    assert peak < 1 << 20


@pytest.mark.parametrize("rest", [b"\xff\xff\xff\xff", struct.pack(">I", core.MAX_HEADER + 1) + b"{}"])
def test_a_header_longer_than_allowed_is_refused_before_it_is_read(tmp_path, rest):
    bad = tmp_path / "bad.core"
    sparse(bad, 600 << 20, core.MAGIC + rest)
    assert peak_while(lambda: refused(bad, tmp_path, match="damaged or truncated")) < 1 << 20


@pytest.mark.parametrize("length", [0xFFFFFFFF, core.CHUNK + 17, 0])
def test_a_chunk_longer_than_allowed_or_empty_is_refused_before_the_rest_is_read(small_core, tmp_path, length):
    """A real header and the known passphrase, then a chunk length out of bounds and 600 MB of zeros."""
    header, _ = split(small_core.read_bytes())
    bad = tmp_path / "bad.core"
    sparse(bad, 600 << 20, with_header(header, struct.pack(">I", length)))
    assert peak_while(lambda: refused(bad, tmp_path, match="damaged")) < 4 << 20


def test_a_device_that_never_ends_is_refused(tmp_path):
    assert "a device or a pipe" in refused("/dev/zero", tmp_path)


@pytest.mark.timeout(20)
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "soul.core"
    os.mkfifo(fifo)
    assert "a device or a pipe" in refused(fifo, tmp_path)


def test_a_folder_or_a_missing_file_is_refused(tmp_path):
    (tmp_path / "folder").mkdir()
    assert "is a folder" in refused(tmp_path / "folder", tmp_path)
    assert "There is no file" in refused(tmp_path / "missing.core", tmp_path)


# ---- the content's size --------------------------------------------------------------------------------------------


def bomb(size: int) -> bytes:
    """A zlib stream of a core's content, one message of `size` repeated bytes: about 1000:1."""
    packer, block = zlib.compressobj(9), b"a" * (1 << 20)
    out = [packer.compress(b'{"tables": {"messages": {"columns": ["content"], "rows": [["')]
    out += [packer.compress(block) for _ in range(size >> 20)]
    return b"".join(out) + packer.compress(b'"]]}}}') + packer.flush()


def test_a_compression_bomb_made_with_the_known_passphrase_is_refused_within_the_bound(tmp_path):
    """About 250 KB that inflates to 256 MiB: it passes every check, and is refused once it outgrows its bound."""
    bad = tmp_path / "bomb.core"
    core._seal(bad, bomb(256 << 20), SCHEMA_VERSION, EXPORT)
    size = bad.stat().st_size
    assert size < 1 << 20
    peak = peak_while(lambda: refused(bad, tmp_path, match="inflates past"))
    # One value past the text read is held, and twice while it is joined with what is read next (core_content.py).
    assert peak < core.content_limit(size) * 2.1 + (4 << 20)


def test_content_within_the_bound_but_past_the_ratio_imports(tmp_path):
    """The floor: a small soul may compress as well as it will."""
    path = tmp_path / "small.core"
    core._seal(path, bomb(8 << 20), SCHEMA_VERSION, EXPORT)
    assert path.stat().st_size * core.CONTENT_RATIO < 8 << 20
    got = core.read_core(path, EXPORT)
    assert len(got.tables["messages"]["rows"][0][0]) == 8 << 20


def test_content_too_repetitive_for_the_bound_is_written_uncompressed_and_imports(tmp_path, monkeypatch):
    """A soul that compresses past the bound is exported stored, never as a file that cannot be imported."""
    monkeypatch.setattr(core, "CONTENT_FLOOR", 0)
    tables = {"messages": {"columns": ["id", "content"], "rows": [[1, "a" * (1 << 20)], [2, "b"]]}}
    path = tmp_path / "repetitive.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    assert path.stat().st_size > 1 << 20
    assert core.read_core(path, EXPORT).tables == tables
    normal = tmp_path / "normal.core"
    core.write_core(normal, TABLES, SCHEMA_VERSION, EXPORT)
    assert core.read_core(normal, EXPORT).tables == TABLES


def test_content_that_does_not_end_where_the_chunks_do_is_refused(tmp_path):
    whole = zlib.compress(json.dumps({"tables": TABLES}).encode())
    for payload in (whole[:-4], whole + b"trailing"):
        bad = tmp_path / "bad.core"
        core._seal(bad, payload, SCHEMA_VERSION, EXPORT)
        refused(bad, tmp_path, match="cannot be read")


def test_content_nested_thousands_deep_is_refused(tmp_path):
    bad = tmp_path / "deep.core"
    core._seal(bad, zlib.compress(b"[" * 100000 + b"]" * 100000), SCHEMA_VERSION, EXPORT)
    refused(bad, tmp_path, match="cannot be read")


@pytest.mark.parametrize("body", [{"tables": []}, {"tables": {"meta": []}}, [], {"tables": {"meta": {"columns": 1}}}])
def test_content_of_the_wrong_shape_is_refused(tmp_path, body):
    bad = tmp_path / "odd.core"
    core._seal(bad, zlib.compress(json.dumps(body).encode()), SCHEMA_VERSION, EXPORT)
    refused(bad, tmp_path, match="cannot be read")


@pytest.mark.parametrize("step", [1, 7, 258, 4096])
def test_content_inflated_a_small_step_at_a_time_is_whole(tmp_path, monkeypatch, step):
    """However the steps fall against the chunks and zlib's blocks, every byte comes out, once."""
    monkeypatch.setattr(core, "INFLATE_STEP", step)
    monkeypatch.setattr(core, "CHUNK", 997)
    rows = [[i, os.urandom(40).hex() if i % 3 else "tea " * (i % 50)] for i in range(400)]
    tables = {"messages": {"columns": ["id", "content"], "rows": rows}}
    path = tmp_path / "steps.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    assert core.read_core(path, EXPORT).tables == tables


@pytest.mark.parametrize(
    "meta, said",
    [
        ({"columns": ["value"], "rows": [["x"]]}, "not in the shape Anima writes"),
        ({"columns": ["k", "v"], "rows": [["name", "x"]]}, "does not fit"),
        ({"columns": {"key": 1}, "rows": []}, "cannot be read"),
    ],
)
def test_a_core_whose_settings_are_of_another_shape_is_refused_when_its_names_are_read(tmp_path, meta, said):
    """Importing into a new home reads the names in the core first (to judge the new passphrase against them):
    a meta of another shape is a damaged core, one line, not a traceback (columns it does not have are refused
    as the core is read, before the names)."""
    path = tmp_path / "odd.core"
    core.write_core(path, {"meta": meta}, SCHEMA_VERSION, EXPORT)
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore, match=said):
        target.import_core(path, EXPORT, "new machine passphrase", judge_new=lambda names: None)
    assert not target.exists()


# ---- the content's names and values (made with the known passphrase: every check before them passes) -------------

MESSAGE = {
    "columns": ["id", "session", "role", "speaker", "content", "created_at"],
    "rows": [[1, "s", "user", "", "hello", "2026-01-01"]],
}


def crafted(tmp_path, tables, schema_version=SCHEMA_VERSION):
    """A core whose content is `tables` as JSON with every non-ASCII character escaped (so a lone surrogate, which
    no UTF-8 holds, is written as JSON's "\\ud800" and read back as one)."""
    path = tmp_path / "crafted.core"
    content = json.dumps({"tables": tables}, ensure_ascii=True, allow_nan=True).encode("ascii")
    core._seal(path, zlib.compress(content), schema_version, EXPORT)
    return path


KEEP = object()


def message_with(column=KEEP, value=KEEP):
    """A meta and one message, its last column renamed `column`, its id replaced by `value`."""
    row = list(MESSAGE["rows"][0])
    columns = list(MESSAGE["columns"])
    if column is not KEEP:
        columns[-1] = column
    if value is not KEEP:
        row[0] = value
    return {
        "meta": {"columns": ["key", "value"], "rows": [["name", "Ada"]]},
        "messages": {"columns": columns, "rows": [row]},
    }


UNFIT = {
    "a row number past 2^63": message_with(value=2**63),
    "a row number below -2^63": message_with(value=-(2**63) - 1),
    "a number of 30 digits": message_with(value=10**30),
    "NaN": message_with(value=float("nan")),
    "true": message_with(value=True),
    "a list": message_with(value=[1, 2]),
    "an object that is not bytes": message_with(value={"a": 1}),
    "bytes with more": message_with(value={"$b64": "AA==", "more": 1}),
    "a lone surrogate": {"messages": {**MESSAGE, "rows": [[1, "s", "user", "", "\ud800", "2026"]]}},
    "a surrogate in a setting": {"meta": {"columns": ["key", "value"], "rows": [["name", "Ada\udfff"]]}},
    "a column that is a number": message_with(column=5),
    "a column that is null": message_with(column=None),
    "a column shaped as SQL": message_with(column="created_at) VALUES (1,2,3,4,5,6); DROP TABLE meta; --"),
    "a quoted column": message_with(column='"created_at"'),
    "a column it does not have": message_with(column="nope"),
    "a column twice": message_with(column="content"),
    "a table it does not have": {"sqlite_master": {"columns": ["name"], "rows": []}},
    "a table shaped as SQL": {"meta; DROP TABLE meta": {"columns": ["key"], "rows": []}},
    "rows with no columns": {"messages": {"columns": [], "rows": [[]]}},
    "a row too short": {"messages": {**MESSAGE, "rows": [[1, "s"]]}},
}


@pytest.mark.parametrize("case", UNFIT)
def test_content_with_a_name_or_a_value_no_soul_holds_is_refused_before_anything_is_made(tmp_path, case):
    """QA: a row number over 2^63 (OverflowError), a column name that is no string (TypeError), a lone surrogate
    (UnicodeEncodeError) were tracebacks, each leaving an empty home folder; column names reached the SQL as
    written. Now each is one sentence, and the home folder is never made."""
    path = crafted(tmp_path, UNFIT[case])
    unfit = "passed its checks but its content does not fit the soul's rules .*; nothing was imported"
    with pytest.raises(BadCore, match=unfit):
        core.read_core(path, EXPORT)  # as it is read: before any name or value reaches SQL
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore, match=unfit) as err:
        target.import_core(path, EXPORT, "new machine passphrase", judge_new=lambda names: None)
    said = str(err.value)
    assert "\n" not in said and len(said) < 400
    assert not target.dir.exists()


def test_a_column_newer_than_the_core_s_schema_is_refused(tmp_path):
    """Names are checked against the core's own schema version: world_cards.enabled came after schema 1."""
    tables = {"world_cards": {"columns": ["id", "enabled"], "rows": [[1, 1]]}}
    assert "enabled" in core.columns_at(SCHEMA_VERSION)["world_cards"]
    assert "enabled" not in core.columns_at(1).get("world_cards", ())
    refused(crafted(tmp_path, tables, schema_version=1), tmp_path, match="passed its checks but .* does not fit")


def test_every_value_sqlite_keeps_at_its_edges_imports(tmp_path):
    """Near misses: the largest and smallest 64-bit integers, infinity (a REAL), bytes, text with every kind of
    character but a lone surrogate, and NULL."""
    tables = {
        "meta": {"columns": ["key", "value"], "rows": [["name", "Ada 🌍 \u202e é \x00 end"]]},
        "messages": {
            **MESSAGE,
            "rows": [[2**63 - 1, "s", "user", "", "hi", "2026"], [-(2**63), "s", "user", "", "x" * 5, "2026"]],
        },
        "episodes": {
            "columns": ["id", "summary", "started_at", "ended_at", "significance", "created_at"],
            "rows": [[1, "a day", "2026", "2026", 0.25, "2026"]],
        },
        "blocks": {"columns": ["id", "name", "content", "updated_at"], "rows": [[1, "human", "text", "2026"]]},
    }
    path = tmp_path / "edges.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    got = core.read_core(path, EXPORT)
    assert got.tables == tables
    target = Home(tmp_path / "target")
    target.import_core(path, EXPORT, "new machine passphrase")
    with target.unlock("new machine passphrase") as soul:
        assert [r["id"] for r in soul.query("SELECT id FROM messages ORDER BY id")] == [-(2**63), 2**63 - 1]
        assert soul.get_meta("name") == "Ada 🌍 \u202e é \x00 end"


def test_restoring_translates_a_value_sqlite_cannot_take(tmp_path):
    """Home._restore, handed content read_core would refuse, still says so in one sentence (the backstop)."""
    for n, value in enumerate((2**64, "\ud800")):
        staging = tmp_path / f".soul.importing.{n}.db"
        row = [1, "s", "user", "", value, "2026"] if isinstance(value, str) else [value, "s", "user", "", "x", "2026"]
        with pytest.raises(BadCore, match="does not fit the soul's rules"):
            Home._restore(
                staging, keys.new_database_key(), SCHEMA_VERSION, [("messages", MESSAGE["columns"], [row])], "0" * 32
            )


def test_content_that_fits_the_names_but_breaks_a_rule_leaves_no_home_folder(tmp_path):
    """A message of a role no soul has passes read_core (the schema's CHECK refuses it as the soul is built): the
    home folder the import made goes again."""
    tables = {"messages": {**MESSAGE, "rows": [[1, "s", "nobody", "", "x", "2026"]]}}
    path = tmp_path / "rule.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    target = Home(tmp_path / "deeper" / "target")
    with pytest.raises(BadCore, match="does not fit the soul's rules"):
        target.import_core(path, EXPORT, "new machine passphrase")
    assert not target.dir.exists()
    # A folder that was there before the import stays.
    target.dir.mkdir()
    with pytest.raises(BadCore, match="does not fit the soul's rules"):
        target.import_core(path, EXPORT, "new machine passphrase")
    assert target.dir.is_dir() and list(target.dir.iterdir()) == []


@pytest.mark.slow  # runs `python -m anima`
def test_the_command_line_refuses_crafted_content_in_one_line_and_leaves_no_folder(tmp_path):
    import subprocess
    import sys

    path = crafted(tmp_path, UNFIT["a row number past 2^63"])
    env = {**os.environ, "ANIMA_PASSPHRASE": "new machine passphrase", "ANIMA_EXPORT_PASSPHRASE": EXPORT}
    r = subprocess.run(
        [sys.executable, "-m", "anima", "--home", str(tmp_path / "target"), "import", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not fit the soul's rules" in lines[0] and "nothing was imported" in lines[0]
    assert not (tmp_path / "target").exists()


# ---- what a refusal says ----------------------------------------------------------------------------------------


def test_a_refusal_says_what_is_wrong_in_words_not_pythons(small_core, tmp_path):
    """QA: a missing field was named bare ("its header cannot be read: 'schema_version'"); an over-long number gave
    Python's advice to call sys.set_int_max_str_digits(); a core breaking a rule of the store said "the old value is
    kept" inside nested brackets."""
    header, rest = split(small_core.read_bytes())
    h = json.loads(header)
    del h["schema_version"]
    missing = tmp_path / "missing.core"
    missing.write_bytes(with_header(json.dumps(h), rest))
    assert "schema_version is missing from it" in refused(missing, tmp_path)
    long = tmp_path / "long.core"
    long.write_bytes(with_kdf(small_core.read_bytes(), n="1" + "0" * 5000))
    said = refused(long, tmp_path)
    assert "thousands of digits long" in said and "set_int_max_str_digits" not in said
    twice = tmp_path / "twice.core"
    core.write_core(
        twice,
        {"meta": {"columns": ["key", "value"], "rows": [["name", "Ada"], ["name", "Bea"]]}},
        SCHEMA_VERSION,
        EXPORT,
    )
    said = refused(twice, tmp_path)
    assert "UNIQUE constraint failed: meta.key" in said and "old value" not in said and "((" not in said


@pytest.mark.parametrize(
    "tables",
    [
        {},
        {"meta": {"columns": ["key", "value"], "rows": []}},
        {"meta": {"columns": ["key", "value"], "rows": [["user_name", "Ada"]]}},
    ],
)
def test_a_core_that_opens_with_its_passphrase_but_holds_no_companion_is_refused(tmp_path, tables):
    path = tmp_path / "hollow.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    home = Home(tmp_path / "home")
    with pytest.raises(BadCore, match="holds no companion") as e:
        home.import_core(path, EXPORT, "a new passphrase")
    assert "Nothing was imported" in str(e.value)
    assert not home.exists() and not home.dir.exists()


@pytest.mark.parametrize("data", ["{}", "drop triggers", '{"name": ' + "[" * 998 + "]" * 998 + "}"])
def test_a_core_holding_a_part_of_another_shape_is_refused_and_one_that_fits_imports(tmp_path, data):
    """QA: a part whose data was `{}` passed every check of the import and of `anima check`; then `parts list`
    failed with KeyError: 'name' and every turn with KeyError: 'triggers' (parts/part_index.py)."""
    from anima.parts import packs
    from anima.parts.parts import Parts
    from anima.store.provenance import Provenance, Source

    source = Home(tmp_path / "source")
    with source.create("a passphrase of the source") as soul:
        soul.set_meta("name", "Ada")
        given = packs.read(packs.PACKS_DIR / "personal-assistant.json")["parts"][0]
        Parts(soul).create(given, "user", Provenance(Source.APP))
        good = tmp_path / "good.core"
        Home.export(soul, good, EXPORT)
        [part] = soul.query("SELECT id, data FROM parts")
        if data == "drop triggers":
            data = json.dumps({k: v for k, v in json.loads(part["data"]).items() if k != "triggers"})
        soul.update("part", part["id"], "user", data=data)
        bad = tmp_path / "bad.core"
        Home.export(soul, bad, EXPORT)
    home = Home(tmp_path / "home")
    # (Nested 999 deep: SQLite's json_valid takes it, Python's reader recursed past its limit: a review.)
    with pytest.raises(BadCore, match=rf"The core's part #{part['id']} (breaks its schema at /|is nested too deep)"):
        home.import_core(bad, EXPORT, "a new passphrase")
    assert not home.dir.exists()
    home.import_core(good, EXPORT, "a new passphrase")
    with home.unlock("a new passphrase") as soul:
        assert [p.data["name"] for p in Parts(soul).all()] == [given["name"]]


def test_a_core_whose_settings_are_not_whole_numbers_opens_with_the_defaults_and_says_so(tmp_path, caplog):
    """QA: "often" as how often to reflect imported, then every command failed with ValueError: invalid literal for
    int(). A setting or a mark that is not a whole number is read as its default, and the log says which."""
    from anima.companion import EVERY, Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.reflect.quick import READ_THROUGH
    from tests.reflect.test_quick import answer

    source = Home(tmp_path / "source")
    with source.create("a passphrase of the source") as soul:
        soul.set_meta("name", "Ada")
        soul.set_meta(EVERY, "often")
        soul.set_meta(READ_THROUGH, "the start")
        Home.export(soul, tmp_path / "odd.core", EXPORT)
    home = Home(tmp_path / "home")
    home.import_core(tmp_path / "odd.core", EXPORT, "a new passphrase")
    c = Companion.unlock(home, "a new passphrase", FakeChatModel(), FakeEmbedder())
    failed = []
    c.on_background_failure(failed.append)
    c.learns = False
    try:
        c.indexer_thread.join()
        assert c.reflector.every == 1
        c.chat.enqueue("Hello Ada.", answer("Ada said hi; I want to hear how her day went."))
        assert c.turn("Hi, my day was long").read() == "Hello Ada."
        c.settle()
        assert failed == [] and len([call for call in c.chat.history if call["schema"] is not None]) == 1  # reflected
    finally:
        c.close()
    assert f"the soul's {EVERY} is not a whole number; 1 is used instead" in caplog.text
    assert f"the soul's {READ_THROUGH} is not a whole number; 0 is used instead" in caplog.text
