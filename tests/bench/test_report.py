"""Every benchmark prints a readable table, then one JSON object as its very last line, even while llama.cpp has
pointed file descriptor 1 at /dev/null."""

import json
import subprocess
import sys

from bench.report import percentile
from tests.bench.running import ROOT

PRINTS = """
import os
from bench.report import emit, say, table
table("latency", ["size", "ms"], [[1000, 0.51234], [100000, 123.456]])
silenced = os.dup(1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # as llama-cpp-python does while it loads a model
print("lost, as the C library's output is")
say("still said")
emit("latency", {"p95_ms": 1.5, "sizes": [1000]})
"""


def test_the_table_comes_first_and_the_json_object_last_even_with_stdout_silenced():
    done = subprocess.run([sys.executable, "-c", PRINTS], capture_output=True, text=True, cwd=ROOT, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    # Each column as wide as its widest cell; three decimals below 100, one above.
    assert lines[1:6] == ["latency", "size    ms   ", "------  -----", "1000    0.512", "100000  123.5"]
    assert lines[-2] == "still said" and "lost" not in done.stdout
    assert json.loads(lines[-1]) == {"bench": "latency", "p95_ms": 1.5, "sizes": [1000]}


def test_a_percentile_is_a_value_of_the_sample_and_none_of_no_sample_is_nan():
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95) == 5.0 and percentile([7.0], 99) == 7.0
    nan = percentile([], 95)
    assert nan != nan
