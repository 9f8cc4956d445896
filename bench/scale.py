"""`python -m anima bench scale`: a year of conversations (100,000 messages) against an empty soul, same run.

Measured for both: unlock to recall by meaning ready (the stored vectors in memory, the kept hnswlib graph read
back rather than built), unlock to the window painted with the soul shown (a child process, as `bench ui` times
it), first token of a turn on the real default model (cold: the model's computed prefix forgotten before each
message, so both souls' prompts are read whole; and warm: a conversation going on, each message sent at once and
again as typed in the window, the draft handed over at a pause and read along), one recall, resident memory, and
export and import of the portable core (timed here; their memory each in a program of its own). Then, with the
fake models, resident memory over a 2,000-turn session.

The 100,000 messages are LoCoMo's 2,760 turns, re-worded (a word dropped, a lead-in, two turns joined, other
names) and spread over a year of daily sessions. The 2,760 real texts are embedded by the real embedder; the
variations get synthetic vectors near their sources' (jittered, normalised). Building that soul (bulk inserts in
one transaction, then the graph, kept in the soul) takes minutes, so it is built once into a cache under the
temporary folder, keyed by a version string, and copied for each run.
"""

import argparse
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .first_token import FirstToken
from .kept import close_keeping_model
from .report import emit, say, table
from .ui import painted_ms

if TYPE_CHECKING:
    from anima.companion import Companion

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "bench scale passphrase"
EXPORT_PASSPHRASE = "bench scale export passphrase"
VERSION = "scale-2"  # change when the built soul's content or making changes (2: the graph kept in shards)
NAMES = ["Ada", "Bea", "Chidi", "Dara", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena"]
LEAD_INS = ["", "Anyway, ", "Oh, and ", "By the way, ", "So, ", "Honestly, ", "You know what? ", "Also, "]
MESSAGES = [
    "How have you been since we last talked?",
    "What did I tell you about my sister's new job?",
    "Remind me what we planned for the weekend.",
    "Do you remember the painting I finished?",
    "I'm thinking of going camping again, any ideas?",
]
RECALL_QUERIES = [
    "what did I say about the support group",
    "the trip to the beach with the kids",
    "my friend's new puppy",
    "that book about the ocean",
    "when did I start pottery",
    "the concert last summer",
    "advice about changing careers",
    "the painting of a sunset",
]


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory now (VmRSS), or at its peak since it started (VmHWM: ru_maxrss is not
    that in a child, which inherits its parent's)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---- the year of conversations ---------------------------------------------------------------------------------


def cache_dir(n: int) -> Path:
    from anima.store.migrations import SCHEMA_VERSION

    return Path(tempfile.gettempdir()) / "anima-bench-scale" / f"{VERSION}-schema{SCHEMA_VERSION}-{n}"


def variations(turns: list[tuple[str, str]], vectors: np.ndarray, n: int, seed: int = 0):
    """n (text, vector) pairs: the real turns first, then re-worded ones with vectors near their sources'."""
    rng, jitter = random.Random(seed), np.random.default_rng(seed)
    people = sorted({s for s, _ in turns})
    for i in range(n):
        j = i % len(turns)
        text, v = turns[j][1], vectors[j]
        if i >= len(turns):
            how = (i // len(turns)) % 4
            words = text.split()
            if how == 0 and len(words) > 5:
                del words[rng.randrange(len(words))]
                text = rng.choice(LEAD_INS) + " ".join(words)
            elif how == 1:
                k = rng.randrange(len(turns))
                text = f"{text} {turns[k][1]}"
                v = v + vectors[k]
            elif how == 2:
                for p in people:
                    text = re.sub(rf"\b{re.escape(p)}\b", rng.choice(NAMES), text)
            else:
                text = rng.choice(LEAD_INS[1:]) + text[0].lower() + text[1:]
            v = v + jitter.normal(0, 0.03, v.shape[0]).astype(np.float32)
            v = v / np.linalg.norm(v)
        yield text, np.asarray(v, dtype="<f4")


def build(n: int, embedder) -> Path:
    """The home of a soul with n messages and its kept graph, made once and cached."""
    from anima.retrieval.indexer import Indexer
    from anima.store import Home
    from bench import locomo

    done = cache_dir(n)
    if (done / "soul.db").exists():
        return done
    building = done.with_name(done.name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    turns = list(locomo.turns(locomo.load()))
    real = done.parent / f"{VERSION}-turns-{embedder.name}.npy"  # the real vectors of public test data
    if real.exists():
        vectors = np.load(real)
    else:
        t = time.perf_counter()
        vectors = embedder.embed_batch([f"{s}: {text}" for s, text in turns])
        say(f"scale: embedded the {len(turns)} real turns in {time.perf_counter() - t:.0f} s")
        real.parent.mkdir(parents=True, exist_ok=True)
        np.save(real, vectors)
    home = Home(building)
    soul = home.create(PASSPHRASE, name="Anima")
    soul.set_meta("user_name", "Sam")
    start = datetime.now(UTC) - timedelta(days=365)
    per_day = max(1, n // 365)
    t = time.perf_counter()
    with soul.transaction() as con:
        messages, embeddings = [], []
        for i, (text, v) in enumerate(variations(turns, vectors, n)):
            day = i // per_day
            at = start + timedelta(days=day, seconds=30 * (i % per_day))
            role, speaker = ("user", "Sam") if i % 2 == 0 else ("companion", "Anima")
            messages.append((i + 1, f"day-{day}", role, speaker, text, at.isoformat(timespec="microseconds")))
            embeddings.append(("message", i + 1, embedder.name, embedder.dim, v.tobytes()))
        con.executemany(
            "INSERT INTO messages(id, session, role, speaker, content, created_at) VALUES (?, ?, ?, ?, ?, ?)", messages
        )
        con.executemany("INSERT INTO embeddings VALUES (?, ?, ?, ?, ?)", embeddings)
    say(f"scale: stored {n:,} messages and their vectors in {time.perf_counter() - t:.0f} s")
    t = time.perf_counter()
    indexer = Indexer(soul, embedder)
    indexer.load()
    if len(indexer.index) >= indexer.index.APPROXIMATE_FROM:
        while not indexer.index.approximate:
            time.sleep(0.5)
        indexer.save()
        say(f"scale: built and kept the graph over {len(indexer.index):,} vectors in {time.perf_counter() - t:.0f} s")
    indexer.close()
    soul.close()
    shutil.rmtree(done, ignore_errors=True)
    building.rename(done)
    return done


def build_all(sizes, source: Path) -> None:
    """Build the souls of `sizes` messages from the LoCoMo-format file `source` (a child of its own: see main)."""
    from anima.models.embedder import MiniLMEmbedder
    from bench import locomo

    locomo.DEFAULT = source

    embedder = MiniLMEmbedder().start_loading()
    for n in sizes:
        build(n, embedder)


# ---- measuring one soul ----------------------------------------------------------------------------------------


def copy_home(source: Path, into: Path) -> Path:
    shutil.copytree(source, into)
    return into


def window_ms(home: Path, tmp: Path) -> float:
    """Process start to the window painted with the soul unlocked and shown (bench/ui_child.py)."""
    return painted_ms([sys.executable, "-m", "bench.ui_child", "anima-ready"], window_env(home, tmp), timeout=600)


def window_env(home: Path, tmp: Path) -> dict:
    """A window's child process on this soul: its passphrase given, settings of its own, offscreen if no display."""
    env = {
        **os.environ,
        "ANIMA_HOME": str(home),
        "ANIMA_PASSPHRASE": PASSPHRASE,
        "PYTHONPATH": str(ROOT),
        "ANIMA_SETTINGS": str(tmp / "settings.json"),
    }
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def opening_stall_ms(home: Path, tmp: Path) -> float:
    """The longest the window could not respond (a 5 ms timer's gap on its thread), from its showing until a
    second after the soul's vectors and kept graph are read back and the models loaded (bench/ui_child.py
    anima-opening)."""
    r = subprocess.run(
        [sys.executable, "-m", "bench.ui_child", "anima-opening"],
        env=window_env(home, tmp),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = re.search(r"^stall (\d+)$", r.stdout, re.M)
    if r.returncode != 0 or not said:
        raise RuntimeError(f"the window opening {home} did not say its stalls: {r.stderr[-2000:]}")
    return float(said.group(1))


def opened(label: str, home_dir: Path, chat, embedder, tmp: Path, windows: int) -> tuple[dict[str, Any], "Companion"]:
    """The window's launch, then this process unlocks it: until recall by meaning is ready, one recall, memory."""
    from anima.companion import Companion
    from anima.store import Home

    out: dict[str, Any] = {"soul": label}
    home = Home(home_dir)
    out["window_ms"] = statistics.median(window_ms(home_dir, tmp) for _ in range(windows)) if windows else None
    out["opening_stall_ms"] = opening_stall_ms(home_dir, tmp) if windows else None
    rss_before = rss_mb()
    t = time.perf_counter()
    soul = home.unlock(PASSPHRASE)
    out["unlock_s"] = time.perf_counter() - t
    c = Companion(home, soul, chat, embedder, session="scale-bench")
    c.indexer.ready.wait()  # every stored vector searchable (exactly, until the graph takes over)
    out["vector_ready_s"] = time.perf_counter() - t
    c.indexer_thread.join()
    out["graph_ready_s"] = time.perf_counter() - t
    out["vectors"] = len(c.indexer.index)
    out["graph"] = (
        "kept" if c.indexer.index.approximate else ("building" if len(c.indexer.index) >= 5000 else "none (exact)")
    )
    c.learns = False
    c.reflector.every = 0
    c.temperature, c.reply_tokens = 0.0, 16
    times: list[float] = []
    for q in RECALL_QUERIES * 5:
        t = time.perf_counter()
        c.recall(q, 10)
        times.append((time.perf_counter() - t) * 1000)
    out["recall_ms"] = statistics.median(times)
    out["recall_p95_ms"] = statistics.quantiles(times, n=20)[-1]
    out["rss_mb"] = rss_mb()  # this soul open (and the smaller ones before it), the model loaded
    out["rss_added_mb"] = out["rss_mb"] - rss_before
    return out, c


def turns(figures: dict[str, dict[str, Any]], companions: dict[str, "Companion"], chat) -> None:
    """First token of a turn on each soul, alternated so that neither always runs on a busier machine: cold
    (the model's computed prefix forgotten first: the whole prompt is read) and warm (a conversation going on:
    a few turns in a row on one soul, the souls taken in turn A B C C B A)."""
    first = FirstToken(chat)
    cold: dict[str, list[float]] = {label: [] for label in companions}
    warm: dict[str, list[float]] = {label: [] for label in companions}
    shown: dict[str, list[float]] = {label: [] for label in companions}
    prompt: dict[str, list[float]] = {label: [] for label in companions}
    notes: dict[str, list[float]] = {label: [] for label in companions}
    for text in MESSAGES:
        for label, c in companions.items():
            chat.forget_computed()
            ms, _, turn = first.turn(c, text)
            cold[label].append(ms)
            prompt[label].append(sum(chat.count_tokens(m["content"]) + 4 for m in turn.workspace.messages))
            c.settle()
    labels = list(companions)
    typed: dict[str, list[float]] = {label: [] for label in companions}
    typed_on: dict[str, list[float]] = {label: [] for label in companions}
    # Where a message sent at once waits: before the model is asked (recording, recall, the workspace), and
    # llama.cpp reading the prompt's new tokens (the message; the note recall adds).
    asked: dict[str, list[float]] = {label: [] for label in companions}
    read: dict[str, list[float]] = {label: [] for label in companions}
    read_ms: dict[str, list[float]] = {label: [] for label in companions}
    for label in labels + labels[::-1]:
        c = companions[label]
        chat.forget_computed()
        first.turn(c, MESSAGES[0] + " Go on.")
        c.settle()
        for text in MESSAGES[1:4]:
            ms, words, turn = first.turn(c, text + " Tell me more.")
            warm[label].append(ms)
            shown[label].append(words)
            asked[label].append(first.prepared_ms)
            read[label].append(first.read_tokens)
            read_ms[label].append(first.read_ms)
            notes[label].append(turn.workspace.tiers["note"])
            c.settle()
            # As typed in the window: a pause before Enter hands the draft over, and the companion reads along.
            c.read_draft(text + " Go on.")
            c.settle()
            ms, _, _ = first.turn(c, text + " Go on.")
            typed[label].append(ms)
            c.settle()
            # Typed on after that pause: the last words and Enter without a pause between them (the usual end of
            # a message in the window), so the draft read along lacks them.
            c.read_draft(text)
            c.settle()
            ms, _, _ = first.turn(c, text + " Say more.")
            typed_on[label].append(ms)
            c.settle()
    for label in companions:
        say(
            f"scale: {label}: first token, cold {[round(x) for x in cold[label]]} ms, warm "
            f"{[round(x) for x in warm[label]]} ms, typed {[round(x) for x in typed[label]]} ms, typed on "
            f"{[round(x) for x in typed_on[label]]} ms; first words "
            f"shown, warm {[round(x) for x in shown[label]]} ms"
        )
        figures[label].update(
            first_token_typed_ms=statistics.median(typed[label]),
            first_token_typed_on_ms=statistics.median(typed_on[label]),
            first_token_ms=statistics.median(warm[label]),
            first_token_cold_ms=statistics.median(cold[label]),
            first_words_ms=statistics.median(shown[label]),
            prompt_tokens=statistics.median(prompt[label]),
            note_tokens=statistics.median(notes[label]),
            asked_ms=statistics.median(asked[label]),
            read_tokens=statistics.median(read[label]),
            read_ms=statistics.median(read_ms[label]),
        )


def carried(label: str, c, tmp: Path) -> dict:
    """A forget (the scrub rebuilds the file: forget.rewrite_file), export of the portable core, then closing,
    then its import into a new home; then each again in a program of its own, for its memory."""
    from anima.store import Home

    out = {}
    [first] = c.soul.query("SELECT min(id) AS id FROM messages")
    with WriteLockWatch(Home(c.home.dir)) as watch:
        t = time.perf_counter()
        c.forget("message", first["id"])
        out["forget_s"] = time.perf_counter() - t
    out["forget_lock_ms"] = watch.longest_ms
    core = tmp / f"{label}.core"
    t = time.perf_counter()
    c.export_core(core, EXPORT_PASSPHRASE)
    out["export_s"] = time.perf_counter() - t
    out["core_mb"] = core.stat().st_size / 2**20
    home = c.home.dir
    close_keeping_model(c)  # the model goes on to the next soul
    t = time.perf_counter()
    Home(tmp / f"{label}-imported").import_core(core, EXPORT_PASSPHRASE, PASSPHRASE)
    out["import_s"] = time.perf_counter() - t
    shutil.rmtree(tmp / f"{label}-imported")
    # The memory each takes, apart from this process's (the model, the souls open): each in a program of its own.
    out["export_peak_mb"] = in_child("export", home, tmp / f"{label}-again.core")
    out["forget_peak_mb"] = in_child("forget", home, tmp)
    out["import_peak_mb"] = in_child("import", core, tmp / f"{label}-imported")
    core.unlink()
    (tmp / f"{label}-again.core").unlink()
    shutil.rmtree(tmp / f"{label}-imported")
    return out


class WriteLockWatch:
    """The longest the soul's write lock was held while it watched, as another program on the soul meets it: a
    connection of its own takes and lets go of the write lock over and over (an empty write transaction), and
    its longest wait for it is what a forget made that program wait."""

    def __init__(self, home):
        import threading

        self.soul = home.unlock(PASSPHRASE)
        self.longest_ms = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="write lock watch", daemon=True)

    def _watch(self) -> None:
        from anima.errors import SoulBusy

        while not self._done.is_set():
            t = time.perf_counter()
            try:
                with self.soul.transaction():
                    pass
            except SoulBusy:  # held past the busy timeout (30 s): it was held at least that long, and is tried again
                pass
            self.longest_ms = max(self.longest_ms, (time.perf_counter() - t) * 1000)
            self._done.wait(0.002)

    def __enter__(self) -> "WriteLockWatch":
        self._thread.start()
        time.sleep(0.05)  # it is watching before the forget begins
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self.soul.close()


def in_child(what: str, source: Path, target: Path) -> float:
    """MB a fresh program's resident memory peaked above where it stood just before it exported the soul at
    `source` (unlocked first), forgot its oldest message, or imported the core at `source`."""
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_carry, args=(what, source, target, child))
    p.start()
    added = parent.recv()
    p.join()
    if p.exitcode != 0:
        raise SystemExit(f"scale: the {what} in a program of its own failed (exit {p.exitcode})")
    return added


def _reset_peak() -> None:
    """Start VmHWM again from the memory resident now (Linux: clear_refs 5)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _carry(what: str, source: Path, target: Path, reply) -> None:
    from anima.store import Home

    if what in ("export", "forget"):
        with Home(source).unlock(PASSPHRASE) as soul:
            # Unlocking derives the key (scrypt: 128 MiB for a moment): not the export's or the forget's.
            _reset_peak()
            before = rss_mb()
            if what == "export":
                Home.export(soul, target, EXPORT_PASSPHRASE)
            else:
                [first] = soul.query("SELECT min(id) AS id FROM messages")
                soul.forget("message", first["id"])
    else:
        before = rss_mb()
        Home(target).import_core(source, EXPORT_PASSPHRASE, PASSPHRASE)
    reply.send(rss_mb("VmHWM") - before)


# ---- memory over a long session, with the fake models ------------------------------------------------------------


def long_session(turns: int, tmp: Path) -> list[tuple[int, float]]:
    """Resident memory every 500 turns of one session (fake models: the store, recall, the workspace)."""
    import gc

    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.store import Home
    from bench import locomo

    class Replies(FakeChatModel):
        """Always the same short reply, keeping no history of its calls (the fake's is for tests)."""

        def stream_text(self, messages, **kw):
            yield "That sounds "
            yield "lovely."

    said = [t for _, t in locomo.turns(locomo.load())]
    c = Companion.create(Home(tmp / "long"), PASSPHRASE, "Anima", Replies(), FakeEmbedder(), user_name="Sam")
    c.indexer_thread.join()
    c.learns = False
    c.reflector.every = 0
    points = []
    for i in range(turns + 1):
        if i % 500 == 0:
            gc.collect()
            points.append((i, rss_mb()))
        if i < turns:
            for _ in c.turn(said[i % len(said)]):
                pass
            c.settle()
    c.close()
    return points


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench scale")
    p.add_argument("--messages", type=int, default=100_000)
    p.add_argument("--reference", type=int, default=1_000, help="a small soul's messages, beside the empty one")
    p.add_argument("--windows", type=int, default=3, help="window launches per soul (median)")
    p.add_argument("--session-turns", type=int, default=2000, help="turns of the fake-model session (0: none)")
    p.add_argument("--locomo", help="LoCoMo-format file (default: ../shared/eval/locomo_dev.json)")
    args = p.parse_args(argv or [])
    from bench import locomo

    if args.locomo:
        locomo.DEFAULT = Path(args.locomo)
    from anima.models.embedder import MiniLMEmbedder
    from anima.models.llama import LlamaChatModel
    from anima.store import Home

    t = time.perf_counter()
    sizes = (args.reference, args.messages)
    if not all((cache_dir(n) / "soul.db").exists() for n in sizes):
        # Built in a child: what building holds (the vectors, a graph built from scratch) would otherwise stay in
        # this process's resident memory and be counted as the souls' (930 MB for the empty soul, not 460).
        child = multiprocessing.get_context("spawn").Process(target=build_all, args=(sizes, locomo.DEFAULT))
        child.start()
        child.join()
        if child.exitcode != 0:
            raise SystemExit(f"scale: building the souls failed (exit {child.exitcode})")
    cached = {n: cache_dir(n) for n in sizes}
    say(f"scale: the souls are ready ({time.perf_counter() - t:.0f} s; cached in {cached[args.messages].parent})")
    embedder = MiniLMEmbedder().start_loading()
    chat = LlamaChatModel().start_loading()
    chat.llama  # loaded before anything is timed
    embedder.embed("warm up")
    figures: dict[str, dict[str, Any]] = {}
    souls = {"empty": None, f"{args.reference:,}": args.reference, f"{args.messages:,}": args.messages}
    with tempfile.TemporaryDirectory(prefix="anima-bench-scale-") as tmp_name:
        tmp = Path(tmp_name)
        companions: dict[str, Companion] = {}
        for label, n in souls.items():
            home = tmp / f"soul-{n or 0}"
            if n is None:
                Home(home).create(PASSPHRASE, name="Anima").close()
            else:
                copy_home(cached[n], home)
            figures[label], companions[label] = opened(label, home, chat, embedder, tmp, args.windows)
        turns(figures, companions, chat)
        for label, c in companions.items():
            figures[label].update(carried(label.replace(",", ""), c, tmp))
            say(f"scale: {label}: {figures[label]}")
        session = long_session(args.session_turns, tmp) if args.session_turns else []
    chat.close()
    labels = list(souls)
    e, y = figures["empty"], figures[labels[-1]]
    keys = [
        ("vectors", "vectors", 0),
        ("graph", "graph", None),
        ("unlock_s", "unlock (the key) s", 2),
        ("vector_ready_s", "unlock to recall by meaning ready s", 2),
        ("graph_ready_s", "unlock to the kept graph read back s", 2),
        ("window_ms", "start to window painted, soul shown ms", 0),
        ("opening_stall_ms", "window's longest stall, shown to soul and models ready ms", 0),
        ("recall_ms", "one recall ms", 1),
        ("recall_p95_ms", "one recall, 95th percentile ms", 1),
        ("first_token_ms", "first token, warm (a conversation), sent at once ms", 0),
        ("asked_ms", "  of which before the model is asked (record, recall) ms", 0),
        ("read_ms", "  of which the model reading the prompt's new tokens ms", 0),
        ("read_tokens", "  the prompt's new tokens (the message, the note)", 0),
        ("first_token_typed_ms", "first token, warm, typed (the draft read along) ms", 0),
        ("first_token_typed_on_ms", "first token, warm, typed on after the draft (last words unread) ms", 0),
        ("first_token_cold_ms", "first token, cold (whole prompt read) ms", 0),
        ("first_words_ms", "first words shown, warm ms", 0),
        ("prompt_tokens", "prompt tokens, cold", 0),
        ("note_tokens", "tokens recall adds to a warm turn (its note)", 0),
        ("rss_mb", "resident memory, with the model MB", 0),
        ("rss_added_mb", "memory added by the soul MB", 0),
        ("forget_s", "forget one message s", 2),
        ("forget_lock_ms", "forget, the write lock's longest hold ms", 0),
        ("forget_peak_mb", "forget, memory at its peak MB", 0),
        ("export_s", "export s", 1),
        ("export_peak_mb", "export, memory at its peak MB", 0),
        ("core_mb", "core MB", 1),
        ("import_s", "import s", 1),
        ("import_peak_mb", "import, memory at its peak MB", 0),
    ]
    rows = [
        [
            name,
            *[
                (f[key] if digits is None or f.get(key) is None else round(f[key], digits))
                for f in (figures[label] for label in labels)
            ],
        ]
        for key, name, digits in keys
    ]
    table(
        f"scale: {args.messages:,} messages against an empty soul, same run (real default models)",
        ["figure", *[f"{label} messages" if label != "empty" else "empty" for label in labels]],
        rows,
    )
    growth = None
    if session:
        table(
            f"scale: resident memory over a {args.session_turns:,}-turn session (fake models)",
            ["turns", "rss_mb"],
            [[i, round(m, 1)] for i, m in session],
        )
        growth = session[-1][1] - session[1][1] if len(session) > 2 else None
    warm = y["first_token_ms"] / e["first_token_ms"]
    typed = y["first_token_typed_ms"] / e["first_token_typed_ms"]
    typed_on = y["first_token_typed_on_ms"] / e["first_token_typed_on_ms"]
    cold = y["first_token_cold_ms"] / e["first_token_cold_ms"]
    small = figures[labels[1]]
    say(
        f"scale: targets: vectors ready in {y['vector_ready_s']:.2f} s (5 s: "
        f"{'met' if y['vector_ready_s'] <= 5 else 'NOT met'}); first token of a message sent at once "
        f"{warm:.2f}x the empty soul's (1.5x: {'met' if warm <= 1.5 else 'NOT met'}), of one typed (the draft "
        f"read along) {typed:.2f}x (1.5x: {'met' if typed <= 1.5 else 'NOT met'}), typed on after the draft "
        f"{typed_on:.2f}x (1.5x: {'met' if typed_on <= 1.5 else 'NOT met'}); cold, the whole prompt read, "
        f"{cold:.2f}x. Against the "
        f"{labels[1]}-message soul (which recalls as much into a turn: an empty soul recalls nothing): warm "
        f"{y['first_token_ms'] / small['first_token_ms']:.2f}x, cold "
        f"{y['first_token_cold_ms'] / small['first_token_cold_ms']:.2f}x. Sent at once, the model read "
        f"{y['read_tokens']:.0f} new tokens in {y['read_ms']:.0f} ms, the empty soul's {e['read_tokens']:.0f} in "
        f"{e['read_ms']:.0f} ms ({y['read_ms'] / e['read_ms']:.2f}x), after {y['asked_ms']:.0f} ms against "
        f"{e['asked_ms']:.0f} ms before it was asked"
    )
    emit(
        "scale",
        {
            "messages": args.messages,
            "vector_ready_s": round(y["vector_ready_s"], 2),
            "first_token_ms": round(y["first_token_ms"], 1),
            "first_token_ms_empty": round(e["first_token_ms"], 1),
            "first_token_typed_ms": round(y["first_token_typed_ms"], 1),
            "first_token_typed_ms_empty": round(e["first_token_typed_ms"], 1),
            "first_token_typed_on_ms": round(y["first_token_typed_on_ms"], 1),
            "first_token_typed_on_ms_empty": round(e["first_token_typed_on_ms"], 1),
            "rss_mb": round(y["rss_mb"], 1),
            "read_tokens": y["read_tokens"],
            "read_tokens_empty": e["read_tokens"],
            "read_ms": round(y["read_ms"], 1),
            "read_ms_empty": round(e["read_ms"], 1),
            "first_token_cold_ms": round(y["first_token_cold_ms"], 1),
            "first_token_cold_ms_empty": round(e["first_token_cold_ms"], 1),
            f"first_token_ms_{args.reference}": round(small["first_token_ms"], 1),
            f"first_token_cold_ms_{args.reference}": round(small["first_token_cold_ms"], 1),
            "graph_ready_s": round(y["graph_ready_s"], 2),
            "window_ms": None if y["window_ms"] is None else round(y["window_ms"], 1),
            "window_ms_empty": None if e["window_ms"] is None else round(e["window_ms"], 1),
            "opening_stall_ms": y["opening_stall_ms"],
            "opening_stall_ms_empty": e["opening_stall_ms"],
            "recall_ms": round(y["recall_ms"], 1),
            "recall_p95_ms": round(y["recall_p95_ms"], 1),
            "rss_added_mb": round(y["rss_added_mb"], 1),
            "forget_s": round(y["forget_s"], 2),
            "forget_lock_ms": round(y["forget_lock_ms"], 1),
            "forget_peak_mb": round(y["forget_peak_mb"], 1),
            "export_s": round(y["export_s"], 1),
            "import_s": round(y["import_s"], 1),
            "export_peak_mb": round(y["export_peak_mb"], 1),
            "import_peak_mb": round(y["import_peak_mb"], 1),
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "session_rss_growth_mb": None if growth is None else round(growth, 1),
        },
    )
    return 0
