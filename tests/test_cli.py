"""The command line as a script uses it: exit 0, or 2 with one clear line for a person's mistake."""

import os
import subprocess
import sys
from pathlib import Path

from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.store.records import fill

ROOT = Path(__file__).resolve().parent.parent


def anima(*args, env=None):
    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "anima", *args], capture_output=True, text=True, env=full,
                          cwd=ROOT, timeout=120)


def test_export_and_import_from_the_command_line(anima_home, tmp_path):
    with Home(anima_home).create(PASSPHRASE) as soul:
        fill(soul)
    core = tmp_path / "soul.core"
    env = {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "exp"}
    r = anima("export", str(core), env=env)
    assert r.returncode == 0, r.stderr
    other = tmp_path / "other"
    r = anima("import", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 0, r.stderr
    with Home(other).unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT content FROM memories")[0]["content"] == "CANARY-memory"
    # Into a home that has a companion: refused, unless asked to replace it.
    r = anima("import", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 2 and "already lives" in r.stderr
    r = anima("import", "--replace", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 0, r.stderr


def test_mistakes_exit_2_with_one_line_and_no_traceback(anima_home, tmp_path):
    Home(anima_home).create(PASSPHRASE).close()
    cases = [
        (("export", str(tmp_path / "x.core")), {"ANIMA_PASSPHRASE": "wrong", "ANIMA_EXPORT_PASSPHRASE": "e"}),
        (("import", str(tmp_path / "missing.core")), {"ANIMA_PASSPHRASE": "p", "ANIMA_EXPORT_PASSPHRASE": "e",
                                                      "ANIMA_HOME": str(tmp_path / "new")}),
        (("export", str(tmp_path / "no-such-dir" / "x.core")),
         {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "e"}),
        (("check",), {"ANIMA_HOME": str(tmp_path / "empty"), "ANIMA_PASSPHRASE": "p"}),
    ]
    for args, env in cases:
        r = anima(*args, env=env)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("anima: "), r.stderr
        assert "Traceback" not in r.stderr


def test_check_reports_a_healthy_soul(anima_home):
    Home(anima_home).create(PASSPHRASE).close()
    r = anima("check", env={"ANIMA_PASSPHRASE": PASSPHRASE})
    assert r.returncode == 0 and "passes" in r.stdout
