"""The shape every benchmark prints: a table, then one JSON object as the last line.

llama-cpp-python silences the C library by pointing file descriptors 1 and 2 at
/dev/null while it loads a model; Python output buffered at that moment would
vanish. So reports go to a duplicate of the original stdout, taken at import,
line by line.
"""

import json
import os

_OUT = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")


def say(line: str = "") -> None:
    _OUT.write(line + "\n")


def table(title: str, headers: list[str], rows: list[list]) -> None:
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    say(f"\n{title}")
    say("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    say("  ".join("-" * w for w in widths))
    for r in cells:
        say("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)))


def emit(name: str, figures: dict) -> None:
    say(json.dumps({"bench": name, **figures}))


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"
    return str(v)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(q / 100 * (len(s) - 1)))]
