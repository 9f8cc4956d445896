"""The text chunks of a PNG file, read and written with the standard library alone (zlib, struct).

Character cards travel as PNG pictures whose `tEXt` chunks hold the card: `chara` (chara_card_v2) or `ccv3`
(chara_card_v3), each base64 of UTF-8 JSON. Readers here accept `tEXt`, `zTXt` and `iTXt`; writers write `tEXt`
just before `IEND` and drop the chunks of the same keyword they replace. Every chunk's CRC is checked: a file
cut short or damaged is refused, not half read.
"""

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
TEXT_KINDS = (b"tEXt", b"zTXt", b"iTXt")
# A compressed chunk may not inflate past this (a small chunk that inflates to gigabytes is refused).
INFLATED_MOST = 64 * 1024 * 1024


class NotPNG(ValueError):
    """The bytes are not a whole, undamaged PNG file (the message says why, for a person)."""


def is_png(data: bytes) -> bool:
    return data[:8] == SIGNATURE


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk as (type, data), in order, up to and including IEND."""
    if not is_png(data):
        raise NotPNG("it is not a PNG picture")
    out, at = [], 8
    while True:
        if at + 8 > len(data):
            raise NotPNG("the PNG file is cut short (no IEND chunk)")
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + length
        if end > len(data):
            raise NotPNG(f"the PNG file is cut short (inside its {kind.decode('latin-1', 'replace')} chunk)")
        body = data[at + 8:at + 8 + length]
        crc, = struct.unpack(">I", data[at + 8 + length:end])
        if zlib.crc32(kind + body) != crc:
            raise NotPNG(f"the PNG file is damaged (its {kind.decode('latin-1', 'replace')} chunk fails its check)")
        out.append((kind, body))
        at = end
        if kind == b"IEND":
            return out


def _inflate(raw: bytes) -> bytes:
    d = zlib.decompressobj()
    try:
        text = d.decompress(raw, INFLATED_MOST)
    except zlib.error:
        raise NotPNG("a compressed text chunk of the PNG file is damaged") from None
    if d.unconsumed_tail:
        raise NotPNG("a compressed text chunk of the PNG file is too large")
    return text


def text_of(kind: bytes, body: bytes) -> tuple[str, str] | None:
    """(keyword, text) of one text chunk; None for a chunk that holds none."""
    keyword, sep, rest = body.partition(b"\x00")
    if not sep:
        return None
    name = keyword.decode("latin-1")
    if kind == b"tEXt":
        return name, rest.decode("latin-1")
    if kind == b"zTXt":
        return name, _inflate(rest[1:]).decode("latin-1")
    if kind == b"iTXt" and len(rest) >= 2:
        compressed, rest = rest[0], rest[2:]
        _language, _, rest = rest.partition(b"\x00")
        _translated, _, text = rest.partition(b"\x00")
        return name, (_inflate(text) if compressed else text).decode("utf-8", "replace")
    return None


def read_texts(data: bytes) -> dict[str, str]:
    """The text chunks of a PNG, by keyword (the first of each keyword wins). NotPNG if it is not a whole PNG."""
    found: dict[str, str] = {}
    for kind, body in chunks(data):
        if kind in TEXT_KINDS and (pair := text_of(kind, body)) is not None:
            found.setdefault(pair[0], pair[1])
    return found


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def with_texts(data: bytes, texts: dict[str, str]) -> bytes:
    """The PNG with these tEXt chunks (latin-1 text: base64 is) in place of any of the same keywords."""
    replaced = {k.encode("latin-1") for k in texts}
    kept = [(k, b) for k, b in chunks(data)
            if not (k in TEXT_KINDS and b.partition(b"\x00")[0] in replaced)]
    new = [(b"tEXt", k.encode("latin-1") + b"\x00" + v.encode("latin-1")) for k, v in texts.items()]
    ordered = kept[:-1] + new + kept[-1:]  # IEND stays last
    return SIGNATURE + b"".join(_chunk(k, b) for k, b in ordered)


def without_texts(data: bytes, keywords) -> bytes:
    """The PNG without the text chunks of these keywords (a card's picture, without the card)."""
    drop = {k.encode("latin-1") for k in keywords}
    kept = [(k, b) for k, b in chunks(data) if not (k in TEXT_KINDS and b.partition(b"\x00")[0] in drop)]
    return SIGNATURE + b"".join(_chunk(k, b) for k, b in kept)


def plain(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A PNG of one colour (a card needs a picture; a companion that has none gets this)."""
    row = b"\x00" + bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(row * height, 9))
            + _chunk(b"IEND", b""))
