"""The readable exports (`export --json FILE`, `export --markdown DIR`) on a full disk: one `anima:` line, exit 2,
no traceback, nothing of the export left on the disk and a file or folder already there as it was.

On a real small tmpfs (tests/store/test_full_disk.py's fixture: skipped where nothing can be mounted); the
simulated test at the end fails the fsync the way a full disk does, with no file name, as flush and close do."""

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anima import cli
from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.records import fill as fill_soul
from tests.store.test_full_disk import fill

ROOT = Path(__file__).resolve().parent.parent
EXPORTS = [("--json", "all.json"), ("--markdown", "mind")]


@pytest.fixture
def home(anima_home):
    """A companion whose exports take more than a few KiB, so they meet the full disk part-way too."""
    with Home(anima_home).create(PASSPHRASE) as soul:
        fill_soul(soul)
        for i in range(6):
            soul.add(
                "world_card",
                "user",
                kind="place",
                title=f"Place {i}",
                body="A long description. " * 200,
                keywords="[]",
                created_at="2026",
                updated_at="2026",
            )
    return anima_home


def anima(*args):
    return subprocess.run(
        [sys.executable, "-m", "anima", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "ANIMA_PASSPHRASE": PASSPHRASE},
        timeout=120,
    )


def said_disk_full(r, target: Path) -> None:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1 and lines[0].startswith("anima: The disk is full") and str(target) in lines[0], lines


def on_disk(where: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(where)): p.read_bytes() if p.is_file() else None for p in sorted(where.rglob("*"))}


@pytest.mark.slow  # runs `python -m anima`
@pytest.mark.parametrize("flag, name", EXPORTS)
@pytest.mark.parametrize("room", [0, 4096])
def test_a_readable_export_onto_a_full_disk_is_one_line_and_leaves_nothing(home, small_disk, flag, name, room):
    (small_disk / "out").mkdir()
    filler = fill(small_disk, leave=room)
    before = on_disk(small_disk)
    target = small_disk / "out" / name
    said_disk_full(anima("export", flag, str(target)), target)
    assert on_disk(small_disk) == before
    filler.unlink()  # with room again, it works
    r = anima("export", flag, str(target))
    assert r.returncode == 0, r.stderr
    assert (
        json.loads(target.read_text())["world_cards"]
        if flag == "--json"
        else sorted(p.name for p in (target / "world").iterdir())
    )


@pytest.mark.slow  # runs `python -m anima`
@pytest.mark.parametrize("flag, name", EXPORTS)
def test_an_export_already_there_is_untouched_by_one_that_meets_a_full_disk(home, small_disk, flag, name):
    target = small_disk / name
    if flag == "--json":
        target.write_text("the export of yesterday")
    else:
        (target / "world").mkdir(parents=True)
        (target / "SELF.md").write_text("yesterday's self")
        (target / "notes.txt").write_text("the person's own")
    fill(small_disk, leave=4096)
    before = on_disk(small_disk)
    # Replacing a file there is asked for (--overwrite); a folder of Markdown is written into as before.
    overwrite = ("--overwrite",) if flag == "--json" else ()
    said_disk_full(anima("export", *overwrite, flag, str(target)), target)
    assert on_disk(small_disk) == before


@pytest.mark.slow  # runs `python -m anima`
def test_a_markdown_export_into_a_mounted_disk_s_own_root(home, small_disk):
    """The root of a disk (a USB stick) has no folder beside it on that disk: the export is built inside."""
    (small_disk / "notes.txt").write_text("the person's own")
    r = anima("export", "--markdown", str(small_disk))
    assert r.returncode == 0, r.stderr
    assert (small_disk / "SELF.md").exists() and len(list((small_disk / "world").iterdir())) == 7
    assert sorted(p.name for p in small_disk.iterdir()) == ["SELF.md", "notes.txt", "world"]


@pytest.mark.parametrize("flag, name", EXPORTS)
def test_simulated_a_full_disk_met_with_no_file_name_is_one_line(home, tmp_path, monkeypatch, capsys, flag, name):
    """Flush and close report a full disk with no file name (the QA case): said all the same, with the path."""
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    out = tmp_path / "out"
    out.mkdir()
    # A markdown folder's missing folders above are made, and taken away again.
    target = out / "new" / name if flag == "--markdown" else out / name
    monkeypatch.setattr(os, "fsync", full)
    assert cli.main(["export", flag, str(target)]) == 2
    monkeypatch.undo()
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("anima: The disk is full") and str(target) in lines[0], lines
    assert list(out.iterdir()) == []
