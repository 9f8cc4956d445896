"""`python -m anima bench bundle`: the bundle's size and largest parts, its time to a painted window against the
same from source (and a bare PySide6 window), and resident memory after one turn: the bundle's, and from source
with the embedder on ONNX Runtime and on torch (what the app held before torch was dropped).

Needs a bundle in dist/anima (`make dist`); without one it measures the source only and says so.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .report import emit, say, table
from .ui import painted_ms

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BUNDLE = DIST / "anima" / "anima"
PASSPHRASE = "bench passphrase"
MB = 1024 * 1024


def size(path: Path) -> int:
    if path.is_file() or path.is_symlink():
        return path.lstat().st_size
    return sum(f.lstat().st_size for f in path.rglob("*") if f.is_file() or f.is_symlink())


def largest(folder: Path, n: int) -> list[tuple[str, int]]:
    """The biggest entries two levels down (a package's folder, or a file beside the executable)."""
    parts: list[tuple[str, int]] = []
    for top in folder.iterdir():
        inner = list(top.iterdir()) if top.is_dir() and top.name in ("_internal", "PySide6", "Qt") else [top]
        for p in inner:
            if p.is_dir() and p.name == "PySide6":
                parts.extend((str(q.relative_to(folder)), size(q)) for q in (p / "Qt").iterdir())
                parts.extend((str(q.relative_to(folder)), size(q)) for q in p.iterdir() if q.name != "Qt")
            else:
                parts.append((str(p.relative_to(folder)), size(p)))
    return sorted(parts, key=lambda x: -x[1])[:n]


def selftest(command: list[str], env: dict) -> dict:
    """Runs a selftest; returns its steps' seconds and the resident memory the turn step reported."""
    done = subprocess.run(
        command, capture_output=True, text=True, env={**env, "QT_QPA_PLATFORM": "offscreen"}, cwd=ROOT, timeout=900
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    rss = re.search(r"^selftest: turn .* resident (\d+) MB$", done.stdout, re.M)
    runtime = re.search(r"through (\w+)$", done.stdout, re.M)
    if rss is None or runtime is None:  # was a TypeError on None: said, not hidden
        raise RuntimeError(f"{' '.join(command)} did not say its memory or its embedder:\n{done.stdout}")
    steps = {m[1]: float(m[2]) for m in re.finditer(r"^selftest: (\w+) +ok +([\d.]+) s", done.stdout, re.M)}
    return {"rss_mb": int(rss[1]), "embedder": runtime[1], "steps": steps}


def child_with_torch() -> int:
    """The selftest from source with the ONNX file hidden: the embedder falls back to torch, as it ran before."""
    from anima.models import embedder

    embedder.onnx_dir = lambda: Path("/nonexistent")
    from ui.selftest import main

    return main()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench bundle")
    p.add_argument("--launches", type=int, default=3)
    p.add_argument("--child-torch", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv or [])
    if args.child_torch:
        return child_with_torch()
    have_bundle = BUNDLE.exists()
    figures: dict = {"bundle": have_bundle}

    if have_bundle:
        folder = BUNDLE.parent
        total = size(folder)
        tarballs = sorted(DIST.glob("anima-*.tar.gz"))
        figures.update(size_mb=round(total / MB, 1), tarball_mb=round(size(tarballs[-1]) / MB, 1) if tarballs else None)
        parts = largest(folder, 12)
        table(
            f"bundle: {folder} ({total / MB:.0f} MB), its largest parts",
            ["part", "MB"],
            [[name, round(n / MB, 1)] for name, n in parts],
        )
        figures["largest_mb"] = {name: round(n / MB, 1) for name, n in parts[:6]}
    else:
        say(f"\nNo bundle at {BUNDLE}: `make dist` builds one. Measuring from source only.")

    tmp = tempfile.TemporaryDirectory(prefix="anima-bench-bundle-")
    home = Path(tmp.name) / "home"
    env = {
        **os.environ,
        "ANIMA_HOME": str(home),
        "ANIMA_PASSPHRASE": PASSPHRASE,
        "ANIMA_SETTINGS": str(Path(tmp.name) / "settings.json"),
        "ANIMA_CACHE": str(Path(tmp.name) / "cache"),
        "PYTHONPATH": str(ROOT),
    }
    from anima.store import Home

    Home(home).create(PASSPHRASE, name="Anima").close()
    commands = {
        "bare PySide6 (source)": [sys.executable, "-m", "bench.ui_child", "bare"],
        "Anima from source": [sys.executable, "-m", "ui", "--first-paint"],
    }
    if have_bundle:
        commands["Anima bundle"] = [str(BUNDLE), "--first-paint"]
    launches = {
        name: statistics.median(painted_ms(c, env) for _ in range(args.launches)) for name, c in commands.items()
    }
    rows = [[name, round(ms, 1)] for name, ms in launches.items()]
    if have_bundle:
        rows.append(["ratio bundle / source", round(launches["Anima bundle"] / launches["Anima from source"], 2)])
    table(f"bundle: process start to first painted window (median of {args.launches})", ["window", "ms"], rows)
    figures.update(
        bare_ms=round(launches["bare PySide6 (source)"], 1), source_paint_ms=round(launches["Anima from source"], 1)
    )
    if have_bundle:
        figures.update(
            bundle_paint_ms=round(launches["Anima bundle"], 1),
            bundle_vs_source=round(launches["Anima bundle"] / launches["Anima from source"], 2),
        )

    runs = {
        "from source, embedder on ONNX Runtime": selftest([sys.executable, "-m", "ui", "--selftest"], env),
        "from source, embedder on torch (before)": selftest(
            [sys.executable, "-m", "bench.bundle", "--child-torch"], env
        ),
    }
    if have_bundle:
        runs["bundle"] = selftest([str(BUNDLE), "--selftest"], env)
    table(
        "bundle: resident memory after one turn (selftest, real models)",
        ["run", "embedder", "MB", "unlock_s", "turn_s"],
        [
            [name, r["embedder"], r["rss_mb"], r["steps"].get("unlock"), r["steps"].get("turn")]
            for name, r in runs.items()
        ],
    )
    figures.update(
        rss_source_onnx_mb=runs["from source, embedder on ONNX Runtime"]["rss_mb"],
        rss_source_torch_mb=runs["from source, embedder on torch (before)"]["rss_mb"],
    )
    if have_bundle:
        figures["rss_bundle_mb"] = runs["bundle"]["rss_mb"]
    tmp.cleanup()
    emit("bundle", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
