"""Hostile key files: each is refused on unlock with a clear DamagedSoul, quickly, and changes nothing in the home."""

import hashlib
import json
import os
import subprocess
import sys

import pytest

from anima.errors import DamagedSoul
from anima.store import Home, keys
from tests.conftest import PASSPHRASE
from tests.store.test_core_hostile import HOSTILE_KDF


def digests(home_dir):
    """Each file's digest; a huge (sparse) one's size and time, not to read it here either."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        if p.stat().st_size < 1 << 20
        else (p.stat().st_size, p.stat().st_mtime_ns)
        for p in home_dir.iterdir()
        if p.is_file()
    }


@pytest.fixture
def home(anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    return home


def set_kdf(home, **raw: str):
    """Replace kdf numbers in the key file by raw JSON text (9e999 is no number json.dumps writes)."""
    d = json.loads(home.key_path.read_text())
    for name in raw:
        d["kdf"][name] = f"@{name}@"
    text = json.dumps(d)
    for name, value in raw.items():
        text = text.replace(f'"@{name}@"', value)
    home.key_path.write_text(text)


def refused(home, match="key file"):
    before = digests(home.dir) if home.dir.is_dir() else None
    with pytest.raises(DamagedSoul, match=match) as err:
        home.unlock(PASSPHRASE)
    assert "\n" not in str(err.value) and len(str(err.value)) < 400
    if before is not None:
        assert digests(home.dir) == before
    return str(err.value)


@pytest.mark.parametrize("kdf", HOSTILE_KDF)
def test_a_key_file_whose_kdf_numbers_scrypt_would_refuse_is_refused_before_any_work(home, kdf, monkeypatch):
    set_kdf(home, **kdf)
    derived = []
    monkeypatch.setattr(keys.hashlib, "scrypt", lambda *a, **kw: derived.append(kw) or b"\0" * 32)
    refused(home)
    assert derived == []  # refused from the header's numbers: no key was derived with them


def test_a_cost_the_bounds_miss_is_still_refused_by_the_derivation(home, monkeypatch):
    """A backstop: were the bounds to let through a cost OpenSSL refuses, unlocking says the key file is damaged."""
    monkeypatch.setattr(keys.Cost, "bounded", lambda self: self)
    set_kdf(home, n=str(2**16), r="1")
    assert "cannot be computed" in refused(home)
    with pytest.raises(keys.UnusableCost):
        keys.derive(PASSPHRASE, b"salt", keys.Cost(2**20, 1, 1))


@pytest.mark.parametrize(
    "cost",
    [
        keys.Cost(2**16, 1, 1),
        keys.Cost(2**20, 1, 1),
        keys.Cost(2**14, 8, True),
        keys.Cost(16384.0, 8, 1),
        keys.Cost(float("inf"), 8, 1),
        keys.Cost(2**64, 8, 1),
    ],
)
def test_the_bounds_refuse_what_scrypt_refuses_and_what_is_no_whole_number(cost):
    with pytest.raises(ValueError):
        cost.bounded()


def test_the_bounds_admit_costs_scrypt_computes():
    """The edge the bounds draw for r=1 (N below 2^16) is one OpenSSL computes."""
    for cost in (keys.Cost(2**15, 1, 1), keys.Cost(2**4, 1, 16), keys.Cost(2**10, 32, 1)):
        assert cost.bounded() is cost
        assert len(keys.derive(PASSPHRASE, b"salt", cost)) == 32


@pytest.mark.parametrize(
    "field, value", [("nonce", ""), ("nonce", "AAAA"), ("wrapped", "AAAA"), ("nonce", "5"), ("salt", "5")]
)
def test_a_key_file_with_parts_of_the_wrong_size_or_kind_is_refused(home, field, value):
    d = json.loads(home.key_path.read_text())
    (d["kdf"] if field == "salt" else d)[field] = json.loads(value) if value.isdigit() else value
    home.key_path.write_text(json.dumps(d))
    refused(home)


def test_a_key_file_nested_thousands_deep_is_refused(home):
    home.key_path.write_text("[" * 60000 + "]" * 60000)
    refused(home)


def test_a_huge_key_file_is_refused_without_reading_it_whole(home):
    with open(home.key_path, "r+b") as f:
        f.truncate(600 << 20)  # sparse: no disk taken
    refused(home, match="far too large")


@pytest.mark.timeout(20)
def test_a_fifo_or_a_folder_in_place_of_the_key_file_is_refused_without_waiting(home):
    home.key_path.unlink()
    os.mkfifo(home.key_path)
    assert "a device or a pipe" in refused(home)
    home.key_path.unlink()
    home.key_path.mkdir()
    assert "a folder" in refused(home)


@pytest.mark.slow  # runs `python -m anima`
def test_the_command_line_says_one_line_and_exits_2(home):
    set_kdf(home, n="9e999")
    env = {**os.environ, "ANIMA_PASSPHRASE": PASSPHRASE}
    run = subprocess.run(
        [sys.executable, "-m", "anima", "--home", str(home.dir), "check"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "key file" in run.stderr


@pytest.mark.parametrize(
    "companion_id", ["caf\u00e9", 5, None, "", "0" * 31, "0" * 33, "A" * 32, "g" * 32, "0" * 31 + "\n", ["0" * 32]]
)
def test_a_key_file_whose_companion_id_is_not_one_anima_writes_is_refused(home, companion_id):
    """QA: "café" was a traceback (UnicodeEncodeError in the wrap's associated data, at unlock)."""
    d = json.loads(home.key_path.read_text())
    d["companion_id"] = companion_id
    home.key_path.write_text(json.dumps(d))
    assert "companion id is not one Anima writes" in refused(home, match="is damaged")


def test_the_companion_id_anima_writes_is_the_form_it_reads():
    assert keys.COMPANION_ID.fullmatch(keys.KeyFile.wrap(keys.new_database_key(), PASSPHRASE).companion_id)


# ---- a passphrase that is not text ----------------------------------------------------------------------------

# What Python makes of `ANIMA_PASSPHRASE=$'plum orbit \xff\xfe lantern'`: the bytes as surrogate escapes.
NOT_TEXT = "plum orbit \udcff\udcfe lantern"


def test_a_passphrase_that_is_not_text_is_said_to_be_so_and_no_file_is_blamed(home, tmp_path):
    """QA: it was UnusableCost ("scrypt ... cannot be computed") at a wrap, and a "damaged" key file or core at an
    unwrap: the passphrase's bytes were encoded inside the try that blames the file's cost."""
    from anima.errors import PassphraseNotText, WrongPassphrase

    before = digests(home.dir)
    with pytest.raises(PassphraseNotText) as err:
        home.unlock(NOT_TEXT)
    said = str(err.value)
    assert "not text" in said and "damaged" not in said and "\n" not in said and err.value.exit_status == 2
    assert isinstance(err.value, WrongPassphrase)  # whatever asks again after a wrong passphrase asks again
    with pytest.raises(PassphraseNotText):
        keys.KeyFile.wrap(keys.new_database_key(), NOT_TEXT)
    with pytest.raises(PassphraseNotText):
        home.change_passphrase(PASSPHRASE, NOT_TEXT)
    assert digests(home.dir) == before
    with home.unlock(PASSPHRASE) as soul:
        with pytest.raises(PassphraseNotText):
            Home.export(soul, tmp_path / "soul.core", NOT_TEXT)
        Home.export(soul, tmp_path / "soul.core", "an export passphrase")
    assert not list(tmp_path.glob("soul.core.*"))
    target = Home(tmp_path / "target")
    with pytest.raises(PassphraseNotText):
        target.import_core(tmp_path / "soul.core", NOT_TEXT, "new machine passphrase")
    with pytest.raises(PassphraseNotText):
        target.import_core(tmp_path / "soul.core", "an export passphrase", NOT_TEXT)
    assert not target.dir.exists()
