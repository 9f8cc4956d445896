"""The window's thread waits at most SWITCH_S for Python while other threads run it (ui/responsive.py)."""

import os
import subprocess
import sys

from tests.bench.running import ROOT
from ui.responsive import SWITCH_S


def test_the_app_started_as_a_person_starts_it_hands_python_over_within_a_millisecond(tmp_path):
    """A fresh process (Python's own 5 ms): `anima --first-paint` starts the app as a person does, paints its
    window and quits; from then on the interpreter hands the GIL to the window's thread within SWITCH_S."""
    code = "import sys, ui.app; ui.app.first_paint(); print('switch', sys.getswitchinterval())"
    env = {
        **os.environ,
        "ANIMA_HOME": str(tmp_path / "home"),
        "ANIMA_SETTINGS": str(tmp_path / "settings.json"),
        "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
    }
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    assert lines[-2:] == ["switch", str(SWITCH_S)] and SWITCH_S < 0.005
