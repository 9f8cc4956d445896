"""`python -m anima bench retrieval --locomo PATH`: evidence recall on LoCoMo-format conversations.

Each conversation goes into a fresh temporary encrypted soul through the path
the app stores messages by (each turn stamped with its session's date); each
question of categories 1-4 is asked through the recall the turn uses.
"""

import argparse
import tempfile
import time
from datetime import UTC, datetime

from anima.knowledge.messages import Messages, NewMessage
from anima.models.embedder import MiniLMEmbedder
from anima.retrieval.indexer import Indexer
from anima.retrieval.recall import Recall
from anima.store import Home

from . import locomo
from .embeddings import CachedEmbedder
from .report import emit, table

KS = (1, 5, 10, 20)


def session_time(text: str) -> str:
    """'1:56 pm on 8 May, 2023' -> ISO time."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC).isoformat()


def ingest(conv: dict, conversation: Messages) -> tuple[dict[int, str], str]:
    messages: list[NewMessage] = []
    dia_ids: list[str] = []
    n, last = 1, None
    while f"session_{n}" in conv:
        at = session_time(conv[f"session_{n}_date_time"])
        last = at
        for t in conv[f"session_{n}"]:
            text = t["text"] + (f" [shares {t['blip_caption']}]" if t.get("blip_caption") else "")
            role = "user" if t["speaker"] == conv["speaker_a"] else "companion"
            messages.append(NewMessage(role, text, t["speaker"], at, f"session_{n}"))
            dia_ids.append(t["dia_id"])
        n += 1
    ids = []
    for i in range(0, len(messages), 128):
        ids += conversation.record_many(messages[i : i + 128])
    if last is None:  # was a TypeError in datetime.fromisoformat(None) below; said, not hidden
        raise ValueError("a conversation with no sessions")
    return dict(zip(ids, dia_ids, strict=True)), last  # one id for each message recorded


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench retrieval")
    p.add_argument("--locomo", help="LoCoMo-format file (default: ../shared/eval/locomo_dev.json)")
    p.add_argument("--conversations", help="only these, by sample_id, comma-separated (a split: conv-26,conv-43)")
    args = p.parse_args(argv or [])
    data = locomo.load(args.locomo)
    if args.conversations:
        wanted = args.conversations.split(",")
        data = [item for item in data if item.get("sample_id") in wanted]
        if len(data) != len(wanted):
            raise SystemExit(f"not all of {wanted} are in the data")
    embedder = CachedEmbedder(MiniLMEmbedder().start_loading())
    hits: dict[int, list[float]] = {k: [] for k in KS}
    per_category: dict[int, dict[int, list[float]]] = {}
    t0 = time.perf_counter()
    for item in data:
        with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
            soul = Home(tmp).create("bench passphrase")
            indexer = Indexer(soul, embedder)
            by_id, last = ingest(item["conversation"], Messages(soul, indexer))
            recall = Recall(soul, indexer)
            now = datetime.fromisoformat(last)
            for qa in item["qa"]:
                if qa.get("category") not in (1, 2, 3, 4) or not qa.get("evidence"):
                    continue
                evidence = set(qa["evidence"])
                found = [by_id[r.id] for r in recall.search(qa["question"], max(KS), kinds=("message",), now=now)]
                for k in KS:
                    hits[k].append(len(evidence & set(found[:k])) / len(evidence))
                by_k = per_category.setdefault(qa["category"], {5: [], 10: []})
                for k, got in by_k.items():
                    got.append(len(evidence & set(found[:k])) / len(evidence))
            soul.close()
        embedder.save()
    n = len(hits[1])
    figures = {"questions": n, **{f"recall@{k}": round(sum(v) / n, 3) for k, v in hits.items()}}
    table(
        f"retrieval: turn-level evidence recall, {len(data)} conversations, {n} questions "
        f"({time.perf_counter() - t0:.0f} s)",
        ["k", "recall"],
        [[k, figures[f"recall@{k}"]] for k in KS],
    )
    table(
        "recall by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)",
        ["category", "questions", "recall@5", "recall@10"],
        [[c, len(v[10]), *(round(sum(v[k]) / len(v[k]), 3) for k in (5, 10))] for c, v in sorted(per_category.items())],
    )
    emit("retrieval", figures)
    return 0
