"""The soul's database key, and the passphrase that unlocks it.

The database is encrypted with a random 256-bit key. That key is kept in a
small key file beside the database, wrapped (AES-256-GCM) under a key derived
from the user's passphrase with scrypt. So:

* a wrong passphrase fails the GCM tag and never touches the database file;
* changing the passphrase rewrites only the key file, by write-new, fsync,
  atomic rename: after a crash either the old or the new file is in place, so
  either the old or the new passphrase opens the soul.
"""

import base64
import hashlib
import json
import os
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from ..errors import DamagedSoul, WrongPassphrase

FORMAT = "anima-key"
VERSION = 1
KEY_BYTES = 32
# scrypt cost: about 0.1 s and 16 MiB on a laptop; slow enough to hurt guessing.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


def new_database_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def derive(passphrase: str, salt: bytes, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> bytes:
    if not passphrase:
        raise WrongPassphrase("an empty passphrase")
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))


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
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @classmethod
    def wrap(cls, database_key: bytes, passphrase: str, companion_id: str | None = None) -> "KeyFile":
        salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
        cid = companion_id or uuid.uuid4().hex
        wrapped = AESGCM(derive(passphrase, salt)).encrypt(nonce, database_key, _aad(cid))
        return cls(cid, salt, nonce, wrapped, key_check(database_key))

    def unwrap(self, passphrase: str) -> bytes:
        kek = derive(passphrase, self.salt, self.n, self.r, self.p)
        try:
            return AESGCM(kek).decrypt(self.nonce, self.wrapped, _aad(self.companion_id))
        except InvalidTag:
            raise WrongPassphrase() from None

    def to_bytes(self) -> bytes:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "companion_id": self.companion_id,
            "kdf": {"name": "scrypt", "n": self.n, "r": self.r, "p": self.p, "salt": _b64(self.salt)},
            "nonce": _b64(self.nonce), "wrapped": _b64(self.wrapped), "key_check": self.key_check,
        }, indent=1).encode("ascii")

    @classmethod
    def read(cls, path: Path) -> "KeyFile":
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise DamagedSoul(f"The key file {path} is missing, so the soul beside it cannot be opened.") from None
        try:
            d = json.loads(raw)
            if d.get("format") != FORMAT:
                raise ValueError("not an Anima key file")
            if d.get("version") != VERSION:
                raise ValueError(f"key file version {d.get('version')} is not supported")
            k = d["kdf"]
            return cls(str(d["companion_id"]), _unb64(k["salt"]), _unb64(d["nonce"]), _unb64(d["wrapped"]),
                       str(d["key_check"]), int(k["n"]), int(k["r"]), int(k["p"]))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
            raise DamagedSoul(f"The key file {path} is damaged ({e}).") from None

    def write(self, path: Path) -> None:
        write_atomically(path, self.to_bytes())


def key_check(database_key: bytes) -> str:
    """A one-way tag of the key, so a key recalled from the keychain is known good before use."""
    return hashlib.sha256(b"anima-key-check\x00" + database_key).hexdigest()[:32]


def _aad(companion_id: str) -> bytes:
    return f"{FORMAT}/{VERSION}/{companion_id}".encode("ascii")


def write_atomically(path: Path, data: bytes) -> None:
    """Write-new, fsync, rename, fsync the directory: the old or the new content survives a crash."""
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
