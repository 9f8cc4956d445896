"""Small files with a valid GGUF header, for tests that must not load a real model."""

import struct


def fake_gguf(size: int = 4096, seed: int = 1) -> bytes:
    """`size` bytes: a GGUF v3 header with one tensor and one metadata entry (general.architecture = llama),
    then filler. llama.cpp could not run it; everything that checks a header accepts it."""
    key, value = b"general.architecture", b"llama"
    head = (
        b"GGUF"
        + struct.pack("<IQQ", 3, 1, 1)
        + struct.pack("<Q", len(key))
        + key
        + struct.pack("<I", 8)
        + struct.pack("<Q", len(value))
        + value
    )
    filler = bytes((i * 31 + seed) % 251 for i in range(max(0, size - len(head))))
    return head + filler
