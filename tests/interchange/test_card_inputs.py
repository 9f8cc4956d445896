"""Odd and hostile card and lorebook files: what reading them costs is bounded, a file that is not a file is
refused without being read, JSON that is not JSON is refused, and the older or looser shapes other tools write
(a card's book with World Info's field names, yes-or-no as strings, Pygmalion cards, Agnai's characters) come in
as they mean."""

import base64
import json
import os
import struct
import threading
import tracemalloc
import zlib

import pytest

from anima.interchange import cards, png_text
from tests.interchange.cardfiles import PICTURE, book, entry, v2, wi_entry, world_info


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def picture_with(*extra: bytes) -> bytes:
    head = png_text.chunks(PICTURE)[:-1]
    return png_text.SIGNATURE + b"".join(chunk(k, b) for k, b in head) + b"".join(extra) + chunk(b"IEND", b"")


def b64(card: dict) -> bytes:
    return base64.b64encode(json.dumps(card).encode())


# ---- what reading a PNG card costs ---------------------------------------------------------


def test_a_png_with_many_big_text_chunks_beside_its_card_costs_little_to_read(tmp_path):
    # 40 chunks of other keywords, each inflating to 4 MiB (160 MiB in all), and the card in a tEXt chunk.
    bomb = zlib.compress(b"A" * (4 << 20), 9)
    others = [chunk(b"zTXt", f"Comment{i}".encode() + b"\x00\x00" + bomb) for i in range(40)]
    path = tmp_path / "mira.png"
    path.write_bytes(picture_with(*others, chunk(b"tEXt", b"chara\x00" + b64(v2()))))
    tracemalloc.start()
    try:
        card = cards.read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert card.name == "Mira" and card.book.entries[0].keys == ["Saltmarsh"]
    assert peak < 16 << 20  # what the file holds, a few times over; none of the 160 MiB the others inflate to
    assert all(kind not in png_text.TEXT_KINDS for kind, _ in png_text.chunks(card.avatar))  # the image alone


def test_card_chunks_that_inflate_past_what_a_card_may_hold_are_refused_with_one_line(tmp_path):
    bomb = zlib.compress(b"A" * (cards.TEXT_MOST // 4 + 1), 9)
    # Four chunks each under the limit (keywords differing in case only), together over it.
    path = tmp_path / "bomb.png"
    path.write_bytes(
        picture_with(
            *(chunk(b"zTXt", kw + b"\x00\x00" + bomb) for kw in (b"chara", b"Chara", b"cHara", b"chAra")),
            chunk(b"tEXt", b"ccv3\x00" + b64(v2())),
        )
    )
    tracemalloc.start()
    try:
        with pytest.raises(cards.CardRefused) as refused:
            cards.read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    said = str(refused.value)
    assert "\n" not in said and "too large" in said and "Nothing was changed" in said
    assert peak < 4 * cards.TEXT_MOST


# ---- what is not a file ----------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    """A named pipe, and a writer that answers any reader that waits on it (so a reader that would wait for
    ever gets a few bytes and goes on, and the test ends either way)."""
    path = tmp_path / "card.json"
    os.mkfifo(path)
    done = threading.Event()

    def answer():
        while not done.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader yet
                done.wait(0.01)
                continue
            try:
                os.write(fd, b"{}")
            except OSError:
                pass
            os.close(fd)

    writer = threading.Thread(target=answer, daemon=True)
    writer.start()
    yield path
    done.set()
    writer.join()


@pytest.mark.parametrize("read", [cards.read, cards.read_lorebook], ids=["card", "lorebook"])
def test_a_pipe_a_device_or_a_folder_is_refused_with_one_line_and_never_read(read, fifo, tmp_path):
    for path, what in ((fifo, "a device or a pipe"), ("/dev/null", "a device or a pipe"), (tmp_path, "a folder")):
        with pytest.raises(cards.CardRefused) as refused:
            read(path)
        said = str(refused.value)
        assert "\n" not in said and f"it is {what}, not a file" in said and "Nothing was changed" in said, said


# ---- JSON that is not JSON -----------------------------------------------------------------


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_not_json_in_a_card_or_a_lorebook(number, tmp_path):
    text = json.dumps(v2(extensions={"depth_prompt": {"depth": 1.5}})).replace("1.5", number)
    card = tmp_path / "card.json"
    card.write_text(text)
    with pytest.raises(cards.CardRefused, match="not valid JSON"):
        cards.read(card)
    in_png = tmp_path / "card.png"
    in_png.write_bytes(png_text.with_texts(PICTURE, {"chara": base64.b64encode(text.encode()).decode()}))
    with pytest.raises(cards.CardRefused, match="not valid JSON"):
        cards.read(in_png)
    book_file = tmp_path / "book.json"
    book_file.write_text(json.dumps(world_info(wi_entry(0, ["a"], "A is a place.", order=7.5))).replace("7.5", number))
    with pytest.raises(cards.CardRefused, match=r"lorebook in book\.json is not valid JSON"):
        cards.read_lorebook(book_file)


def test_a_number_too_long_to_read_is_refused_with_one_line(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(v2()).replace('"Mira"', '"Mira", "n": ' + "9" * 5000, 1))
    with pytest.raises(cards.CardRefused, match="number too long"):
        cards.read(path)


# ---- the shapes other tools write -------------------------------------------------------------


def test_a_cards_book_written_with_world_info_field_names_keeps_its_keys_and_disabled_entries(tmp_path):
    path = tmp_path / "wi_book.json"
    path.write_text(
        json.dumps(
            v2(
                character_book={
                    "name": "Eldoria",
                    "scan_depth": 4,
                    "entries": {
                        "3": wi_entry(
                            3,
                            ["Grimhold", "fort"],
                            "Grimhold is the ruined fort.",
                            disable=True,
                            order=20,
                            keysecondary=["cliff"],
                        ),
                        "5": wi_entry(5, ["Pier"], "The pier is half sunk."),
                    },
                }
            )
        )
    )
    card = cards.read(path)
    grim, pier = card.book.entries
    assert (grim.keys, grim.enabled, grim.options["order"], grim.options["secondary_keys"]) == (
        ["Grimhold", "fort"],
        False,
        20,
        ["cliff"],
    )
    assert (pier.keys, pier.enabled) == (["Pier"], True)
    assert card.data["character_book"] == {"name": "Eldoria", "scan_depth": 4}  # the book's own fields stay
    # A lorebook read from the same card says the same.
    assert [(e.keys, e.enabled) for e in cards.read_lorebook(path).entries] == [(grim.keys, False), (["Pier"], True)]


def test_yes_or_no_written_as_strings_means_what_it_says(tmp_path):
    path = tmp_path / "eldoria.json"
    path.write_text(
        json.dumps(
            world_info(
                wi_entry(0, ["a"], "A is on.", disable="false", constant="TRUE"),
                wi_entry(1, ["b"], "B is off.", disable="True", constant="0"),
                wi_entry(2, ["c"], "C is off.", disable="1"),
                wi_entry(3, ["d"], "D is on.", disable=" False "),
            )
        )
    )
    entries = cards.read_lorebook(path).entries
    assert [e.enabled for e in entries] == [True, False, False, True]
    assert [e.options["constant"] for e in entries[:2]] == [True, False]
    card = tmp_path / "card.json"
    card.write_text(
        json.dumps(
            v2(
                character_book=book(
                    entry(0, ["x"], "X is off.", enabled="false"), entry(1, ["y"], "Y is on.", enabled="TRUE")
                )
            )
        )
    )
    assert [e.enabled for e in cards.read(card).book.entries] == [False, True]


def test_a_pygmalion_card_comes_in_as_the_v1_fields_it_stands_for(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(
        json.dumps(
            {
                "char_name": "Tessa",
                "char_persona": "Tessa is a retired ferry pilot.",
                "world_scenario": "A quiet harbour.",
                "char_greeting": "Ahoy there!",
                "example_dialogue": "<START>\nYou: hi\nTessa: Ahoy.",
            }
        )
    )
    card = cards.read(path)
    assert (card.spec, card.name) == ("chara_card_v1", "Tessa")
    assert (card.data["description"], card.data["scenario"], card.data["first_mes"], card.data["mes_example"]) == (
        "Tessa is a retired ferry pilot.",
        "A quiet harbour.",
        "Ahoy there!",
        "<START>\nYou: hi\nTessa: Ahoy.",
    )
    only_name = tmp_path / "name.json"
    only_name.write_text(json.dumps({"char_name": "Bare"}))
    assert cards.read(only_name).name == "Bare"


def agnai(persona: dict, **more) -> dict:
    """A character as Agnai exports it."""
    return {
        "kind": "character",
        "name": "Mira",
        "description": "A lighthouse keeper (shown in the list only).",
        "appearance": "",
        "persona": persona,
        "greeting": "*waves from the rocks* Hello, {{user}}!",
        "scenario": "{{user}} arrives on the supply boat.",
        "sampleChat": "{{user}}: Hi\n{{char}}: Ahoy.",
        "avatar": "",
        "tags": ["sea"],
        **more,
    }


def test_an_agnai_character_comes_in_as_the_card_it_is(tmp_path):
    path = tmp_path / "mira.json"
    path.write_text(
        json.dumps(
            agnai(
                {"kind": "wpp", "attributes": {"species": ["human"], "personality": ["patient", "dry humour"]}},
                alternateGreetings=["*lights the lamp* Evening."],
                characterBook={
                    "kind": "memory",
                    "name": "Eldoria",
                    "description": "",
                    "entries": [
                        {
                            "name": "Saltmarsh",
                            "entry": "Saltmarsh is the village across the bay.",
                            "keywords": ["Saltmarsh"],
                            "priority": 0,
                            "weight": 0,
                            "enabled": True,
                        }
                    ],
                },
            )
        )
    )
    card = cards.read(path)
    assert (card.spec, card.name) == ("agnai_character", "Mira")
    assert card.data["description"] == "species: human.\npersonality: patient, dry humour."
    assert (card.data["first_mes"], card.data["scenario"], card.data["mes_example"]) == (
        "*waves from the rocks* Hello, {{user}}!",
        "{{user}} arrives on the supply boat.",
        "{{user}}: Hi\n{{char}}: Ahoy.",
    )
    assert card.data["alternate_greetings"] == ["*lights the lamp* Evening."] and card.data["tags"] == ["sea"]
    assert card.data["creator_notes"] == "A lighthouse keeper (shown in the list only)."
    [saltmarsh] = card.book.entries
    assert (saltmarsh.title, saltmarsh.keys, saltmarsh.content) == (
        "Saltmarsh",
        ["Saltmarsh"],
        "Saltmarsh is the village across the bay.",
    )
    assert "kind" not in card.data.get("character_book", {})  # the book goes out in the spec's shape
    path.write_text(json.dumps(agnai({"kind": "text", "attributes": {"text": ["Mira keeps the light."]}})))
    assert cards.read(path).data["description"] == "Mira keeps the light."


def test_a_name_cut_to_its_length_ends_in_no_space(tmp_path):
    path = tmp_path / "long.json"
    long = "A" * (cards.NAME_CHARS - 1) + " Bartholomew"
    path.write_text(json.dumps(v2(name=long)))
    card = cards.read(path)
    assert card.name == "A" * (cards.NAME_CHARS - 1)
    nameless = tmp_path / "nameless_book.json"
    nameless.write_text(json.dumps(v2(name=long, character_book={"entries": []})))
    assert cards.read(nameless).book.name == "A" * (cards.NAME_CHARS - 1) + "'s world"


def test_a_cards_json_written_as_itself_in_a_text_chunk_is_read_by_that_chunks_rule(tmp_path):
    # iTXt holds UTF-8 text (the PNG spec); tools that write the JSON itself in a tEXt chunk write its UTF-8 bytes.
    described = "Mira loves the moon 🌙 and a café crème."
    said = json.dumps(v2(name="月 Mira", description=described), ensure_ascii=False)
    for kind, head in ((b"iTXt", b"chara\x00\x00\x00\x00\x00"), (b"tEXt", b"chara\x00")):
        path = tmp_path / f"{kind.decode()}.png"
        path.write_bytes(picture_with(chunk(kind, head + said.encode("utf-8"))))
        card = cards.read(path)
        assert (card.name, card.data["description"]) == ("月 Mira", described), kind
