"""`python -m anima bench store`: the crash loop, open time and write latency."""

import argparse

from .crashloop import run
from .report import emit, percentile, table


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench store")
    p.add_argument("--kills", type=int, default=120)
    args = p.parse_args(argv or [])
    r = run(args.kills)
    figures = {
        "kills": r.kills,
        "acknowledged_writes": r.acknowledged,
        "acknowledged_lost": r.acknowledged_lost,
        "integrity_failures": r.integrity_failures,
        "open_p50_ms": round(percentile(r.open_ms, 50), 2),
        "open_p95_ms": round(percentile(r.open_ms, 95), 2),
        "write_p50_ms": round(percentile(r.write_ms, 50), 2),
        "write_p95_ms": round(percentile(r.write_ms, 95), 2),
    }
    table(
        "store: SIGKILL crash loop on a real SQLCipher soul", ["figure", "value"], [[k, v] for k, v in figures.items()]
    )
    emit("store", figures)
    return 0 if r.acknowledged_lost == 0 and r.integrity_failures == 0 else 1
