"""Whether a file is a GGUF model, from its header, before llama.cpp is given it.

A GGUF file opens with the magic `GGUF`, a version (2 or 3: llama.cpp reads no other), the number of tensors and
of metadata entries (64-bit), then the first entry's key as a length and UTF-8 text. A download cut short, an
HTML error page saved under a model's name, or another kind of file fails here with one clear sentence.
"""

import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from .chat import ModelError

MAGIC = b"GGUF"
VERSIONS = (2, 3)
_MOST = 1 << 20  # more tensors or metadata entries than any model has: a damaged header
HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 256


@dataclass(frozen=True)
class Header:
    version: int
    tensors: int
    entries: int
    first_key: str


def read_header(path: str | Path) -> Header:
    path = Path(path).expanduser()
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ModelError(f"There is no model file at {path}.") from None
    # Looked at before it is opened: opening a pipe waits for a writer, forever.
    if stat.S_ISDIR(mode):
        raise ModelError(f"{path} is a folder; choose a .gguf model file.")
    if not stat.S_ISREG(mode):
        raise ModelError(f"{path} is not a regular file (a pipe or a device, say); choose a .gguf model file.")
    with open(path, "rb") as f:
        head = f.read(HEADER_BYTES)
    return parse_header(head, str(path))


def parse_header(head: bytes, where: str) -> Header:
    if head[:4] != MAGIC:
        raise ModelError(f"{where} is not a GGUF model file.")
    if len(head) < 32:
        raise ModelError(f"{where} ends inside its GGUF header: it is cut short or damaged.")
    version, tensors, entries, key_length = struct.unpack_from("<IQQQ", head, 4)
    if version not in VERSIONS:
        raise ModelError(f"{where} is GGUF version {version}; llama.cpp reads versions 2 and 3.")
    if tensors == 0 or tensors > _MOST or entries == 0 or entries > _MOST or not 0 < key_length <= 256:
        raise ModelError(f"{where} has a damaged GGUF header.")
    key = head[32 : 32 + key_length]
    try:
        if len(key) < key_length:
            raise ValueError
        first_key = key.decode("utf-8")
    except ValueError:
        raise ModelError(f"{where} has a damaged GGUF header.") from None
    return Header(version, tensors, entries, first_key)
