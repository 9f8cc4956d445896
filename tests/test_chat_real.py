"""`python -m anima chat` on the real default model and the real embedder, across two sessions."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # `python -m anima chat` on the real model and embedder

ROOT = Path(__file__).resolve().parent.parent


def run(args, stdin="", env=None):
    full = {**os.environ, "ANIMA_PASSPHRASE": "pw for the chat test", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "anima", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=full,
        cwd=ROOT,
        timeout=600,
    )


def test_a_conversation_recalls_a_fact_from_an_earlier_session(anima_home, tmp_path):
    first = run(["chat", "--temperature", "0"], "Hi! I have a cat named Miso.\nI work as a nurse in Leeds.\n")
    assert first.returncode == 0, first.stderr
    replies = [line for line in first.stdout.splitlines() if line.strip()]
    assert len(replies) >= 2  # one reply per line of input, printed as it streams

    second = run(["chat", "--temperature", "0"], "What is the name of my cat?\n")
    assert second.returncode == 0, second.stderr
    assert "Miso" in second.stdout

    found = run(["recall", "cat name", "--json", "--k", "3"])
    assert found.returncode == 0, found.stderr
    items = json.loads(found.stdout)
    assert any("Miso" in i["text"] for i in items)
    assert all({"bm25_rank", "vector_rank", "rrf", "final"} <= set(i["components"]) for i in items)

    md = tmp_path / "mind"
    out = run(["export", "--markdown", str(md)])
    assert out.returncode == 0 and "NOT encrypted" in out.stderr
    assert (md / "SELF.md").read_text().startswith("# Anima")
