"""The crash loop: a writer process is SIGKILLed mid-write, again and again.

After each kill the soul must open, pass `PRAGMA integrity_check` and
`PRAGMA cipher_integrity_check`, and hold every write the writer had
acknowledged (printed after its commit returned). Used by `bench store`
(hundreds of kills) and by the tests (tens). This writer only adds messages
and vectors; bench/killpaths.py kills every other write path too (turns,
learning and reflection, forgetting, export, import, passphrase changes), for
`bench faults`.
"""

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PASSPHRASE = "crash-loop passphrase"


@dataclass
class CrashResults:
    kills: int = 0
    acknowledged: int = 0
    acknowledged_lost: int = 0
    integrity_failures: int = 0
    open_ms: list[float] = field(default_factory=list)
    write_ms: list[float] = field(default_factory=list)


def writer(home: str) -> None:
    """Write forever, printing 'ack N ms' after each committed write."""
    from anima.store import Home

    soul = Home(home).unlock(PASSPHRASE)
    n = int(soul.query("SELECT count(*) AS n FROM messages")[0]["n"])
    print("ready", flush=True)
    body = "x" * 3000
    while True:
        n += 1
        t = time.perf_counter()
        soul.add("message", "user", session="crash", role="user", content=f"ack-{n} {body}", created_at="2026-01-01")
        soul.put_vector("message", n, "crash", [float(n)] * 384)
        ms = (time.perf_counter() - t) * 1000
        print(f"ack {n} {ms:.3f}", flush=True)


def run(kills: int, seed: int = 7, home: str | None = None) -> CrashResults:
    from anima.store import Home

    rng = random.Random(seed)
    tmp = None
    if home is None:
        tmp = tempfile.TemporaryDirectory(prefix="anima-crash-")
        home = tmp.name
    Home(home).create(PASSPHRASE).close()
    res = CrashResults()
    acked: set[int] = set()
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    try:
        for _ in range(kills):
            proc = subprocess.Popen(
                [sys.executable, "-c", f"from bench.crashloop import writer; writer({home!r})"],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=root,
            )
            out = proc.stdout
            assert out is not None  # stdout=PIPE
            line = out.readline()
            if line.strip() != "ready":
                proc.kill()
                raise RuntimeError(f"crash writer failed to start: {line!r}")
            lines: list[str] = []
            reader = threading.Thread(target=lines.extend, args=(out,), daemon=True)
            reader.start()
            time.sleep(rng.uniform(0.02, 0.6))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            reader.join()
            out.close()
            for entry in lines:
                parts = entry.split()
                # Only a whole line is an acknowledgement: the kill can cut one short.
                if len(parts) == 3 and parts[0] == "ack" and entry.endswith("\n"):
                    acked.add(int(parts[1]))
                    res.write_ms.append(float(parts[2]))
            res.kills += 1
            t = time.perf_counter()
            soul = Home(home).unlock(PASSPHRASE)
            res.open_ms.append((time.perf_counter() - t) * 1000)
            try:
                soul.check()
            except Exception:
                res.integrity_failures += 1
            present = {int(r["content"].split()[0][4:]) for r in soul.query("SELECT content FROM messages")}
            res.acknowledged_lost = len(acked - present)
            soul.close()
        res.acknowledged = len(acked)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return res
