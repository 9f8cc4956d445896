"""`python -m anima bench parts`: what seed 000's parts cost, and how often the default model writes them right.

- recall_p95_ms_10k: finding the parts a moment wakes (Parts.search) among 10,000 stored parts, p95 over queries
  (the index in memory built first, its time shown apart; the second round of queries after 200 patches);
- patch_p95_ms: applying a model-sized RFC 6902 patch (Parts.patch: copy, caps, schema, voice, write, history) to one
  of them, p95 (target under 5 ms);
- first_try_valid_rate / valid_rate: of the parts the real default model creates (part.CREATION_PROMPT) and the
  patches it writes (a hygiene consolidation, reflect/hygiene.py), the share that pass every check on the first try,
  and after at most two retries that tell it what was refused (the checks creation and hygiene make: the schema,
  the size, the "I" voice, the patch rules, and no field that only repeats the form it was shown);
- warm_ttft_ms_parts / warm_ttft_ms_no_parts: the warm time to first token of a turn with three activated parts
  against the same turn with none (the three archived), medians, same companion, same run, alternated; as in
  `bench turn` the draft is typed first (the parts bid on it while it is typed) and the work between turns is let
  finish before each message is sent.
Last line: {"bench": "parts", "recall_p95_ms_10k": x, "patch_p95_ms": x, "first_try_valid_rate": x,
"valid_rate": x, "warm_ttft_ms_parts": x, "warm_ttft_ms_no_parts": x}.
"""

import argparse
import json
import random
import statistics
import tempfile
import time

from anima.companion import Companion
from anima.errors import InvalidEdit
from anima.models.chat import Message
from anima.models.embedder import MiniLMEmbedder
from anima.models.llama import LlamaChatModel
from anima.models.structured import DEFAULT_TEMPERATURE, StructuredOutputFailed, ask_structured, warmer
from anima.parts import part as schema
from anima.parts.parts import Parts
from anima.reflect.hygiene import DETAIL, PATCH_TOKENS, Action, Hygiene, consolidate, outcomes_shown, patch_schema
from anima.reflect.parts import CREATION_TEMPERATURE
from anima.store import Home
from anima.store.provenance import Provenance, Source

from .first_token import FirstToken
from .report import emit, percentile, say, table

RETRIES = 2
SUBJECTS = [
    "dogs",
    "the math homework",
    "Roly",
    "report style",
    "the garden",
    "sleep",
    "the budget",
    "running",
    "the new job",
    "Taylor",
    "the sister",
    "cooking",
    "the move",
    "the guitar",
    "deadlines",
    "the cat",
    "the trip to Lisbon",
    "the landlord",
    "the thesis",
    "the team meeting",
]
MOODS = ["Worry", "Curiosity", "Care", "Frustration", "Hope", "Pride", "Caution", "Tenderness"]
CUES = [
    "mentions {s}",
    "asks about {s}",
    "sounds tired of {s}",
    "is late with {s}",
    "jokes about {s}",
    "plans {s}",
    "worries about {s}",
    "avoids {s}",
]
QUERIES = [
    "Ada worries about the budget again",
    "I walked past a dog park today",
    "Roly asks about the build",
    "Can you rewrite the report with examples?",
    "I did not sleep well",
    "The landlord called about the move",
    "Taylor wants the summary by Friday",
    "My sister is visiting",
    "I finished the thesis chapter",
    "Any ideas for cooking tonight?",
]
MOMENTS = [
    "Ada said her sister is moving in next week and she feels anxious about space.",
    "Ada rejected my report: too fluffy, she wants specific examples and no buzzwords.",
    "Ada has to finish her math homework today and keeps putting it off.",
    "Ada met a new colleague, Roly, who reviews her code and is blunt.",
    "Ada mentioned she is training for a 10k run in May.",
    "Ada was upset that I forgot her cat's name.",
    "Ada is planning a trip to Lisbon and is worried about the budget.",
    "Ada said she cannot sleep before big meetings.",
    "Sam told me his father died last spring and he still cannot open the letters.",
    "Lee laughed when I mixed up her two cats, Miso and Tofu.",
    "Priya starts a new job at a bakery on Monday and is nervous about the early shifts.",
    "Jon keeps asking me to write his essays for him.",
]


def synthetic(i: int, rng: random.Random) -> dict:
    s = SUBJECTS[i % len(SUBJECTS)]
    triggers = [c.format(s=s) for c in rng.sample(CUES, 4)]
    return {
        "name": f"{s.capitalize()} #{i}",
        "description": f"I watch over {s} for Ada. I notice when {s} comes up and what helps then.",
        "suggestions_and_results": [],
        "core_part": False,
        "needs_evaluation": False,
        "originating_event": {"timestamp": "2026-03-01T09:00:00+00:00", "result": f"Ada first mentioned {s}"},
        "conclude_when": f"When {s} no longer matters to Ada.",
        "emotion": rng.choice(MOODS),
        "intensity": rng.choice(["Low", "Medium", "High"]),
        "personality": "Attentive. I speak briefly.",
        "triggers": triggers,
        "phrases": [f"Is this about {s}?"],
        "responses": ["Leaning in"],
        "wants": [f"Help Ada with {s}"],
    }


def outcome(i: int) -> dict:
    return {
        "predicted_result": "Ada will feel helped",
        "predicted_result_confidence": "Likely",
        "predicted_result_timeframe_in_seconds": "3600",
        "your_suggestion": f"Offer step {i}",
        "timestamp": f"2026-03-0{1 + i % 9}T10:00:00+00:00",
        "result": "Accepted" if i % 3 else "Rejected: too vague",
    }


def store_and_recall(parts: Parts, n: int, rng: random.Random) -> tuple[float, float, float, float]:
    """(seconds to store n parts, seconds to build the index of them, recall p95 ms, patch p95 ms)."""
    t = time.perf_counter()
    with parts.soul.transaction():
        ids = [parts.create(synthetic(i, rng), "ai", Provenance(Source.REFLECTION)) for i in range(n)]
    stored = time.perf_counter() - t
    t = time.perf_counter()
    parts.search("warm up")  # the first search builds the index in memory (as at load): measured on its own
    built = time.perf_counter() - t
    recall = []
    for q in QUERIES * 3:
        t = time.perf_counter()
        parts.search(q, k=5)
        recall.append((time.perf_counter() - t) * 1000)
    patch = []
    for i in range(200):
        pid = rng.choice(ids)
        ops = [
            {"op": "add", "path": "/suggestions_and_results/-", "value": outcome(i)},
            {"op": "replace", "path": "/intensity", "value": rng.choice(["Low", "Medium", "High", "Settled"])},
            {"op": "add", "path": "/wants/-", "value": f"Check in after step {i}"},
        ]
        t = time.perf_counter()
        parts.patch(pid, ops, "ai")
        patch.append((time.perf_counter() - t) * 1000)
        parts.patch(pid, [{"op": "remove", "path": "/wants/1"}], "ai")  # keep it under the schema's cap
    recall_after = []  # and with the 400 patched parts to take in before the first of these
    for q in QUERIES * 3:
        t = time.perf_counter()
        parts.search(q, k=5)
        recall_after.append((time.perf_counter() - t) * 1000)
    return stored, built, percentile(recall + recall_after, 95), percentile(patch, 95)


def try_until_valid(ask, check) -> int | None:
    """The try (1-based) on which the model's answer passed every check, or None; each refusal is told back (and
    the last one printed: the reasons name fields and rules, never the answer's words)."""
    told: list[Message] = []
    why = ""
    for n in range(1, RETRIES + 2):
        try:
            answer = ask(told, n - 1)
        except StructuredOutputFailed as e:
            why = e.attempts[-1].error[:160] if e.attempts else "no attempt"
            told = [
                {"role": "assistant", "content": e.attempts[-1].raw[:1500] if e.attempts else ""},
                {
                    "role": "user",
                    "content": f"That was not valid: {e.attempts[-1].error if e.attempts else ''}. Answer again.",
                },
            ]
            continue
        why = check(answer)
        if why is None:
            return n
        told = [
            {"role": "assistant", "content": json.dumps(answer, ensure_ascii=False)[:1500]},
            {"role": "user", "content": f"That was refused: {why} Answer again."},
        ]
    say(f"  never valid; the last refusal: {why}")
    return None


def created(chat, n: int) -> list[int | None]:
    tries: list[int | None] = []
    for moment in MOMENTS[:n]:
        t = time.perf_counter()
        base = [{"role": "system", "content": schema.CREATION_PROMPT}, {"role": "user", "content": f"Moment: {moment}"}]
        tries.append(
            try_until_valid(
                lambda told, tried, base=base: ask_structured(  # called in this iteration: base bound all the same
                    chat,
                    base + told,
                    schema.PART_CREATION_SCHEMA,
                    what="part",
                    retries=0,
                    temperature=warmer(CREATION_TEMPERATURE, tried),
                    names_only=True,
                ),
                lambda c: (
                    schema.problem(schema.part_from_creation(c, "2026-03-02T10:00:00+00:00")) or schema.form_problem(c)
                ),
            )
        )
        say(
            f"created part for moment {len(tries)}: {'valid on try ' + str(tries[-1]) if tries[-1] else 'never valid'}"
            f" ({time.perf_counter() - t:.0f} s)"
        )
    return tries


def patched(chat, soul, parts: Parts, n: int, rng: random.Random) -> list[int | None]:
    hygiene = Hygiene(soul, chat, parts)
    tries = []
    for i in range(n):
        data = synthetic(100_000 + i, rng)
        data["suggestions_and_results"] = [outcome(j) for j in range(6)]
        pid = parts.create(data, "ai", Provenance(Source.REFLECTION))
        p = parts.get(pid)
        base = [
            *hygiene.prompt(p, [], outcomes_shown(p), ""),
            {"role": "assistant", "content": json.dumps({"action": "consolidate", "why": "Its log is noisy."})},
            {"role": "user", "content": DETAIL[Action.CONSOLIDATE]},
        ]

        def check(answer, pid=pid):
            try:
                consolidate(parts, pid, answer["patch"])
            except InvalidEdit as e:
                return str(e)
            return None

        tries.append(
            try_until_valid(
                lambda told, tried, base=base, p=p: ask_structured(  # called in this iteration: bound all the same
                    chat,
                    base + told,
                    patch_schema(p, outcomes_shown(p)),
                    what="patch",
                    retries=0,
                    max_tokens=PATCH_TOKENS,
                    temperature=warmer(DEFAULT_TEMPERATURE, tried),
                    names_only=True,
                ),
                check,
            )
        )
        say(f"patch {i + 1}: {'valid on try ' + str(tries[-1]) if tries[-1] else 'never valid'}")
    return tries


# Three parts every warm message wakes by its triggers, and the messages.
THREE = [
    ("Homework Focus", "I pull attention back to Ada's homework when it slips.", ["homework"]),
    ("Roly", "I keep track of Roly, Ada's blunt code reviewer, and the tone that works with him.", ["Roly"]),
    ("Report Style", "I know how Ada wants reports: concrete examples, no fluff.", ["report"]),
]
TURNS = [
    "Roly asked about my homework report again.",
    "The report for Roly is late, and so is my homework.",
    "I worked on the homework report all afternoon; Roly says hi.",
    "Should I send Roly the report before the homework is done?",
    "Roly liked the homework report!",
    "One more report for Roly, then homework.",
]


def warm_ttft(tmp: str, turns: int) -> tuple[float, float, list[list]]:
    """(median warm TTFT ms with three activated parts, without, rows per turn)."""
    chat = LlamaChatModel().start_loading()
    embedder = MiniLMEmbedder().start_loading()
    c = Companion.create(Home(tmp), "bench passphrase", "Anima", chat, embedder, user_name="Ada")
    try:
        c.indexer_thread.join()
        c.temperature, c.reply_tokens = 0.0, 24
        ids = []
        for name, description, triggers in THREE:
            data = synthetic(0, random.Random(1))
            data.update(name=name, description=description, triggers=triggers)
            ids.append(c.parts.create(data, "user", Provenance(Source.APP)))
        for text in ("Hi! Long day.", "Tell me something nice."):  # a transcript to be warm on
            c.settle()
            for _ in c.turn(text):
                pass
        rows: list[list[object]] = []
        times: dict[bool, list[float]] = {True: [], False: []}
        first = FirstToken(chat)  # the model's first token, not the first sentence the turn shows
        for i, text in enumerate(TURNS[:turns]):
            for with_parts in (True, False) if i % 2 == 0 else (False, True):
                for pid in ids:
                    c.parts.set_archived(pid, not with_parts, "user")
                c.settle()
                c.read_draft(text)
                c.settle()
                woken = len(c.bidding.activated(text))
                ttft, _, t = first.turn(c, text)
                bids = len(t.weighed.bids) if t.weighed else 0
                chosen = len(t.weighed.chosen()) if t.weighed else 0
                times[with_parts].append(ttft)
                rows.append(
                    [
                        i + 1,
                        "3 parts" if with_parts else "none",
                        woken,
                        bids,
                        chosen,
                        ttft,
                        sum(t.workspace.tiers.values()),
                    ]
                )
                say(
                    f"turn {i + 1} ({'3 parts' if with_parts else 'no parts'}): {ttft:.0f} ms to first token, "
                    f"{woken} part(s) woken, {bids} bid(s) on it, {chosen} followed"
                )
        return statistics.median(times[True]), statistics.median(times[False]), rows
    finally:
        c.close()
        chat.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench parts")
    p.add_argument("--parts", type=int, default=10_000)
    # Each answer of the bundled model can run to its token cap (2,000 tokens for a part) on a grammar: on two
    # shared cores a try takes 5 s to a minute. Twenty answers in all: fewer say little about a rate of 0.95.
    p.add_argument(
        "--moments", type=int, default=len(MOMENTS), help=f"parts the real model is asked to create (<= {len(MOMENTS)})"
    )
    p.add_argument("--patches", type=int, default=8, help="patches asked of the real model")
    p.add_argument("--turns", type=int, default=4, help=f"warm turns each way (<= {len(TURNS)})")
    p.add_argument("--no-model", action="store_true", help="only the store's figures (no model)")
    args = p.parse_args(argv or [])
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
        soul = Home(tmp).create("bench passphrase", name="Anima")
        parts = Parts(soul)
        stored_s, built_s, recall_p95, patch_p95 = store_and_recall(parts, args.parts, rng)
        table(
            f"Parts in the store ({args.parts} parts)",
            ["figure", "value"],
            [
                ["stored in (s)", stored_s],
                ["index built in (s)", built_s],
                ["recall p95 (ms)", recall_p95],
                ["patch p95 (ms)", patch_p95],
                ["patch target (ms)", 5.0],
            ],
        )
        first = valid = None
        if not args.no_model:
            chat = LlamaChatModel().start_loading()
            try:
                made = created(chat, args.moments)
                fixed = patched(chat, soul, Parts(soul), args.patches, rng)
            finally:
                chat.close()
            rows = []
            for what, tries in (("created parts", made), ("patches", fixed)):
                rows.append([what, len(tries), sum(1 for t in tries if t == 1), sum(1 for t in tries if t)])
            every = made + fixed
            first = sum(1 for t in every if t == 1) / len(every)
            valid = sum(1 for t in every if t) / len(every)
            table(
                "The default model's parts and patches (at most 2 retries, each told what was refused)",
                ["what", "asked", "valid first try", "valid after retries"],
                [*rows, ["all", len(every), first, valid]],
            )
        soul.close()
    ttft_parts = ttft_none = None
    if not args.no_model:
        with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
            ttft_parts, ttft_none, rows = warm_ttft(tmp, args.turns)
        table(
            "Warm turns, the draft typed first: three activated parts against none (alternated)",
            ["turn", "parts", "woken", "bids on it", "followed", "TTFT (ms)", "prompt tokens"],
            rows,
        )
        table(
            "Warm time to first token (medians)",
            ["with 3 parts", "with none", "ratio (target <= 1.5)"],
            [[ttft_parts, ttft_none, ttft_parts / ttft_none]],
        )
    emit(
        "parts",
        {
            "recall_p95_ms_10k": round(recall_p95, 2),
            "patch_p95_ms": round(patch_p95, 3),
            "first_try_valid_rate": None if first is None else round(first, 3),
            "valid_rate": None if valid is None else round(valid, 3),
            "warm_ttft_ms_parts": None if ttft_parts is None else round(ttft_parts, 1),
            "warm_ttft_ms_no_parts": None if ttft_none is None else round(ttft_none, 1),
        },
    )
    return 0
