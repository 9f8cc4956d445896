"""SIGKILL at a random moment of every write path (bench/killpaths.py): turns with learning and quick reflection,
deep reflection, forgetting, export, import, passphrase changes. After each restart the soul passes its integrity
checks, keeps what was acknowledged, has a vector for every recallable item, keeps forgotten items forgotten, and
no partial file is left in the home. `bench faults` runs the same loop with 500 and more kills."""

import pytest

from bench import killpaths


@pytest.mark.slow  # tens of child processes, each killed
def test_kills_on_every_write_path_lose_nothing_acknowledged(tmp_path):
    said = []
    r = killpaths.run(24, seed=17, home=str(tmp_path / "home"), log=said.append)
    assert r.kills == 24 and set(r.kills_by_path) == set(killpaths.PATHS)
    assert r.acknowledged > 0  # the children wrote, and said so, before they were killed
    assert (r.integrity_failures, r.acknowledged_lost, r.forgotten_back) == (0, 0, 0), said
    assert (r.vectors_missing, r.leftovers, r.bad_cores, r.tracebacks) == (0, 0, 0, 0), said
    # A passphrase change cut short opens with the old or the new passphrase, never neither.
    assert sum(r.passphrase_opened.values()) == r.kills_by_path["passphrase"]


def test_a_killed_writers_partial_files_are_removed_at_the_next_unlock(tmp_path):
    """What a program killed mid-write leaves (a staging soul, a key file's or a core's new copy) goes at the next
    unlock; a living program's own partial file stays."""
    import os
    import subprocess
    import sys

    from anima import files
    from anima.store import Home
    from tests.conftest import PASSPHRASE

    home = Home(tmp_path / "home")
    home.create(PASSPHRASE).close()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    left = [
        home.dir / f".soul.importing.{dead}.db",
        home.dir / f".soul.importing.{dead}.db-wal",
        files.partial(home.key_path, int(dead)),
        files.partial(home.dir / "export.anima", int(dead)),
        home.dir / f"soul.key.{dead}.new",
    ]  # (an older version's name for the key file's new copy)
    alive = files.partial(home.key_path, os.getpid())
    # The person's own files, named as partial files once were: never Anima's to remove (QA: it did).
    theirs = [home.dir / "novel.2024.new", home.dir / f"notes.{dead}.new", home.dir / f".draft.{dead}.new"]
    for p in [*left, alive, *theirs]:
        p.write_bytes(b"half")
    home.unlock(PASSPHRASE).close()
    assert sorted(p.name for p in home.dir.iterdir()) == sorted(
        ["soul.db", "soul.key", ".soul.lock", ".soul.key.lock", alive.name, *(p.name for p in theirs)]
    )
