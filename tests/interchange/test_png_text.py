"""PNG text chunks with the standard library: every kind read, a damaged or cut file refused, tEXt written."""

import struct
import zlib

import pytest

from anima.interchange import png_text

PICTURE = png_text.plain(2, 2, (1, 2, 3))


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_text_ztext_and_itext_are_read():
    chunks = png_text.chunks(PICTURE)
    extra = (
        chunk(b"zTXt", b"z\x00\x00" + zlib.compress(b"squeezed"))
        + chunk(b"iTXt", b"i\x00\x01\x00en\x00\x00" + zlib.compress("ünï".encode()))
        + chunk(b"tEXt", b"t\x00plain")
    )
    data = png_text.SIGNATURE + b"".join(chunk(k, b) for k, b in chunks[:-1]) + extra + chunk(b"IEND", b"")
    assert png_text.read_texts(data) == {"z": "squeezed", "i": "ünï", "t": "plain"}


def test_written_text_replaces_its_keyword_and_iend_stays_last():
    once = png_text.with_texts(PICTURE, {"chara": "b25l"})
    twice = png_text.with_texts(once, {"chara": "dHdv"})
    assert png_text.read_texts(twice) == {"chara": "dHdv"}
    assert png_text.chunks(twice)[-1][0] == b"IEND"
    assert png_text.picture(twice) == PICTURE


@pytest.mark.parametrize("damage", ["cut", "crc", "not png"])
def test_a_damaged_or_cut_file_is_refused(damage):
    data = png_text.with_texts(PICTURE, {"chara": "b25l"})
    if damage == "cut":
        data = data[:-5]
    elif damage == "crc":
        i = data.index(b"b25l")
        data = data[:i] + b"X" + data[i + 1 :]
    else:
        data = b"GIF89a" + data[6:]
    with pytest.raises(png_text.NotPNG):
        png_text.read_texts(data)
