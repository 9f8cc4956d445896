"""The text chunks of a PNG file, read and written with the standard library alone (zlib, struct).

Character cards travel as PNG pictures whose `tEXt` chunks hold the card: `chara` (chara_card_v2) or `ccv3`
(chara_card_v3), each base64 of UTF-8 JSON. Readers here accept `tEXt`, `zTXt` and `iTXt`; writers write `tEXt`
just before `IEND` and drop the chunks of the same keyword they replace. Every chunk's CRC is checked: a file
cut short or damaged is refused, not half read.

What a compressed chunk inflates to is bounded for the whole file, not chunk by chunk (INFLATED_MOST, or the
reader's own `most`): many small chunks that each inflate to a great deal are refused, never held in memory.
A reader that wants only some keywords (a card's `chara` and `ccv3`) names them, and the other chunks are never
inflated at all; of chunks that share a keyword only the first is read.
"""

import struct
import zlib
from collections.abc import Iterable, Iterator

SIGNATURE = b"\x89PNG\r\n\x1a\n"
TEXT_KINDS = (b"tEXt", b"zTXt", b"iTXt")
# The compressed chunks of one file may not inflate past this, all of them together (a small file that
# inflates to gigabytes is refused).
INFLATED_MOST = 64 * 1024 * 1024


class NotPNG(ValueError):
    """The bytes are not a whole, undamaged PNG file (the message says why, for a person)."""


def is_png(data: bytes) -> bool:
    return data[:8] == SIGNATURE


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk as (type, data), in order, up to and including IEND."""
    return [(kind, data[at + 8 : end - 4]) for kind, at, end in _walk(data)]


def _walk(data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """(type, start, end) of every chunk, in order, up to and including IEND: one at a time, each checked."""
    if not is_png(data):
        raise NotPNG("it is not a PNG picture")
    at = 8
    while True:
        if at + 8 > len(data):
            raise NotPNG("the PNG file is cut short (no IEND chunk)")
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        end = at + 12 + length
        if end > len(data):
            raise NotPNG(f"the PNG file is cut short (inside its {kind.decode('latin-1', 'replace')} chunk)")
        (crc,) = struct.unpack(">I", data[at + 8 + length : end])
        if zlib.crc32(data[at + 8 : at + 8 + length], zlib.crc32(kind)) != crc:
            raise NotPNG(f"the PNG file is damaged (its {kind.decode('latin-1', 'replace')} chunk fails its check)")
        yield kind, at, end
        at = end
        if kind == b"IEND":
            return


def _inflate(raw: bytes, most: int) -> bytes:
    """The inflated bytes, at most `most` of them (NotPNG past that)."""
    d = zlib.decompressobj()
    try:
        text = d.decompress(raw, most + 1)  # one byte over says it is too large, and no more is made
    except zlib.error:
        raise NotPNG("a compressed text chunk of the PNG file is damaged") from None
    if len(text) > most:
        raise NotPNG("the compressed text in the PNG file is too large")
    return text


def text_of(kind: bytes, body: bytes, most: int = INFLATED_MOST) -> tuple[str, str] | None:
    """(keyword, text) of one text chunk, a compressed one inflating to at most `most` bytes; None for a chunk
    that holds none."""
    read = _read(kind, body, most)
    return None if read is None else read[:2]


def _read(kind: bytes, body: bytes, most: int) -> tuple[str, str, int] | None:
    """(keyword, text, how many bytes it inflated to) of one text chunk; None for a chunk that holds none."""
    keyword, sep, rest = body.partition(b"\x00")
    if not sep:
        return None
    name = keyword.decode("latin-1")
    if kind == b"tEXt":
        return name, rest.decode("latin-1"), 0
    if kind == b"zTXt":
        text = _inflate(rest[1:], most)
        return name, text.decode("latin-1"), len(text)
    if kind == b"iTXt" and len(rest) >= 2:
        compressed, rest = rest[0], rest[2:]
        _language, _, rest = rest.partition(b"\x00")
        _translated, _, text = rest.partition(b"\x00")
        if compressed:
            text = _inflate(text, most)
        return name, text.decode("utf-8", "replace"), len(text) if compressed else 0
    return None


def read_texts(data: bytes, keywords: Iterable[str] | None = None, most: int = INFLATED_MOST) -> dict[str, str]:
    """The text chunks of a PNG, by keyword (the first of each keyword wins). NotPNG if it is not a whole PNG, or
    if the compressed chunks it reads would inflate past `most` bytes, all of them together.

    `keywords`: read only the chunks of these keywords (matched case aside, as SillyTavern matches `chara`); the
    others are passed over, never inflated. None reads every text chunk."""
    return {keyword: text for keyword, (_kind, text) in read_chunks(data, keywords, most).items()}


def read_chunks(
    data: bytes, keywords: Iterable[str] | None = None, most: int = INFLATED_MOST
) -> dict[str, tuple[bytes, str]]:
    """As read_texts, each text with the kind of its chunk (b"tEXt", b"zTXt" or b"iTXt"): its text is Latin-1 or
    UTF-8 as that kind's rule says, and a reader that knows better than the spec needs to know which."""
    wanted = None if keywords is None else {k.lower() for k in keywords}
    found: dict[str, tuple[bytes, str]] = {}
    for kind, at, end in _walk(data):
        if kind not in TEXT_KINDS:
            continue
        body = data[at + 8 : end - 4]
        keyword = body.partition(b"\x00")[0].decode("latin-1")
        if keyword in found or (wanted is not None and keyword.lower() not in wanted):
            continue
        if (read := _read(kind, body, most)) is not None:
            found[read[0]] = (kind, read[1])
            most -= read[2]
    return found


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def with_texts(data: bytes, texts: dict[str, str]) -> bytes:
    """The PNG with these tEXt chunks (latin-1 text: base64 is) in place of any of the same keywords."""
    replaced = {k.encode("latin-1") for k in texts}
    kept = [(k, b) for k, b in chunks(data) if not (k in TEXT_KINDS and b.partition(b"\x00")[0] in replaced)]
    new = [(b"tEXt", k.encode("latin-1") + b"\x00" + v.encode("latin-1")) for k, v in texts.items()]
    ordered = kept[:-1] + new + kept[-1:]  # IEND stays last
    return SIGNATURE + b"".join(_chunk(k, b) for k, b in ordered)


# What a picture carries besides its image: words (a comment, an image tool's prompt, a card) and EXIF (where and
# when a photo was taken).
_NOT_IMAGE = (*TEXT_KINDS, b"eXIf")


def picture(data: bytes) -> bytes:
    """The image alone (a card's picture, kept as the companion's): every chunk but its words and its EXIF, as they
    were, byte for byte. What a card's PNG said besides the card is no part of the card, and is not kept."""
    out = bytearray(SIGNATURE)
    for kind, at, end in _walk(data):
        if kind not in _NOT_IMAGE:
            out += data[at:end]
    return bytes(out)


def plain(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A PNG of one colour (a card needs a picture; a companion that has none gets this)."""
    row = b"\x00" + bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(row * height, 9)) + _chunk(b"IEND", b"")
