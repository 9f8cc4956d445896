"""The soul's database key, and the passphrase that unlocks it.

The database is encrypted with a random 256-bit key. That key is kept in a
small key file beside the database, wrapped (AES-256-GCM) under a key derived
from the user's passphrase with scrypt. So:

* a wrong passphrase fails the GCM tag and never touches the database file;
* changing the passphrase rewrites only the key file, by write-new, fsync,
  atomic rename: after a crash either the old or the new file is in place, so
  either the old or the new passphrase opens the soul.

The scrypt cost is written beside what it wrapped (the key file, the portable
core's header), so a file wrapped at an older, cheaper cost still opens; the
home re-wraps a key file at today's cost when its passphrase next unlocks it.
A cost read from a file is bounded before any work is done on it, so a file
cannot make Anima spend unbounded memory or time: its numbers must be plain
whole numbers, within Anima's bounds, and ones scrypt itself accepts.
The key file is read and written as anima/files.py reads and writes what a
person or another program may have put in place.
"""

import base64
import hashlib
import json
import os
import re
import secrets
import unicodedata
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .. import files
from ..errors import DamagedSoul, PassphraseNotText, WeakPassphrase, WrongPassphrase
from . import strength

FORMAT = "anima-key"
VERSION = 1
KEY_BYTES = 32
NONCE_BYTES = 12
# A companion's id, as KeyFile.wrap makes it (uuid4().hex) and every version has: 32 lowercase hex digits.
COMPANION_ID = re.compile("[0-9a-f]{32}")


def new_companion_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Cost:
    """scrypt's parameters: N (work and memory), r (block size), p (parallelism)."""

    n: int
    r: int = 8
    p: int = 1

    @property
    def memory(self) -> int:
        """Bytes scrypt allocates: its V array (128 r N) and its B blocks (128 r p), plus a little."""
        return 128 * self.r * (self.n + self.p + 2)

    @property
    def work(self) -> int:
        return 128 * self.n * self.r * self.p

    def weaker_than(self, other: "Cost") -> bool:
        return self.n * self.r < other.n * other.r or self.work < other.work

    @classmethod
    def read(cls, kdf: dict[str, Any]) -> "Cost":
        """The bounded cost a file's "kdf" entry names; ValueError (the file is not to be trusted) otherwise."""
        if kdf.get("name") != "scrypt":
            raise ValueError(f"key derivation {kdf.get('name')!r} is not supported")
        return cls(kdf["n"], kdf["r"], kdf["p"]).bounded()

    def bounded(self) -> "Cost":
        """This cost, if it is one Anima will pay to open a file and scrypt will compute; else ValueError."""
        # JSON reads 1e300 and 9e999 as floats (the latter infinite) and true as a bool: only ints are numbers here,
        # and only small ones, so no message below shows a number thousands of digits long.
        if any(type(v) is not int for v in (self.n, self.r, self.p)):
            raise ValueError("scrypt's N, r and p are not all whole numbers")
        if not all(0 < v < 2**32 for v in (self.n, self.r, self.p)):
            raise ValueError("scrypt's N, r and p are not all within range")
        if self.n < 2 or self.n & (self.n - 1):
            raise ValueError(f"scrypt N={self.n} is not a power of two")
        if not (1 <= self.r <= 32 and 1 <= self.p <= 16):
            raise ValueError(f"scrypt r={self.r}, p={self.p} are out of range")
        # scrypt (RFC 7914) requires N < 2^(128 r / 8); OpenSSL refuses anything else, so no scrypt wrote it.
        if self.n >= 1 << (16 * self.r):
            raise ValueError(f"{self} is not a cost scrypt computes (N must be below 2^{16 * self.r})")
        if self.memory > MAX_MEMORY or self.work > MAX_WORK:
            raise ValueError(f"{self} asks for more memory or time than Anima spends on a key")
        return self

    def __str__(self) -> str:
        return f"scrypt N=2^{self.n.bit_length() - 1} r={self.r} p={self.p}"


# OWASP's floor for scrypt (its password storage cheat sheet): N=2^17, r=8, p=1. That is 128 MiB
# and about 0.55 s on a two-core laptop (measured: 0.52 s, against 0.05 s at the old 2^14).
DEFAULT_COST = Cost(2**17, 8, 1)
# What earlier versions wrote; such files still open, and are re-wrapped at DEFAULT_COST.
LEGACY_COST = Cost(2**14, 8, 1)
# The most a file may ask for: age's 2^18 (256 MiB) with room for p up to 4 (about 4 s).
MAX_MEMORY = 128 * 8 * (2**18 + 64)
MAX_WORK = 4 * 128 * 8 * 2**18

# Tests only: set to 1 to wrap with a trivial cost, so hundreds of test souls are quick to make.
# Nothing Anima ships sets it; a key wrapped so is as weak as its passphrase.
INSECURE_TEST_COST_ENV = "ANIMA_INSECURE_TEST_KDF"
_INSECURE_TEST_COST = Cost(2**4, 8, 1)


def wrap_cost() -> Cost:
    """The cost of every new wrap: the key file, the portable core."""
    if os.environ.get(INSECURE_TEST_COST_ENV) == "1":
        return _INSECURE_TEST_COST
    return DEFAULT_COST


# The one rule for a passphrase a person chooses (the companion's, a new one, an export's); the window and
# the command line both ask it. A copied file can be attacked offline: length is what guessing pays for.
MIN_PASSPHRASE_CHARS = 8


def passphrase_problem(passphrase: str, what: str = "a passphrase", known: tuple[str, ...] = ()) -> str | None:
    """Why a newly chosen passphrase is refused, in words for people; None when it is accepted. `known`: words
    a thief would try first (the companion's name, the person's).

    Only text: bytes that are not UTF-8 cannot be derived from (as_text). No control characters (a tab, a line
    break, an escape): a terminal ends the line at a line break, the window's field moves on at a tab, so a
    passphrase set from a script with one may not be typed where it is next asked for. Length and strength are
    of the passphrase as it reads (strength.as_read: what shows nothing does not count)."""
    try:
        as_text(passphrase)
    except PassphraseNotText:
        return f"Choose {what} of text: this one holds bytes that are not text (it is not valid UTF-8)."
    if any(unicodedata.category(c) == "Cc" for c in passphrase):
        return (
            f"Choose {what} without control characters (a tab, a line break): the window and a terminal "
            "cannot both type them."
        )
    if len(strength.as_read(passphrase)) < MIN_PASSPHRASE_CHARS:
        unseen = " (characters that show nothing do not count)" if len(passphrase) >= MIN_PASSPHRASE_CHARS else ""
        return f"Choose {what} of at least {MIN_PASSPHRASE_CHARS} characters{unseen}."
    found = strength.estimate(passphrase, known)
    if not found.accepted:
        return f"Choose {what} that is harder to guess. {found}"
    return None


def check_new_passphrase(passphrase: str, what: str = "a passphrase", known: tuple[str, ...] = ()) -> str:
    """The passphrase, when it keeps the rule; WeakPassphrase otherwise."""
    problem = passphrase_problem(passphrase, what, known)
    if problem:
        raise WeakPassphrase(problem)
    return passphrase


def new_database_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def as_text(passphrase: str) -> bytes:
    """The passphrase as the UTF-8 bytes scrypt takes; PassphraseNotText when it holds bytes that are not text
    (os.environ and getpass give those as lone surrogates)."""
    try:
        return passphrase.encode("utf-8")
    except UnicodeEncodeError:
        raise PassphraseNotText() from None


class UnusableCost(ValueError):
    """scrypt refused a cost: the file that named it is damaged or foreign (its reader says which file)."""


def derive(passphrase: str, salt: bytes, cost: Cost) -> bytes:
    if not passphrase:
        raise WrongPassphrase("an empty passphrase")
    # Outside the try below: a passphrase that is not text is the passphrase's fault, never the cost's (the file's).
    secret = as_text(passphrase)
    try:
        # OpenSSL refuses anything over 32 MiB unless told: allow exactly what this cost needs.
        return hashlib.scrypt(secret, salt=salt, n=cost.n, r=cost.r, p=cost.p, maxmem=cost.memory + (1 << 16), dklen=32)
    except (ValueError, OverflowError) as e:
        # A backstop: Cost.bounded() refuses what OpenSSL refuses, so only a cost it misses gets here.
        raise UnusableCost(f"{cost} cannot be computed ({e})") from None


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def _unb64(s: str) -> bytes:
    return base64.b64decode(s.encode("ascii"), validate=True)


@dataclass(frozen=True)
class KeyFile:
    companion_id: str
    salt: bytes
    nonce: bytes
    wrapped: bytes
    key_check: str = ""
    cost: Cost = field(default_factory=wrap_cost)

    @classmethod
    def wrap(
        cls, database_key: bytes, passphrase: str, companion_id: str | None = None, cost: Cost | None = None
    ) -> "KeyFile":
        salt, nonce, cost = secrets.token_bytes(16), secrets.token_bytes(NONCE_BYTES), cost or wrap_cost()
        cid = companion_id or new_companion_id()
        wrapped = AESGCM(derive(passphrase, salt, cost)).encrypt(nonce, database_key, _aad(cid))
        return cls(cid, salt, nonce, wrapped, key_check(database_key), cost)

    def outdated(self) -> bool:
        """Whether this file was wrapped more cheaply than new files are (re-wrap it once the passphrase is known)."""
        return self.cost.weaker_than(wrap_cost())

    def unwrap(self, passphrase: str) -> bytes:
        try:
            kek = derive(passphrase, self.salt, self.cost)
        except UnusableCost as e:
            raise DamagedSoul(f"The key file of companion {self.companion_id} is damaged ({e}).") from None
        try:
            return AESGCM(kek).decrypt(self.nonce, self.wrapped, _aad(self.companion_id))
        except InvalidTag:
            raise WrongPassphrase() from None

    def to_bytes(self) -> bytes:
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "companion_id": self.companion_id,
                "kdf": {
                    "name": "scrypt",
                    "n": self.cost.n,
                    "r": self.cost.r,
                    "p": self.cost.p,
                    "salt": _b64(self.salt),
                },
                "nonce": _b64(self.nonce),
                "wrapped": _b64(self.wrapped),
                "key_check": self.key_check,
            },
            indent=1,
        ).encode("ascii")

    @classmethod
    def read(cls, path: Path) -> "KeyFile":
        raw = _read_key_file(path)
        try:
            d = json.loads(raw)
            if d.get("format") != FORMAT:
                raise ValueError("not an Anima key file")
            if d.get("version") != VERSION:
                raise ValueError(f"key file version {d.get('version')} is not supported")
            cost = Cost.read(d["kdf"])
            # It names the companion in the keychain and in the wrap's associated data: only the form wrap() writes.
            if type(d["companion_id"]) is not str or not COMPANION_ID.fullmatch(d["companion_id"]):
                raise ValueError("its companion id is not one Anima writes")
            found = cls(
                d["companion_id"],
                _unb64(d["kdf"]["salt"]),
                _unb64(d["nonce"]),
                _unb64(d["wrapped"]),
                str(d["key_check"]),
                cost,
            )
            # AES-GCM refuses a nonce of another size with a ValueError: found here, it is a damaged file.
            if len(found.nonce) != NONCE_BYTES or len(found.wrapped) != KEY_BYTES + 16:
                raise ValueError("its wrapped key is not the size a key file holds")
            return found
        # RecursionError: JSON nested thousands deep.
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
            raise DamagedSoul(f"The key file {path} is damaged ({e}).") from None

    def write(self, path: Path) -> None:
        files.write_atomically(path, self.to_bytes())


# A key file is about 360 bytes; one far larger is not a key file, and is not read whole to find that out.
MAX_KEY_FILE = 64 * 1024


def _read_key_file(path: Path) -> bytes:
    try:
        with files.open_regular(path) as f:
            raw = f.read(MAX_KEY_FILE + 1)
    except FileNotFoundError:
        raise DamagedSoul(f"The key file {path} is missing, so the soul beside it cannot be opened.") from None
    except files.NotRegularFile as e:
        raise DamagedSoul(f"The key file {path} is {e}, not a file, so the soul beside it cannot be opened.") from None
    except OSError as e:
        raise DamagedSoul(f"The key file {path} cannot be read ({e.strerror or e}).") from None
    if len(raw) > MAX_KEY_FILE:
        raise DamagedSoul(f"The key file {path} is damaged (it is far too large to be a key file).")
    return raw


def key_check(database_key: bytes) -> str:
    """A one-way tag of the key, so a key recalled from the keychain is known good before use."""
    return hashlib.sha256(b"anima-key-check\x00" + database_key).hexdigest()[:32]


def _aad(companion_id: str) -> bytes:
    return f"{FORMAT}/{VERSION}/{companion_id}".encode("ascii")
