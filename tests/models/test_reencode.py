"""The bundled model runs from a Q8_0 copy: the same model to within rounding, made once, and never in the way."""

import json
import logging
import os
import time
from pathlib import Path

import numpy as np
import pytest

from anima.models.defaults import default_gguf
from anima.models.llama import LlamaChatModel
from anima.models.reencode import ReencodeFailed, copy_path, reencoded

EVAL = Path(__file__).resolve().parents[3] / "shared" / "eval" / "locomo_dev.json"


def dialogue(chars: int = 5000) -> str:
    """Real conversation text (the LoCoMo dev split) when it is at hand, else a written one."""
    if EVAL.is_file():
        conv = json.loads(EVAL.read_text())[0]["conversation"]
        lines = [
            f"{t['speaker']}: {t['text']}"
            for k, v in conv.items()
            if k.startswith("session_") and isinstance(v, list)
            for t in v
        ]
    else:
        lines = [
            f"Sam: I started painting again on {day}. The blue one is for my sister, she moves to Oslo soon."
            for day in ("Monday", "Tuesday", "Friday", "Sunday")
        ] * 20
    return "\n".join(lines)[:chars]


def predictions(path: Path, text: str):
    import llama_cpp

    llm = llama_cpp.Llama(str(path), n_ctx=2048, logits_all=True, verbose=False)
    try:
        tokens = llm.tokenize(text.encode())[:1200]
        llm.eval(tokens)
        scores = np.array(llm.scores[: len(tokens)], dtype=np.float64)
    finally:
        llm.close()
    top = scores.max(axis=1, keepdims=True)
    logp = scores - top - np.log(np.exp(scores - top).sum(axis=1, keepdims=True))
    nll = -np.mean([logp[i, tokens[i + 1]] for i in range(len(tokens) - 1)])
    return scores.argmax(axis=1), float(np.exp(nll))


@pytest.mark.slow  # re-encodes the real model
def test_the_copy_predicts_what_the_shipped_model_predicts(tmp_path):
    copy = reencoded(default_gguf(), tmp_path)
    text = dialogue()
    ours, ours_ppl = predictions(copy, text)
    shipped, shipped_ppl = predictions(default_gguf(), text)
    assert (ours == shipped).mean() >= 0.9
    assert abs(ours_ppl - shipped_ppl) / shipped_ppl < 0.01


@pytest.mark.slow  # re-encodes the real model
def test_the_copy_is_made_once_and_replaces_an_older_one(tmp_path):
    stale = tmp_path / f"{default_gguf().stem}.1-2.Q8_0.gguf"  # the copy of a since reinstalled package
    stale.write_bytes(b"old")
    abandoned = tmp_path / f"{default_gguf().stem}.1-2.Q8_0.gguf.99-1.partial"  # a making cut short long ago
    abandoned.write_bytes(b"half")
    os.utime(abandoned, (time.time() - 3600, time.time() - 3600))
    first = reencoded(default_gguf(), tmp_path)
    made = first.stat().st_mtime_ns
    assert reencoded(default_gguf(), tmp_path) == first and first.stat().st_mtime_ns == made
    assert not stale.exists() and not abandoned.exists()
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no partial file left behind


def test_no_room_for_the_copy_is_a_clear_error(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    with pytest.raises(ReencodeFailed, match="no room"):
        reencoded(default_gguf(), blocked / "models")


@pytest.mark.slow  # the real model
def test_without_a_copy_the_default_model_runs_from_the_original(tmp_path, monkeypatch, caplog):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("ANIMA_CACHE", str(blocked))
    model = LlamaChatModel(seed=1).start_loading()
    try:
        with caplog.at_level(logging.WARNING):
            reply = model.stream([{"role": "user", "content": "Say hello."}], max_tokens=8).read()
        assert reply.strip()
        assert model.running_from == default_gguf()
        assert "using the original" in caplog.text
    finally:
        model.close()


@pytest.mark.slow  # the real model
def test_a_damaged_copy_is_set_aside_and_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ANIMA_CACHE", str(tmp_path))
    damaged = copy_path(default_gguf())
    damaged.parent.mkdir(parents=True)
    with open(default_gguf(), "rb") as f:
        damaged.write_bytes(f.read(4_000_000))  # a GGUF cut short
    model = LlamaChatModel(seed=1).start_loading()
    try:
        assert model.stream([{"role": "user", "content": "Say hello."}], max_tokens=8).read().strip()
        assert model.running_from == default_gguf() and not damaged.exists()
    finally:
        model.close()
    again = LlamaChatModel(seed=1).start_loading()
    try:
        again.llama
        assert again.running_from == damaged and damaged.stat().st_size > 100_000_000
    finally:
        again.close()
