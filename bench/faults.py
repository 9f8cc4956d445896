"""`python -m anima bench faults`: the soul under faults.

1. The kill loop over every write path (bench/killpaths.py): turns with learning and quick reflection, deep
   reflection, forgetting, export, import and passphrase changes, each SIGKILLed at a random moment; after each
   restart the checks listed there. `--kills N` (default 500).
2. A full disk at each step (bench/diskfull.py), on a real 8 MiB tmpfs (this needs root; without it the step is
   reported as not run, and tests/store/test_full_disk.py's simulated cases stand in).
3. Two programs writing one soul at once: how many "database is locked" reach the caller.

Last line: {"bench": "faults", "kills": N, "acknowledged_lost": x, "integrity_failures": x, "vectors_missing": x,
"locked_errors": x, "tracebacks": x}; the targets are N >= 500 and zeros.
"""

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "two programs passphrase"


def two_writers(home: str, count: int) -> None:
    """One of two programs: `count` writes, each its own transaction; prints how many failed as locked."""
    import sqlcipher3

    from anima.store import Home

    locked = other = 0
    soul = Home(home).unlock(PASSPHRASE)
    for i in range(count):
        try:
            with soul.transaction() as con:
                con.execute(
                    "INSERT INTO messages(session, role, content, created_at) VALUES (?, ?, ?, ?)",
                    (f"p{os.getpid()}", "user", f"write {i}", "2026-01-01"),
                )
            soul.set_meta(f"writer-{os.getpid()}", str(i))
        except sqlcipher3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                locked += 1
            else:
                other += 1
    soul.close()
    print(json.dumps({"locked": locked, "other": other}), flush=True)


def locked_errors(writes: int = 300) -> tuple[int, int, float]:
    """Two programs write one soul at once: (locked errors seen by the callers, rows missing, seconds)."""
    from anima.store import Home, keys

    os.environ[keys.INSECURE_TEST_COST_ENV] = "1"
    with tempfile.TemporaryDirectory(prefix="anima-two-") as tmp:
        home = Home(Path(tmp) / "home")
        home.create(PASSPHRASE).close()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        t = time.perf_counter()
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    f"from bench.faults import two_writers; two_writers({str(home.dir)!r}, {writes})",
                ],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=ROOT,
            )
            for _ in range(2)
        ]
        results = [json.loads(p.communicate()[0]) for p in procs]
        seconds = time.perf_counter() - t
        with home.unlock(PASSPHRASE) as soul:
            soul.check()
            rows = soul.query("SELECT count(*) AS n FROM messages")[0]["n"]
        locked = sum(r["locked"] + r["other"] for r in results)
        return locked, 2 * writes - locked - rows, seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m anima bench faults")
    ap.add_argument("--kills", type=int, default=500)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # the restarts' notices (partial files removed, items re-indexed) are counted
    from bench import diskfull, killpaths

    print(f"Kill loop: {args.kills} SIGKILLs over {', '.join(killpaths.PATHS)} …", flush=True)
    t = time.perf_counter()
    notes: list[str] = []

    def progress(r) -> None:
        if r.kills % 100 == 0:
            print(
                f"  {r.kills} kills, {time.perf_counter() - t:.0f} s: {r.acknowledged_lost} lost, "
                f"{r.integrity_failures} integrity failures, {r.tracebacks} tracebacks",
                flush=True,
            )

    k = killpaths.run(args.kills, seed=args.seed, log=notes.append, progress=progress)
    loop_s = time.perf_counter() - t
    print(f"{'path':<12} {'kills':>6}")
    for path in killpaths.PATHS:
        print(f"{path:<12} {k.kills_by_path[path]:>6}")
    ms = sorted(k.restart_ms)
    rows = [
        ("kills", k.kills),
        ("acknowledged writes", k.acknowledged),
        ("acknowledged lost", k.acknowledged_lost),
        ("forgotten items back", k.forgotten_back),
        ("integrity failures", k.integrity_failures),
        ("items without a vector at restart (re-indexed)", k.unindexed_at_restart),
        ("items without a vector after the restart", k.vectors_missing),
        ("partial files left in the homes", k.leftovers),
        ("exported cores that fail to read", k.bad_cores),
        ("tracebacks in the children", k.tracebacks),
        ("passphrase change cut short: opened with the old one", k.passphrase_opened["old"]),
        ("passphrase change cut short: opened with the new one", k.passphrase_opened["new"]),
        ("restart (unlock, check, reindex) median ms", round(ms[len(ms) // 2], 1) if ms else None),
        ("loop seconds", round(loop_s, 1)),
    ]
    for name, value in rows:
        print(f"  {name:<55} {value}")
    for note in notes[:10]:
        print(f"  ! {note[:500]}")

    print("\nA full disk at each step (a real 8 MiB tmpfs):", flush=True)
    disk_tracebacks = disk_failures = 0
    with diskfull.small_disk() as disk:
        if disk is None:
            print("  not run: mounting a tmpfs needs root (tests/store/test_full_disk.py simulates it)")
        else:
            os.environ["ANIMA_INSECURE_TEST_KDF"] = "1"
            for case in diskfull.run_cases(disk):
                disk_tracebacks += case.traceback
                disk_failures += not case.ok
                print(f"  {case.step:<18} {'ok' if case.ok else 'FAILED':<7} {case.said.splitlines()[0][:150]}")
                if case.traceback:
                    print("    " + case.said[-1500:].replace("\n", "\n    "))

    locked, missing, seconds = locked_errors()
    print(
        f"\nTwo programs writing one soul at once, 300 writes each: {locked} 'database is locked' reached the "
        f"callers, {missing} rows missing ({seconds:.1f} s)"
    )

    print(
        json.dumps(
            {
                "bench": "faults",
                "kills": k.kills,
                "acknowledged_lost": k.acknowledged_lost,
                "integrity_failures": k.integrity_failures + k.bad_cores,
                "vectors_missing": k.vectors_missing,
                "locked_errors": locked,
                "tracebacks": k.tracebacks + disk_tracebacks,
                "forgotten_back": k.forgotten_back,
                "leftovers": k.leftovers,
                "full_disk_cases_failed": disk_failures,
            }
        )
    )
    return 0
