"""`python -m anima bench latency`: recall latency at 1k, 10k and 100k memories, and ingest rate.

Embedding 100k texts takes a quarter of an hour on two cores, so the stored
memories are built from a few thousand real texts (LoCoMo turns) with varied
wording and jittered vectors. The queries are real questions, embedded inside
the timed path: each timing is one whole `Recall.search` as the turn calls it.
"""

import argparse
import random
import tempfile
import time

import numpy as np

from anima.knowledge.messages import Messages, NewMessage
from anima.models.embedder import MiniLMEmbedder
from anima.retrieval.indexer import Indexer
from anima.retrieval.recall import Recall
from anima.store import Home

from . import locomo
from .embeddings import CachedEmbedder
from .report import emit, percentile, say, table

PREFIXES = [
    "",
    "I remember that ",
    "They told me ",
    "Noted: ",
    "Earlier: ",
    "Once, ",
    "A while ago: ",
    "Worth keeping: ",
    "From our chat: ",
    "It came up that ",
]


def build(soul, indexer, texts, vectors, n, rng):
    """n memories: real texts re-worded, their real vectors jittered."""
    now = "2026-11-01T00:00:00+00:00"
    rows, vecs = [], []
    for i in range(n):
        j = i % len(texts)
        words = texts[j].split()
        if len(words) > 6:
            del words[rng.randrange(len(words))]
        rows.append((PREFIXES[i // len(texts) % len(PREFIXES)] + " ".join(words), now, now))
        v = vectors[j] + rng_np.normal(0, 0.02, vectors.shape[1]).astype(np.float32)
        vecs.append(v / np.linalg.norm(v))
    with soul.transaction() as con:
        con.executemany(
            "INSERT INTO memories(kind, content, source, valid_from, created_at) "
            "VALUES ('fact', ?, 'user_stated', ?, ?)",
            rows,
        )
        ids = [r[0] for r in con.execute("SELECT id FROM memories ORDER BY id")]
        matrix = np.vstack(vecs).astype("<f4")
        con.executemany(
            "INSERT INTO embeddings VALUES ('memory', ?, ?, ?, ?)",
            [(i, indexer.embedder.name, matrix.shape[1], matrix[k].tobytes()) for k, i in enumerate(ids)],
        )
    indexer.load()
    if len(indexer.index) >= indexer.index.APPROXIMATE_FROM:
        indexer.index.build()


rng_np = np.random.default_rng(0)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench latency")
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--base-texts", type=int, default=3000)
    args = p.parse_args(argv or [])
    rng = random.Random(0)
    data = locomo.load()
    texts = [t for _, t in locomo.turns(data)][: args.base_texts]
    questions = [q["question"] for item in data for q in item["qa"]][: args.queries]
    embedder = MiniLMEmbedder()
    t = time.perf_counter()
    cached = CachedEmbedder(embedder)  # the stored texts only: each query is embedded inside the timed path
    vectors = cached.embed_batch(texts)
    cached.save()
    # Most runs find the vectors in the cache (bench/embeddings.py): the time is a file read, not MiniLM's.
    took = time.perf_counter() - t
    say(f"read or embedded {len(texts)} base texts in {took:.1f} s ({cached.made} embedded, the rest read)")

    rows, last = [], {}
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
            soul = Home(tmp).create("bench passphrase")
            indexer = Indexer(soul, embedder)
            t = time.perf_counter()
            build(soul, indexer, texts, vectors, n, rng)
            built_s = time.perf_counter() - t
            recall = Recall(soul, indexer)
            for q in questions[:5]:
                recall.search(q, 10)  # warm caches
            times, agree = [], []
            for q in questions:
                t = time.perf_counter()
                recall.search(q, 10)
                times.append((time.perf_counter() - t) * 1000)
            # Apart from the timings: exact search's BLAS threads keep spinning a while after each call,
            # and would slow whatever is timed right after them.
            for q in questions:
                qv = embedder.embed(q)
                approx = {k for k, _ in indexer.index.search(qv, 10)}
                exact = {k for k, _ in indexer.index.search(qv, 10, exact=True)}
                agree.append(len(approx & exact) / 10)
            soul.close()
        last = {
            "memories": n,
            "p50_ms": round(percentile(times, 50), 2),
            "p95_ms": round(percentile(times, 95), 2),
            "recall_vs_exact@10": round(float(np.mean(agree)), 4),
        }
        rows.append(
            [
                n,
                last["p50_ms"],
                last["p95_ms"],
                last["recall_vs_exact@10"],
                "hnsw" if n >= indexer.index.APPROXIMATE_FROM else "exact",
                round(built_s, 1),
            ]
        )
        say(f"{n} memories: p50 {last['p50_ms']} ms, p95 {last['p95_ms']} ms")
    table(
        "latency: one recall (query embedding, BM25, vectors, fusion, re-rank), real questions",
        ["memories", "p50_ms", "p95_ms", "recall_vs_exact@10", "vectors", "build_s"],
        rows,
    )

    # Ingest: the app's path for storing messages against the bare embedder on the same texts.
    sample = texts[:1000]
    bare_rates, our_rates = [], []
    for _ in range(2):  # alternated, so neither always runs on a warmer machine
        t = time.perf_counter()
        for i in range(0, len(sample), 64):
            embedder.embed_batch(sample[i : i + 64])
        bare_rates.append(len(sample) / (time.perf_counter() - t))
        with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
            soul = Home(tmp).create("bench passphrase")
            conversation = Messages(soul, Indexer(soul, embedder))
            t = time.perf_counter()
            for i in range(0, len(sample), 64):
                conversation.record_many([NewMessage("user", s) for s in sample[i : i + 64]])
            our_rates.append(len(sample) / (time.perf_counter() - t))
            soul.close()
    bare, ours = max(bare_rates), max(our_rates)
    table(
        "ingest: storing 1,000 messages (SQLCipher, FTS, vectors) against the bare embedder",
        ["path", "per_s"],
        [["bare embedder", round(bare, 1)], ["anima ingest", round(ours, 1)], ["ratio", round(ours / bare, 3)]],
    )
    emit(
        "latency",
        {
            **last,
            "ingest_per_s": round(ours, 1),
            "bare_embed_per_s": round(bare, 1),
            "ingest_ratio": round(ours / bare, 3),
        },
    )
    return 0
