"""`python -m anima bench NAME`: runs a benchmark from the repository's bench/ folder."""

import importlib
import subprocess
import sys
from pathlib import Path

from .errors import KnownError

NAMES = (
    "store",
    "mind",
    "retrieval",
    "latency",
    "turn",
    "ui",
    "redteam",
    "reflection",
    "parts",
    "faults",
    "bundle",
    "scale",
    "learning",
    "limits",
)


def run(name: str, rest: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    if not (root / "bench").is_dir():
        raise KnownError(
            f"The benchmarks live in the repository's bench/ folder, which is not beside {root / 'anima'}."
        )
    sys.path.insert(0, str(root))
    names = NAMES if name == "all" else (name,)
    for n in names:
        if n not in NAMES:
            raise KnownError(f"No benchmark named {n!r}; there are: {', '.join(NAMES)}, all.")
    if name == "all":
        # Each in a process of its own: what one leaves behind (100,000 vectors, threads, a big heap for the
        # garbage collector to walk) must not slow the next one down.
        status = 0
        for n in names:
            sys.stdout.flush()
            status = max(status, subprocess.run([sys.executable, "-m", "anima", "bench", n, *rest]).returncode)
        return status
    return importlib.import_module(f"bench.{name}").main(rest) or 0
