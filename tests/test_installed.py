"""An installed copy (a wheel, not the repository) holds everything a turn reads, resources/ included.

The wheel is built from a clean copy of the sources (a `build/` folder left in the repository could
carry files that no longer exist) and installed, not editable, into a fresh venv. That venv borrows
the dependencies already installed here through a .pth file placed after its own site-packages, so
the wheel's `anima` is the one imported; the child checks that. Then one real turn runs there, on
the default model and embedder, from a folder outside the repository.
"""

import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "correct horse battery staple"


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", source)
    for package in ("anima", "ui"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = tmp_path / "wheels"
    # No build isolation: the setuptools installed here builds it, and nothing is downloaded.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(source),
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            str(wheels),
        ],
        check=True,
        cwd=tmp_path,
        timeout=300,
    )
    [wheel] = wheels.glob("anima-*.whl")
    return wheel


def fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", purelib, str(wheel)],
        check=True,
        timeout=300,
    )
    # Lines of a .pth file are appended to sys.path after the venv's own site-packages, where the wheel is.
    # (A .pth file in a listed folder is not run, so the editable install's finder stays out.)
    here = dict.fromkeys([*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (Path(purelib) / "borrowed-dependencies.pth").write_text("".join(f"{p}\n" for p in here), encoding="utf-8")
    return python


@pytest.mark.slow
def test_a_wheel_installed_elsewhere_runs_a_real_turn(tmp_path, anima_home, anima_cache):
    wheel = build_wheel(tmp_path)
    python = fresh_venv(tmp_path, wheel)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {
        **os.environ,
        "ANIMA_HOME": str(anima_home),
        "ANIMA_PASSPHRASE": PASSPHRASE,
        "ANIMA_NAME": "Anima",
        "ANIMA_CACHE": str(anima_cache),
    }
    env.pop("PYTHONPATH", None)

    def child(*args, stdin=""):
        done = subprocess.run(
            [str(python), *args], input=stdin, capture_output=True, text=True, env=env, cwd=outside, timeout=240
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = child("-c", "import anima, ui; print(anima.__file__); print(ui.__file__)").split()
    assert all(Path(p).is_relative_to(tmp_path / "venv") for p in where), where
    guardrails = child("-c", "from anima.self.selfmodel import shipped; print(shipped('guardrails'))")
    assert guardrails.strip() == (ROOT / "anima" / "resources" / "guardrails.md").read_text(encoding="utf-8").strip()
    packs = child(
        "-c", "from anima.parts import packs; print(*(packs.read(p)['name'] for p in packs.shipped()), sep='|')"
    )
    assert set(packs.strip().split("|")) == {"Personal assistant", "Villain NPC"}  # the part schema and packs ship

    reply = child("-m", "anima", "chat", stdin="Hello, my name is Ada.\n")
    assert reply.strip(), "no reply was printed"
