"""Files read and written safely (anima/files.py): only regular files are read, and only so much; what is written
is whole or absent, and leaves no partial file behind."""

import errno
import os
import subprocess
import sys

import pytest

from anima import files
from anima.errors import DiskFull


def test_only_a_regular_file_is_read_and_only_as_much_as_its_reader_takes(tmp_path):
    small = tmp_path / "small"
    small.write_bytes(b"12345")
    assert files.read_regular(small, 5) == b"12345"
    with pytest.raises(files.TooLarge) as large:
        files.read_regular(small, 4)
    assert large.value.size == 5 and not large.value.grew
    with pytest.raises(files.NotRegularFile, match="a folder"):
        files.read_regular(tmp_path, 5)
    if hasattr(os, "mkfifo"):  # a pipe is refused at once, not waited on for a writer that never comes
        os.mkfifo(tmp_path / "pipe")
        with pytest.raises(files.NotRegularFile, match="a device or a pipe"):
            files.read_regular(tmp_path / "pipe", 5)


def test_a_full_disk_leaves_the_old_content_and_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "export.json"
    target.write_bytes(b"old")
    real_write = os.write

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    with pytest.raises(DiskFull, match=r"export\.json was not changed"):
        files.write_pieces_atomically(target, iter([b"new ", b"content"]))
    monkeypatch.setattr(files.os, "write", real_write)
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["export.json"]
    files.write_pieces_atomically(target, iter([b"new ", b"content"]))
    assert target.read_bytes() == b"new content" and [p.name for p in tmp_path.iterdir()] == ["export.json"]


def test_a_killed_older_versions_partial_file_beside_what_is_written_goes_with_the_write(tmp_path):
    """Partial files were "<name>.<pid>.new" before files.partial: one a killed older version left beside a file
    Anima writes again (the settings, an export) is its own, and goes; a file of another name stays."""
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    target = tmp_path / "settings.json"
    old, new, theirs = (
        tmp_path / f"settings.json.{dead}.new",
        files.partial(target, int(dead)),
        tmp_path / f"notes.{dead}.new",
    )
    for p in (old, new, theirs):
        p.write_bytes(b"half")
    files.write_atomically(target, b"{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, theirs.name])
