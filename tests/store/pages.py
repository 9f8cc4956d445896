"""Every page of a soul file, decrypted: what a thief with the key would see, free pages included.

SQLCipher 4 with a raw key: each 4,096-byte page is AES-256-CBC under the key itself, with the page's IV in
the 80 reserved bytes at its end (16 of IV, 64 of HMAC); page 1 begins with the 16-byte salt in the clear.
Reading the pages ourselves (not through SQLite) sees what SQLite no longer shows: deleted rows left in free
pages and free space inside pages, and old FTS segments.
"""

from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PAGE = 4096
RESERVE = 80
SALT = 16


def decrypted_pages(path: Path, key: bytes) -> bytes:
    data = Path(path).read_bytes()
    out = []
    for n in range(len(data) // PAGE):
        page = data[n * PAGE:(n + 1) * PAGE]
        start = SALT if n == 0 else 0
        iv = page[PAGE - RESERVE:PAGE - RESERVE + 16]
        d = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
        out.append(d.update(page[start:PAGE - RESERVE]) + d.finalize())
    return b"".join(out)


def holds(path: Path, key: bytes, text: str) -> bool:
    """Whether `text` is anywhere in the file's decrypted pages (as UTF-8, either case of its first letter)."""
    plain = decrypted_pages(path, key)
    return any(t.encode() in plain for t in {text, text.lower(), text.upper(), text[:1].upper() + text[1:]})
