"""What reading a PNG's text may cost is bounded whatever the file: compressed chunks inflate to at most a total
for the whole file (not so much per chunk), and a reader that names its keywords never inflates any other."""

import struct
import tracemalloc
import zlib

import pytest

from anima.interchange import png_text

PICTURE = png_text.plain(2, 2, (1, 2, 3))


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def with_chunks(*extra: bytes) -> bytes:
    head = png_text.chunks(PICTURE)[:-1]
    return png_text.SIGNATURE + b"".join(chunk(k, b) for k, b in head) + b"".join(extra) + chunk(b"IEND", b"")


def ztxt(keyword: bytes, text: bytes) -> bytes:
    return chunk(b"zTXt", keyword + b"\x00\x00" + zlib.compress(text, 9))


def test_many_chunks_that_each_inflate_under_the_limit_are_refused_together():
    # Each chunk alone inflates to under the limit; together they are over it.
    data = with_chunks(*(ztxt(f"k{i}".encode(), b"A" * (1 << 20)) for i in range(5)))
    assert png_text.read_texts(data, most=5 << 20)["k4"] == "A" * (1 << 20)
    with pytest.raises(png_text.NotPNG, match="too large"):
        png_text.read_texts(data, most=(4 << 20) + 10)


def test_chunks_of_other_keywords_are_never_inflated(monkeypatch):
    inflated = []
    real = png_text._inflate
    monkeypatch.setattr(png_text, "_inflate", lambda raw, most: inflated.append(raw) or real(raw, most))
    card = zlib.compress(b"eyJ9")
    data = with_chunks(
        *(ztxt(f"Comment{i}".encode(), b"A" * (1 << 20)) for i in range(40)),
        chunk(b"zTXt", b"chara\x00\x00" + card),
        ztxt(b"ccv3x", b"B" * 1000),
    )
    assert png_text.read_texts(data, ("chara", "ccv3")) == {"chara": "eyJ9"}
    assert inflated == [card]


def test_a_file_of_many_bombs_costs_no_more_than_the_total_allowed():
    bomb = zlib.compress(b"A" * (16 << 20), 9)  # 16 KiB that inflates to 16 MiB
    data = with_chunks(
        *(chunk(b"zTXt", f"chara{'x' * i}".encode() + b"\x00\x00" + bomb) for i in range(20)),
        *(chunk(b"iTXt", b"CHARA\x00\x01\x00\x00\x00" + bomb) for _ in range(20)),
    )
    tracemalloc.start()
    try:
        with pytest.raises(png_text.NotPNG, match="too large"):
            png_text.read_texts(data, ("chara",), most=4 << 20)
        named = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        with pytest.raises(png_text.NotPNG, match="too large"):
            png_text.read_texts(data)  # every keyword: the whole file's total still holds
        every = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert named < 3 * (4 << 20)  # what it allows, held twice at most (inflated, then as text), and no more
    assert every < 2 * png_text.INFLATED_MOST  # not 40 chunks of 16 MiB each


def test_the_first_chunk_of_a_keyword_is_the_only_one_read():
    data = with_chunks(ztxt(b"chara", b"first"), ztxt(b"chara", b"A" * (8 << 20)))
    assert png_text.read_texts(data, ("chara",), most=1 << 20) == {"chara": "first"}


def test_the_picture_is_the_image_alone_byte_for_byte():
    data = with_chunks(ztxt(b"chara", b"card"), ztxt(b"Comment", b"not the card's"), png_text._chunk(b"eXIf", b"GPS"))
    assert png_text.picture(data) == PICTURE
