"""`export --markdown`: a plain-text copy of the mind, private to its owner as the JSON export and the core are."""

import os
import stat

from anima import cli
from anima.interchange.markdown import write_markdown
from anima.store import Home
from tests.conftest import PASSPHRASE


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_files_and_the_folders_an_export_makes_are_its_owner_s_only(soul, tmp_path):
    """QA: SELF.md was 0644 and its folder 0755 while the JSON export and the core are 0600."""
    soul.add(
        "world_card",
        "user",
        kind="place",
        title="Lisbon",
        body="A city.",
        keywords="[]",
        created_at="2026",
        updated_at="2026",
    )
    target = tmp_path / "made" / "above" / "mind"
    old = os.umask(0o022)  # the usual one: files 0644 and folders 0755 unless asked otherwise
    try:
        written = write_markdown(soul, target)
    finally:
        os.umask(old)
    assert sorted(p.relative_to(target).as_posix() for p in written) == ["SELF.md", "world/lisbon.md"]
    assert [oct(mode(p)) for p in written] == [oct(0o600)] * 2
    for folder in (target, target / "world", tmp_path / "made", tmp_path / "made" / "above"):
        assert mode(folder) == 0o700, folder


def test_into_a_folder_already_there_the_files_are_private_and_the_folder_keeps_its_mode(soul, tmp_path):
    target = tmp_path / "mine"
    target.mkdir(mode=0o755)
    os.chmod(target, 0o755)
    (target / "SELF.md").write_text("yesterday's self")
    os.chmod(target / "SELF.md", 0o644)
    (target / "notes.txt").write_text("the person's own")
    write_markdown(soul, target)
    assert mode(target / "SELF.md") == 0o600 and (target / "SELF.md").read_text() != "yesterday's self"
    assert mode(target) == 0o755  # the person's folder, as they made it
    assert (target / "notes.txt").read_text() == "the person's own"


def test_the_command_line_writes_it_private(anima_home, tmp_path, monkeypatch, capsys):
    Home(anima_home).create(PASSPHRASE).close()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    old = os.umask(0o022)
    try:
        assert cli.main(["export", "--markdown", str(tmp_path / "mind")]) == 0
    finally:
        os.umask(old)
    assert mode(tmp_path / "mind") == 0o700 and mode(tmp_path / "mind" / "SELF.md") == 0o600
