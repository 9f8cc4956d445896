"""A model file is checked from its header before llama.cpp is given it: what is not a GGUF model, a file cut
short, an unknown version or a damaged header is one clear sentence."""

import os
import struct

import pytest

from anima.models.chat import ModelError
from anima.models.gguf import Header, parse_header, read_header
from tests.models.fake_gguf import fake_gguf


def header(version=3, tensors=1, entries=1, key=b"general.architecture", length=None) -> bytes:
    return b"GGUF" + struct.pack("<IQQQ", version, tensors, entries, len(key) if length is None else length) + key


def test_a_gguf_file_gives_its_version_counts_and_first_key(tmp_path):
    path = tmp_path / "m.gguf"
    path.write_bytes(fake_gguf(4096))
    assert read_header(path) == Header(3, 1, 1, "general.architecture")
    assert parse_header(header(version=2, tensors=201, entries=24), "m") == Header(2, 201, 24, "general.architecture")


@pytest.mark.parametrize(
    ("head", "says"),
    [
        (b"<html>Not found</html>" * 20, "is not a GGUF model file"),
        (b"GGUF\x03\x00\x00", "ends inside its GGUF header"),
        (header(version=1), "is GGUF version 1; llama.cpp reads versions 2 and 3"),
        (header(tensors=0), "has a damaged GGUF header"),
        (header(entries=1 << 40), "has a damaged GGUF header"),
        (header(length=300), "has a damaged GGUF header"),
        (header(key=b"general.arch", length=20), "has a damaged GGUF header"),  # the key cut short
        (header(key=b"\xff\xfe not text"), "has a damaged GGUF header"),
    ],
)
def test_what_is_not_a_whole_gguf_header_is_one_sentence(head, says):
    with pytest.raises(ModelError, match=says):
        parse_header(head, "m.gguf")


def test_a_missing_file_a_folder_and_a_pipe_are_refused_before_anything_is_opened(tmp_path):
    with pytest.raises(ModelError, match="There is no model file at"):
        read_header(tmp_path / "missing.gguf")
    with pytest.raises(ModelError, match=r"is a folder; choose a \.gguf model file"):
        read_header(tmp_path)
    pipe = tmp_path / "pipe.gguf"
    os.mkfifo(pipe)
    with pytest.raises(ModelError, match="is not a regular file"):
        read_header(pipe)  # opening it would wait for a writer forever
