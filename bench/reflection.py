"""`python -m anima bench reflection`: what thinking between conversations costs on the default model, and
whether the person notices it.

- quick_s: one quick reflection after a turn (the median of a few), as the reflector runs it;
- deep_s_200: deep reflection over a day of 200 messages (real LoCoMo turns, one speaker as the person and
  the other as the companion), every step and the consideration after it;
- the reply's time to first token with deep reflection running (the turn pre-empts it: the model stops at its
  next token and puts the conversation back) against the same with it idle, same companion, same run,
  alternated. The turn is sent at several points into a deep-reflection call, since pre-emption waits for
  whatever the model is doing when it comes (reading a prompt is not interrupted mid-batch).
Last line: {"bench": "reflection", "quick_s": x, "deep_s_200": x, "reply_latency_ratio_during_deep": x}.
"""

import argparse
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta

from anima.companion import Companion
from anima.models.embedder import MiniLMEmbedder
from anima.models.llama import LlamaChatModel
from anima.store import Home

from . import locomo
from .first_token import FirstToken
from .report import emit, say, table

QUESTIONS = [
    "How was your weekend?",
    "What should I cook tonight?",
    "I'm thinking about a new hobby.",
    "Work was long today.",
    "Do you remember my sister's name?",
    "Any tips for sleeping better?",
]


def day_of(data, n: int) -> list[tuple[str, str]]:
    """`n` real turns as (role, text): the first speaker of each conversation is the person."""
    out, first = [], None
    for speaker, text in locomo.turns(data):
        first = first or speaker
        out.append(("user" if speaker == first else "companion", text))
        if len(out) == n:
            break
    return out


def record_day(c: Companion, turns: list[tuple[str, str]], start: datetime) -> None:
    for i, (role, text) in enumerate(turns):
        c.messages.record(role, text, at=(start + timedelta(minutes=4 * i)).isoformat(timespec="microseconds"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench reflection")
    p.add_argument("--messages", type=int, default=200)
    p.add_argument("--quick-runs", type=int, default=3)
    p.add_argument("--offsets", default="2,6,12", help="seconds into a deep-reflection call to send the turn at")
    args = p.parse_args(argv or [])
    data = locomo.load()
    chat = LlamaChatModel().start_loading()
    embedder = MiniLMEmbedder().start_loading()
    with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
        c = Companion.create(Home(tmp), "bench passphrase", "Anima", chat, embedder, user_name="Caroline")
        c.indexer_thread.join()
        c.learns = False  # learning has its own cost, measured elsewhere; this is reflection's
        c.reflector.every = 0  # quick reflection is timed by hand below

        # Quick reflection after a turn.
        quick = []
        for q in QUESTIONS[: args.quick_runs]:
            c.turn(q).read()
            c.settle()
            t = time.perf_counter()
            c.reflect()
            quick.append(time.perf_counter() - t)
        say(f"quick reflection: {', '.join(f'{s:.1f}' for s in quick)} s")

        # A day of messages, read by deep reflection from the start.
        c.soul.set_meta("deep_read_through", str(c.messages.newest(1)[0]["id"]))
        record_day(c, day_of(data, args.messages), datetime(2026, 11, 2, 8, 0, tzinfo=UTC))
        t = time.perf_counter()
        done = c.reflect_deeply()
        deep_s = time.perf_counter() - t
        if done is None:  # was an AttributeError on None: said, not hidden
            raise RuntimeError("deep reflection did not run")
        say(f"deep reflection over {args.messages} messages: {deep_s:.0f} s; {done.summary()}")

        # The reply while deep reflection runs, against idle: a new stretch to reflect on keeps it busy.
        record_day(c, day_of(data, 400)[200:], datetime(2026, 11, 3, 8, 0, tzinfo=UTC))
        idle, during, rows = [], [], []
        first = FirstToken(chat)  # the model's first token in the turn (deep reflection asks from its own thread)
        for i, offset in enumerate(float(s) for s in args.offsets.split(",")):
            c.settle()
            ms, _, _ = first.turn(c, QUESTIONS[i % len(QUESTIONS)])
            idle.append(ms)
            idle_ready = first.prepared_ms
            c.settle()
            deep = threading.Thread(target=c.reflect_deeply)
            deep.start()
            time.sleep(offset)
            was_deep = c.reflector.reflecting_deeply
            ms, _, _ = first.turn(c, QUESTIONS[(i + 1) % len(QUESTIONS)])
            during.append(ms)
            ready = first.prepared_ms  # deep reflection stopped, the workspace assembled
            deep.join()
            rows.append(
                [
                    offset,
                    round(idle[-1]),
                    round(idle_ready),
                    round(during[-1]),
                    round(ready),
                    "yes" if was_deep else "no (it had finished)",
                ]
            )
        c.close()
    table(
        "reply time to first token (ms), idle and with deep reflection running, same run",
        ["sent_after_s", "idle_ms", "of_it_preparing", "during_deep_ms", "of_it_preparing", "deep_was_running"],
        rows,
    )
    ratio = statistics.median(during) / statistics.median(idle)
    table(
        "reflection on the default model",
        ["what", "seconds"],
        [
            ["quick reflection, median", round(statistics.median(quick), 1)],
            [f"deep reflection, {args.messages} messages", round(deep_s, 1)],
        ],
    )
    emit(
        "reflection",
        {
            "quick_s": round(statistics.median(quick), 2),
            "deep_s_200": round(deep_s, 1),
            "reply_latency_ratio_during_deep": round(ratio, 2),
        },
    )
    return 0
