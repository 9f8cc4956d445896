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
    (length,) = struct.unpack(">I", data[len(core.MAGIC):start])
    return data[start:start + length].decode("ascii"), data[start + length:]


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
def test_a_core_whose_kdf_numbers_scrypt_would_refuse_is_refused_before_any_work(small_core, tmp_path, kdf,
                                                                                  monkeypatch):
    bad = tmp_path / "bad.core"
    bad.write_bytes(with_kdf(small_core.read_bytes(), **kdf))
    derived = []
    monkeypatch.setattr(keys.hashlib, "scrypt", lambda *a, **kw: derived.append(kw) or b"\0" * 32)
    said = refused(bad, tmp_path, match="is damaged")
    assert derived == []  # refused from the header's numbers: no key was derived with them
    assert len(said) < 400  # no number thousands of digits long


@pytest.mark.parametrize("field, value", [("schema_version", "9e999"), ("schema_version", "-Infinity"),
                                          ("schema_version", "NaN"), ("schema_version", "0"),
                                          ("format_version", "1e300"), ("format_version", "true")])
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
    core._seal(bad, bomb(256 << 20), SCHEMA_VERSION, EXPORT, None)
    size = bad.stat().st_size
    assert size < 1 << 20
    peak = peak_while(lambda: refused(bad, tmp_path, match="inflates past"))
    assert peak < core.content_limit(size) * 1.2 + (4 << 20)  # the content (grown by an eighth at a time), a step


def test_content_within_the_bound_but_past_the_ratio_imports(tmp_path):
    """The floor: a small soul may compress as well as it will."""
    path = tmp_path / "small.core"
    core._seal(path, bomb(8 << 20), SCHEMA_VERSION, EXPORT, None)
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
        core._seal(bad, payload, SCHEMA_VERSION, EXPORT, None)
        refused(bad, tmp_path, match="cannot be read")


def test_content_nested_thousands_deep_is_refused(tmp_path):
    bad = tmp_path / "deep.core"
    core._seal(bad, zlib.compress(b"[" * 100000 + b"]" * 100000), SCHEMA_VERSION, EXPORT, None)
    refused(bad, tmp_path, match="cannot be read")


@pytest.mark.parametrize("body", [{"tables": []}, {"tables": {"meta": []}}, [], {"tables": {"meta": {"columns": 1}}}])
def test_content_of_the_wrong_shape_is_refused(tmp_path, body):
    bad = tmp_path / "odd.core"
    core._seal(bad, zlib.compress(json.dumps(body).encode()), SCHEMA_VERSION, EXPORT, None)
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


@pytest.mark.parametrize("meta", [{"columns": ["k", "v"], "rows": [["name", "x"]]},
                                  {"columns": {"key": 1}, "rows": []}])
def test_a_core_whose_settings_are_of_another_shape_is_refused_when_its_names_are_read(tmp_path, meta):
    """Importing into a new home reads the names in the core first (to judge the new passphrase against them):
    a meta of another shape is a damaged core, one line, not a traceback."""
    path = tmp_path / "odd.core"
    core.write_core(path, {"meta": meta}, SCHEMA_VERSION, EXPORT)
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore, match="not in the shape Anima writes"):
        target.import_core(path, EXPORT, "new machine passphrase", judge_new=lambda names: None)
    assert not target.exists()
