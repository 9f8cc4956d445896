"""The child windows `bench ui`, `bench scale` and `bench bundle` time: each says "painted" at its first paint
(a bare PySide6 window, Anima's, or Anima's with the soul shown), and the opening one then its longest stall."""

import os
import re
import subprocess
import sys

import pytest

from anima.store import Home
from tests.bench.running import ROOT
from tests.conftest import PASSPHRASE


def child(mode: str, home) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QT_QPA_PLATFORM": "offscreen",
        "ANIMA_HOME": str(home),
        "ANIMA_PASSPHRASE": PASSPHRASE,
    }
    return subprocess.run(
        [sys.executable, "-m", "bench.ui_child", mode], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )


@pytest.mark.parametrize("mode", ["bare", "anima", "anima-ready"])
def test_each_window_says_it_painted_and_quits(anima_home, mode):
    Home(anima_home).create(PASSPHRASE, name="Anima").close()
    done = child(mode, anima_home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "painted"


@pytest.mark.slow  # waits for both models to load
def test_the_opening_window_says_its_longest_stall_once_the_soul_and_models_are_ready(anima_home):
    Home(anima_home).create(PASSPHRASE, name="Anima").close()
    done = child("anima-opening", anima_home)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"painted\nstall \d+\n", done.stdout), done.stdout
