"""A full disk at each step, on a real small filesystem (an 8 MiB tmpfs; mounting one needs root).

Each case fills the disk, does one step, checks what a person would check (one KnownError, nothing half-saved),
frees the space, and checks that the step then works. Used by `bench faults`; the tests check the same steps
one by one (tests/store/test_full_disk_paths.py).
"""

import errno
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PASSPHRASE = "full-disk passphrase"
EXPORT_PASSPHRASE = "full-disk export passphrase"
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Case:
    step: str
    ok: bool
    said: str  # what the person was told (the KnownError's message), or what went wrong
    traceback: bool = False


@contextmanager
def small_disk(size: str = "8m"):
    """A tmpfs of its own, unmounted afterwards; None where no mount is possible (not root)."""
    with tempfile.TemporaryDirectory(prefix="anima-disk-") as tmp:
        where = Path(tmp) / "disk"
        where.mkdir()
        if (
            os.geteuid() != 0
            or not shutil.which("mount")
            or subprocess.run(
                ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)], capture_output=True
            ).returncode
        ):
            yield None
            return
        try:
            yield where
        finally:
            subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path) -> Path:
    """Take every free byte of the disk; delete the returned file to free it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for block in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, b"\0" * block)
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)
    return filler


@contextmanager
def full(disk: Path):
    filler = fill(disk)
    try:
        yield
    finally:
        filler.unlink()


def companion(home, learns: bool = False):
    from anima.companion import Companion
    from anima.models.fake import FakeEmbedder
    from bench.killpaths import _answering_model

    c = Companion.create(home, PASSPHRASE, "Anima", _answering_model(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.reflector.evaluation = c.reflector.creation = None
    c.learns, c.reflector.every = learns, 0
    return c


def count(soul, table: str) -> int:
    return soul.query(f"SELECT count(*) AS n FROM {table}")[0]["n"]


def _case(step: str, fn) -> Case:
    from anima.errors import KnownError

    try:
        said = fn()
        return Case(step, True, said)
    except (AssertionError, KnownError) as e:
        return Case(step, False, f"{type(e).__name__}: {e}")
    except Exception as e:
        return Case(step, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}", traceback=True)


def run_cases(disk: Path, command_line: bool = True) -> list[Case]:
    """Every step on the full disk, in order, on one companion; then `python -m anima` (when `command_line`)."""
    from anima.errors import DiskError, DiskFull
    from anima.store import Home
    from anima.store.soul import Soul

    home = Home(disk / "home")
    c = companion(home)

    def expect_full(fn):
        try:
            fn()
        except (DiskFull, DiskError) as e:
            return str(e)
        raise AssertionError("no DiskFull on a full disk")

    def turn():
        before = count(c.soul, "messages")
        with full(disk):
            message = expect_full(lambda: c.turn("My notebook number 7 is on the shelf.").read())
            assert count(c.soul, "messages") == before, "a message was half-saved"
        c.turn("My notebook number 7 is on the shelf.").read()  # the same message, once there is room
        c.settle()
        assert count(c.soul, "messages") == before + 2
        assert not c.indexer.missing(), "a message without its vector"
        return message

    def learning():
        failed: list[str] = []
        c.on_background_failure(failed.append)
        c.learns = True
        read = c.soul.get_meta("human_read_through", "0")
        with full(disk):
            c.reflector.after("My notebook number 7 is on the shelf.", "Noted.")
            c.settle()
            assert failed and "stopped" in failed[-1], failed
            assert c.soul.get_meta("human_read_through", "0") == read, "learning half-written"
        c.reflector.after("My notebook number 7 is on the shelf.", "Noted.")  # learning again, with room
        c.settle()
        assert c.soul.get_meta("human_read_through", "0") != read, "learning did not resume"
        c.learns = False
        return failed[-1]

    def quick():
        failed: list[str] = []
        c.on_background_failure(failed.append)
        c.reflector.every = 1
        read = c.soul.get_meta("quick_read_through", "0")
        with full(disk):
            c.reflector.after("My notebook number 8 is on the desk.", "Noted.")
            c.settle()
            assert failed and "stopped" in failed[-1], failed
            assert c.soul.get_meta("quick_read_through", "0") == read, "quick reflection half-written"
        c.reflector.after("My notebook number 8 is on the desk.", "Noted.")
        c.settle()
        assert c.soul.get_meta("quick_read_through", "0") != read, "quick reflection did not resume"
        c.reflector.every = 0
        return failed[-1]

    def deep():
        failed: list[str] = []
        c.on_background_failure(failed.append)
        for i in range(4):
            c.messages.record("user" if i % 2 == 0 else "companion", f"Notebook 12 line {i}.")
        read, episodes = c.soul.get_meta("deep_read_through", "0"), count(c.soul, "episodes")
        with full(disk):
            assert c.reflect_deeply() is None, "deep reflection said it was done on a full disk"
            assert failed and "stopped" in failed[-1], failed
            assert c.soul.get_meta("deep_read_through", "0") == read, "deep reflection half-written"
            assert count(c.soul, "episodes") == episodes
        done = c.reflect_deeply()  # with room: it goes over the same messages again
        assert done is not None and done.episodes and c.soul.get_meta("deep_read_through", "0") != read
        assert not c.indexer.missing(), "an episode without its vector"
        return failed[-1]

    def forgetting():
        mid = c.messages.record("user", "Bea's phone number is a secret")
        with full(disk):
            message = expect_full(lambda: c.forget("message", mid))
            assert c.soul.query("SELECT 1 FROM messages WHERE id = ?", (mid,)), "half-forgotten: its row went"
            assert not c.indexer.missing(), "half-forgotten: its vector went"
        c.forget("message", mid)
        assert not c.soul.query("SELECT 1 FROM messages WHERE id = ?", (mid,))
        assert not c.soul.query("SELECT 1 FROM embeddings WHERE item_kind = 'message' AND item_id = ?", (mid,))
        return message

    def making_again():
        # An episode the deep step made loses one of its messages: the next deep reflection makes it again.
        failed: list[str] = []
        c.on_background_failure(failed.append)
        episode = max(e.id for e in c.episodes.all())
        c.forget("message", c.episodes.made_of(episode)[0])
        assert c.episodes.flagged() == [episode]
        with full(disk):
            assert c.reflect_deeply() is None, "deep reflection said it was done on a full disk"
            assert failed and "stopped" in failed[-1], failed
            assert c.episodes.flagged() == [episode], "making an episode again half-written"
        done = c.reflect_deeply()
        assert done is not None and done.made_again.episodes == 1 and not c.episodes.flagged()
        assert not c.indexer.missing(), "an episode made again without its vector"
        return failed[-1]

    def export():
        with full(disk):
            message = expect_full(lambda: c.export_core(disk / "core.anima", EXPORT_PASSPHRASE))
            assert not [p for p in disk.iterdir() if p.name.startswith("core.anima")], "a partial core was left"
        c.export_core(disk / "core.anima", EXPORT_PASSPHRASE)
        return message

    def import_():
        other = Home(disk / "other")
        with full(disk):
            message = expect_full(lambda: other.import_core(disk / "core.anima", EXPORT_PASSPHRASE, PASSPHRASE))
            # The empty lock files may stay; the folder the import made goes when nothing else is in it.
            assert not other.exists() and not [
                p
                for p in (other.dir.iterdir() if other.dir.exists() else ())
                if p.name not in ("soul.key", ".soul.lock", ".soul.key.lock")
            ], "a half-imported soul was left"
        other.import_core(disk / "core.anima", EXPORT_PASSPHRASE, PASSPHRASE, replace=other.exists())
        with other.unlock(PASSPHRASE) as s:
            s.check()
            assert count(s, "messages") == count(c.soul, "messages")
        return message

    def passphrase():
        before = home.key_path.read_bytes()
        with full(disk):
            message = expect_full(lambda: home.change_passphrase(PASSPHRASE, "another passphrase"))
            assert home.key_path.read_bytes() == before, "the key file was changed"
        home.unlock_key(PASSPHRASE)
        return message

    def close():
        soul = c.soul
        soul.con.execute("PRAGMA wal_autocheckpoint = 0")
        c.turn("My notebook number 9 is in the bag.").read()
        n = count(soul, "messages")
        with full(disk):
            try:
                c.close()
                message = "closed (the checkpoint found room)"
            except (DiskFull, DiskError) as e:
                message = str(e)
        with home.unlock(PASSPHRASE) as again:
            again.check()
            assert count(again, "messages") == n, "a message acknowledged before the close was lost"
        return message

    def opening():
        with full(disk):
            message = expect_full(lambda: Soul(home.soul_path, home.unlock_key(PASSPHRASE)))
        home.unlock(PASSPHRASE).close()
        return message

    cases = [
        _case(step, fn)
        for step, fn in (
            ("a turn", turn),
            ("learning", learning),
            ("quick reflection", quick),
            ("deep reflection", deep),
            ("forgetting", forgetting),
            ("making again", making_again),
            ("export", export),
            ("import", import_),
            ("passphrase change", passphrase),
            ("closing", close),
            ("opening", opening),
        )
    ]
    if command_line:
        cases += command_line_cases(disk, home)
    return cases


def command_line_cases(disk: Path, home) -> list[Case]:
    """`python -m anima` on the full disk: one line, exit 2, no traceback."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ANIMA_HOME": str(home.dir),
        "ANIMA_PASSPHRASE": PASSPHRASE,
        "ANIMA_SETTINGS": str(Path(home.dir).parent / "settings.json"),  # never the user's own data folder
        "ANIMA_EXPORT_PASSPHRASE": EXPORT_PASSPHRASE,
        "ANIMA_NEW_PASSPHRASE": "another passphrase",
    }
    out = []
    for step, args in (
        ("anima check", ["check"]),
        ("anima export", ["export", str(disk / "cli.anima")]),
        ("anima import", ["--home", str(disk / "cli-home"), "import", str(disk / "core.anima")]),
        ("anima passphrase", ["passphrase"]),
    ):
        with full(disk):
            r = subprocess.run(
                [sys.executable, "-m", "anima", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
            )
        lines = r.stderr.strip().splitlines()
        ok = r.returncode == 2 and len(lines) == 1 and "full" in lines[0]
        out.append(
            Case(
                step,
                ok,
                lines[-1] if lines else f"exit {r.returncode}, nothing said",
                traceback="Traceback" in r.stderr,
            )
        )
    return out
