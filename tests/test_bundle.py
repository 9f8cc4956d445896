"""`--selftest`, from source and from the built bundle (dist/anima, made by `make dist`; .ci/run builds it
before the tests). Each step prints one line; the run exits 0 only when every step worked."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from anima import __version__
from anima.selftest import Run

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "dist" / "anima" / "anima"
STEPS = ("create", "unlock", "turn", "memory", "export", "gate", "window", "close")


def selftest(command: list[str], cwd: Path) -> str:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([*command, "--selftest"], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    # A bundle is what `make dist` made of the sources then: after a change, `make dist` again.
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def check(out: str, where: str) -> None:
    assert f"selftest: Anima {__version__}, Python" in out and where in out
    for step in STEPS:
        assert re.search(rf"^selftest: {step} +ok +\d+\.\d\d s  ", out, re.M), f"{step} did not pass:\n{out}"
    assert re.search(r"^selftest: passed, 8 steps in [\d.]+ s$", out, re.M), out
    assert "through onnxruntime" in out  # the embedder ran without torch
    assert f"titled 'Selftest — Anima {__version__}'" in out  # the window names the companion, the app, its version


def test_a_failed_step_is_reported_and_fails_the_run(capsys):
    run = Run()
    assert run.step("fine", lambda: "said")
    assert not run.step("broken", lambda: 1 / 0)
    out = capsys.readouterr().out
    assert re.search(r"^selftest: broken +FAILED .*ZeroDivisionError", out, re.M)
    assert not run.passed and run.summary() == "selftest: FAILED: broken (1 of 2 steps)"


@pytest.mark.slow
def test_selftest_from_source_passes_every_step(tmp_path):
    check(selftest([sys.executable, "-m", "ui"], tmp_path), "from source")


# CI builds the bundle first (.ci/run) and sets ANIMA_REQUIRE_BUNDLE: there a missing bundle fails, never skips.
if os.environ.get("ANIMA_REQUIRE_BUNDLE") == "1" and not BUNDLE.exists():
    raise RuntimeError(f"no bundle at {BUNDLE}, and ANIMA_REQUIRE_BUNDLE=1: `make dist` did not build it")
bundled = pytest.mark.skipif(not BUNDLE.exists(), reason=f"no bundle at {BUNDLE}: `make dist` builds one")


@bundled
@pytest.mark.slow
def test_the_bundle_passes_its_selftest_offscreen_with_no_python_around(tmp_path):
    check(selftest([str(BUNDLE)], tmp_path), "bundled")


@bundled
def test_the_bundle_says_its_version_and_runs_the_terminal_commands(tmp_path):
    def run(*args):
        return subprocess.run([str(BUNDLE), *args], capture_output=True, text=True, cwd=tmp_path, timeout=120)

    assert run("--version").stdout.strip() == f"Anima {__version__}"
    commands = run("cli", "--help")
    assert commands.returncode == 0 and "chat" in commands.stdout and "export" in commands.stdout
    internal = BUNDLE.parent / "_internal"
    left_out = [
        name for name in ("torch", "transformers", "sentence_transformers", "onnx") if (internal / name).exists()
    ]
    assert not left_out, f"the bundle carries {left_out}"
    assert (internal / "share" / "anima" / "all-MiniLM-L6-v2" / "model.onnx").is_file()
