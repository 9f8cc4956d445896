"""`python -m anima bench NAME`: runs a benchmark from the repository's bench/ folder."""

import importlib
import sys
from pathlib import Path

from .errors import KnownError

NAMES = ("store", "mind", "retrieval", "latency", "turn", "ui")


def run(name: str, rest: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    if not (root / "bench").is_dir():
        raise KnownError(f"The benchmarks live in the repository's bench/ folder, which is not beside {root / 'anima'}.")
    sys.path.insert(0, str(root))
    names = NAMES if name == "all" else (name,)
    for n in names:
        if n not in NAMES:
            raise KnownError(f"No benchmark named {n!r}; there are: {', '.join(NAMES)}, all.")
    status = 0
    for n in names:
        status = max(status, importlib.import_module(f"bench.{n}").main(rest) or 0)
    return status
