"""`python -m anima bench ui`: launch to first paint against a bare PySide6 window, and event-loop stalls.

Stalls are measured with a 5 ms timer on the UI thread: any gap beyond its
interval is time the window could not respond, while a reply streams on the
real default model and while long background jobs run (an import, re-indexing).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from .report import emit, percentile, table

if TYPE_CHECKING:
    from anima.models.llama import LlamaChatModel

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "bench passphrase"


def painted_ms(command: list[str], env: dict, timeout: float = 300) -> float:
    """From starting a process to its saying that its window painted (not to the process's exit): bench.ui_child,
    or a bundle's --first-paint."""
    t = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert child.stdout is not None  # stdout=PIPE
    line = child.stdout.readline()
    elapsed = (time.perf_counter() - t) * 1000
    _, err = child.communicate(timeout=timeout)
    if line.strip() != "painted":
        raise RuntimeError(f"{' '.join(command)}: the window never painted: {err[-2000:]}")
    return elapsed


def launch_ms(mode: str, env: dict) -> float:
    return painted_ms([sys.executable, "-m", "bench.ui_child", mode], env)


class StallMeter:
    INTERVAL_MS = 5

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self.last = time.perf_counter()
        self.timer = QTimer(interval=self.INTERVAL_MS)
        self.timer.timeout.connect(self.tick)

    def tick(self):
        now = time.perf_counter()
        self.gaps.append(max(0.0, (now - self.last) * 1000 - self.INTERVAL_MS))
        self.last = now

    def run_until(self, app, done, limit_s=600):
        self.gaps, self.last = [], time.perf_counter()
        self.timer.start()
        end = time.monotonic() + limit_s
        while not done() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.001)
        self.timer.stop()
        return list(self.gaps)


TABLE_ROWS = 2000  # the Memories view of a soul some months old


def table_fill_ms(app, kind: str, repeats: int = 5) -> float:
    """Median ms to fill a 7-column table of TABLE_ROWS rows and paint it: Anima's RowTable (ui/mind/table_view.py),
    or the reference, a QTableWidget with an item per cell and Qt's resizeColumnsToContents (what the Open Mind
    did before)."""
    from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem

    from ui.mind.table_view import row_table

    columns = ("memory", "from", "source", "true from", "until", "superseded by", "importance")
    rows = [
        (
            f"Ada mentioned thing number {i}, and a longer sentence about why it matters to her",
            f"you said it, message #{i}",
            "you said it",
            "2026-05-11",
            "",
            "",
            "0.50",
        )
        for i in range(TABLE_ROWS)
    ]
    table: QAbstractItemView
    if kind == "anima":
        table = anima = row_table(columns)

        def fill() -> None:
            anima.fill(rows, lambda r: r)

    else:
        table = reference = QTableWidget(0, len(columns))
        reference.setHorizontalHeaderLabels(columns)

        def fill() -> None:
            reference.setRowCount(len(rows))
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    reference.setItem(i, j, QTableWidgetItem(value))
            reference.resizeColumnsToContents()

    table.resize(900, 600)
    table.show()
    app.processEvents()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fill()
        app.processEvents()  # painted
        times.append((time.perf_counter() - t) * 1000)
    table.close()
    return statistics.median(times)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench ui")
    p.add_argument("--launches", type=int, default=3)
    args = p.parse_args(argv or [])
    tmp = tempfile.TemporaryDirectory(prefix="anima-bench-ui-")
    home_dir = Path(tmp.name) / "home"
    env = {
        **os.environ,
        "ANIMA_HOME": str(home_dir),
        "ANIMA_PASSPHRASE": PASSPHRASE,
        "ANIMA_SETTINGS": str(Path(tmp.name) / "settings.json"),
        "PYTHONPATH": str(ROOT),
    }
    from anima.store import Home

    Home(home_dir).create(PASSPHRASE, name="Anima").close()

    bare = [launch_ms("bare", env) for _ in range(args.launches)]
    anima = [launch_ms("anima", env) for _ in range(args.launches)]
    ready = [launch_ms("anima-ready", env) for _ in range(args.launches)]

    os.environ.update({k: env[k] for k in ("ANIMA_HOME", "ANIMA_PASSPHRASE", "ANIMA_SETTINGS")})
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from ui import tasks
    from ui.app import start

    window = start()
    meter = StallMeter()
    meter.run_until(app, lambda: window.companion is not None, limit_s=120)
    companion = window.companion
    if companion is None:  # was an AttributeError on None: said, not hidden
        raise RuntimeError("the window opened no companion in 120 s")
    companion.start_background()
    # Wait for the models (the default one: the settings are new): the stream, not the load, is measured here.
    cast("LlamaChatModel", companion.chat).llama
    companion.embedder.embed("warm up")
    companion.indexer_thread.join()

    meter.run_until(app, lambda: not window.reading_history)  # a message sent before waits for it
    window.send("Tell me a long story about a cat who learns to paint.")
    streaming = meter.run_until(app, lambda: window.worker is None)

    from anima.knowledge.messages import NewMessage
    from bench import locomo

    turns = [t for _, t in locomo.turns(locomo.load())][:1500]
    companion.messages.record_many([NewMessage("user", t) for t in turns])
    core = Path(tmp.name) / "soul.anima"
    companion.export_core(core, "export passphrase")
    done: list[object] = []
    target = Home(Path(tmp.name) / "other")
    tasks.run(lambda: target.import_core(core, "export passphrase", PASSPHRASE), done.append, lambda e: done.append(e))
    importing = meter.run_until(app, lambda: bool(done))
    with companion.soul.transaction() as con:
        con.execute("DELETE FROM embeddings")
    done.clear()
    tasks.run(companion.indexer.reindex_missing, done.append, lambda e: done.append(e))
    reindexing = meter.run_until(app, lambda: bool(done))
    window.close()
    companion.close()
    companion.chat.close()
    tmp.cleanup()
    fill_reference, fill_anima = table_fill_ms(app, "reference"), table_fill_ms(app, "anima")

    rows = []
    for name, gaps in (
        ("reply streaming", streaming),
        ("import of 1,500 turns", importing),
        ("re-indexing 1,500 turns", reindexing),
    ):
        rows.append([name, len(gaps), round(max(gaps), 1), round(percentile(gaps, 99), 1)])
    table(
        "ui: launch to first painted window (median)",
        ["window", "ms"],
        [
            ["bare PySide6", round(statistics.median(bare), 1)],
            ["Anima", round(statistics.median(anima), 1)],
            ["ratio", round(statistics.median(anima) / statistics.median(bare), 2)],
            ["Anima, soul unlocked and shown", round(statistics.median(ready), 1)],
        ],
    )
    table("ui: event-loop stalls beyond a 5 ms timer", ["while", "ticks", "max_ms", "p99_ms"], rows)
    table(
        f"ui: a table of {TABLE_ROWS:,} rows filled and painted (median of 5)",
        ["table", "ms"],
        [
            ["QTableWidget, an item per cell, resizeColumnsToContents (reference)", round(fill_reference, 1)],
            ["Anima's RowTable (the Open Mind's cards)", round(fill_anima, 1)],
        ],
    )
    all_gaps = streaming + importing + reindexing
    emit(
        "ui",
        {
            "bare_ms": round(statistics.median(bare), 1),
            "anima_ms": round(statistics.median(anima), 1),
            "startup_ratio": round(statistics.median(anima) / statistics.median(bare), 2),
            "anima_ready_ms": round(statistics.median(ready), 1),
            "max_stall_ms": round(max(all_gaps), 1),
            "p99_stall_ms": round(percentile(all_gaps, 99), 1),
            "table_fill_ms": round(fill_anima, 1),
            "table_fill_ms_reference": round(fill_reference, 1),
        },
    )
    return 0
