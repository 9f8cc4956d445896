"""The kill loop over every write path: a child process works one path forever and is SIGKILLed at a random moment.

Paths: a turn (the person's message, the reply, then learning and quick reflection between turns), deep
reflection, forgetting, export, import (into a second home), and a passphrase change. The child prints one line
per acknowledged write (after the call that made it returned):

    keep KIND ID         an item that must survive every later restart
    flagged episode ID   an episode a forget flagged, which the run about to start makes again: no longer kept
    gone message ID WORD a message forgotten (WORD is its own): it must stay forgotten
    core PATH            an export finished: the file must read back whole
    pass WHICH           the passphrase change to WHICH (a or b) returned
    imported             an import into the second home finished

After each kill the parent restarts the soul as the app does (unlock, which removes what a killed writer left;
the index loads and re-indexes what has no vector) and checks: both homes pass Soul.check(); every `keep` is
there; every `gone` is absent from its table, from the vectors, and from every episode; no recallable item lacks a
vector after the reindex; nothing but the soul's own files is left in the homes; a passphrase change cut short
opens with the old or the new passphrase (counted: which).
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PASSPHRASES = {"a": "kill-loop passphrase A", "b": "kill-loop passphrase B"}
EXPORT_PASSPHRASE = "kill-loop export passphrase"
PATHS = ("turn", "deep", "forget", "export", "import", "passphrase")
# What may stay in a home between programs: the soul, its WAL and shared memory, its key, the exported core, and
# the two empty lock files (anima/store/locks.py).
ALLOWED = {
    "soul.db",
    "soul.db-wal",
    "soul.db-shm",
    "soul.key",
    "export.anima",
    "imported",
    ".soul.lock",
    ".soul.key.lock",
}


@dataclass
class PathResults:
    kills: int = 0
    kills_by_path: Counter = field(default_factory=Counter)
    acknowledged: int = 0
    acknowledged_lost: int = 0
    forgotten_back: int = 0
    integrity_failures: int = 0
    vectors_missing: int = 0  # after the restart's reindex: must be 0
    unindexed_at_restart: int = 0  # before it (a message killed between its row and its vector)
    leftovers: int = 0
    tracebacks: int = 0
    bad_cores: int = 0
    passphrase_opened: Counter = field(default_factory=Counter)  # "old" / "new" after a change cut short
    restart_ms: list[float] = field(default_factory=list)


# ---- the child ----------------------------------------------------------------------------------------------


def _answering_model():
    """The fake chat model, answering every structured call (learning, quick and deep reflection) with a small
    valid answer and every reply with words."""
    from anima.models.fake import FakeChatModel

    class Answering(FakeChatModel):
        def stream_text(self, messages, *, max_tokens, temperature, stop, cancel, schema):
            if not self.queue:
                self.queue.append(_answer(schema, messages))
            return super().stream_text(
                messages, max_tokens=max_tokens, temperature=temperature, stop=stop, cancel=cancel, schema=schema
            )

    return Answering()


def _answer(schema: dict | None, messages) -> str:
    props = set((schema or {}).get("properties", {}))
    n = random.randrange(10**6)
    said = " ".join(str(m.get("content", "")) for m in messages)
    if "facts" in props:
        number = (re.findall(r"notebook number (\d+)", said) or [n])[-1]
        return json.dumps({"facts": [{"fact": f"notebook number {number} is on the shelf", "replaces": 0}]})
    if "inner_state" in props:
        return json.dumps(
            {
                "read": {
                    "noticed": False,
                    "valence": 0,
                    "arousal": 0,
                    "dominance": 5,
                    "label": "",
                    "confidence": 0,
                    "evidence_type": "wording",
                    "evidence": "",
                },
                "inner_state": f"Thinking about notebook {n}.",
                "hold": [],
                "drop": [],
            }
        )
    if "episodes" in props:
        lines = re.findall(r"^(\d+)\. \[", said, re.M)  # the messages as deep reflection numbers them
        first = re.findall(r"^1\. \[[^\]]*\] [^:]*: (.*)$", said, re.M)  # an episode is about what was said
        episodes = (
            [
                {
                    "messages": [int(x) for x in lines[:2]],
                    "summary": f"Talk of {first[0]}" if first else "",
                    "emotional_arc": "calm",
                    "significance": 5,
                    "self_assessment": "I listened.",
                }
            ]
            if len(lines) >= 2
            else []
        )
        return json.dumps({"episodes": episodes, **({"feedback": []} if "feedback" in props else {})})
    if "growth" in props:
        return json.dumps({"growth": [], "insights": [], "identity": ""})
    if schema:
        return "{}"
    return f"Reply {n} about the notebook."


def child(home: str, path: str, seed: int) -> None:
    """Work one write path forever, printing what was acknowledged."""
    rng = random.Random(seed)
    say = lambda *words: print(*words, flush=True)  # noqa: E731
    from anima.store import Home

    h = Home(home)
    which = _current(h)
    if path == "passphrase":
        say("ready")
        while True:
            new = "b" if which == "a" else "a"
            h.change_passphrase(PASSPHRASES[which], PASSPHRASES[new])
            which = new
            say("pass", new)
    if path == "export":
        soul = h.unlock(PASSPHRASES[which])
        say("ready")
        while True:
            Home.export(soul, h.dir / "export.anima", EXPORT_PASSPHRASE)
            say("core", h.dir / "export.anima")
    if path == "import":
        target = Home(h.dir / "imported")
        say("ready")
        while True:
            target.import_core(h.dir / "export.anima", EXPORT_PASSPHRASE, PASSPHRASES["a"], replace=target.exists())
            say("imported")
    from anima.companion import Companion
    from anima.models.fake import FakeEmbedder

    c = Companion(h, h.unlock(PASSPHRASES[which]), _answering_model(), FakeEmbedder(), background=False)
    c.start_background()
    c.indexer_thread.join()
    c.reflector.evaluation = c.reflector.creation = None  # the parts' work is not this loop's
    c.learns, c.reflector.every = True, 1
    say("ready")
    while True:
        n = rng.randrange(10**9)
        if path == "turn":
            turn = c.turn(f"My notebook number {n} is on the shelf, I keep notes in it.")
            turn.read()
            say("keep message", turn.user_id)
            if turn.reply_id is not None:
                say("keep message", turn.reply_id)
            c.settle()  # learning and quick reflection, as while the person reads
        elif path == "deep":
            words = {}  # each message's own word
            for i in range(4):
                words[c.messages.record("user" if i % 2 == 0 else "companion", f"Notebook {n} line {i} dw{n}x{i}.")] = (
                    f"dw{n}x{i}"
                )
            # A forget took a message these were made of (below, or cut short before it said so): this run makes
            # them again (reflect/regenerate.py), and the old ones go.
            for eid in c.episodes.flagged():
                say("flagged episode", eid)
            deep = c.reflector.deep
            assert deep is not None  # a Companion always gives its reflector one
            done = deep.run()
            for eid in done.episodes:
                say("keep episode", eid)
            # Now and then a message an episode was made of is forgotten: the next run makes the episode again.
            cited = [m for eid in done.episodes for m in c.episodes.made_of(eid) if m in words]
            if cited and rng.random() < 0.5:
                c.forget("message", cited[0])
                say("gone message", cited[0], words[cited[0]])
        elif path == "forget":
            mid = c.messages.record("user", f"Forget me soon: notebook fgt{n}.")
            c.forget("message", mid)
            say("gone message", mid, f"fgt{n}")


def _current(home) -> str:
    """Which passphrase opens the home now (a passphrase change may have been cut short)."""
    from anima.errors import WrongPassphrase

    keyfile = home.keyfile()
    for which in ("a", "b"):
        try:
            keyfile.unwrap(PASSPHRASES[which])
            return which
        except WrongPassphrase:
            continue
    raise RuntimeError("neither passphrase opens the kill loop's soul")


# ---- the parent -----------------------------------------------------------------------------------------------


def run(kills: int, seed: int = 11, home: str | None = None, paths=PATHS, log=None, progress=None) -> PathResults:
    """`log(line)`: what went wrong, as it happens; `progress(results)`: after every kill's checks."""
    from anima.store import Home, keys

    rng = random.Random(seed)
    tmp = None
    if home is None:
        tmp = tempfile.TemporaryDirectory(prefix="anima-kill-")
        home = tmp.name + "/home"
    root = Path(__file__).resolve().parent.parent
    # Keys wrapped at a trivial cost: hundreds of passphrase changes and imports, each a wrap (see keys.py).
    env = {**os.environ, "PYTHONPATH": str(root), keys.INSECURE_TEST_COST_ENV: "1"}
    os.environ[keys.INSECURE_TEST_COST_ENV] = "1"
    h = Home(home)
    with h.create(PASSPHRASES["a"]) as soul:
        # A core for the imports from the first on: on a busy machine every export may be killed before it ends,
        # and the import path would then go without a kill (its turns given to exports).
        Home.export(soul, h.dir / "export.anima", EXPORT_PASSPHRASE)
    res = PathResults()
    kept: set[tuple[str, int]] = set()
    gone: set[tuple[int, str]] = set()
    which = "a"
    try:
        for i in range(kills):
            path = paths[i % len(paths)]
            if path == "import" and not (h.dir / "export.anima").exists():
                path = "export"
            lines, err = _kill_one(root, env, home, path, rng)
            res.kills += 1
            res.kills_by_path[path] += 1
            res.tracebacks += err.count("Traceback")
            if "Traceback" in err and log:
                log(f"traceback in the {path} child:\n{err[-3000:]}")
            for entry in lines:
                if not entry.endswith("\n"):
                    continue  # cut short by the kill: not an acknowledgement
                words = entry.split()
                if words[:1] == ["keep"]:
                    kept.add((words[1], int(words[2])))
                elif words[:1] == ["flagged"]:
                    kept.discard((words[1], int(words[2])))
                elif words[:1] == ["gone"]:
                    gone.add((int(words[2]), words[3]))
                elif words[:1] == ["pass"]:
                    which = words[1]
            if path == "passphrase":
                which = _opened(h, which, res)
            _restart(h, which, kept, gone, res, log)
            if progress:
                progress(res)
        res.acknowledged = len(kept) + len(gone)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return res


def _kill_one(root: Path, env: dict, home: str, path: str, rng: random.Random) -> tuple[list[str], str]:
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"from bench.killpaths import child; child({home!r}, {path!r}, {rng.randrange(10**9)})",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
            cwd=root,
        )
        out = proc.stdout
        assert out is not None  # stdout=PIPE
        line = out.readline()
        if line.strip() != "ready":
            proc.kill()
            proc.wait()
            err.seek(0)
            raise RuntimeError(f"the {path} child failed to start: {line!r}\n{err.read()[-3000:]}")
        lines: list[str] = []
        reader = threading.Thread(target=lines.extend, args=(out,), daemon=True)
        reader.start()
        time.sleep(rng.uniform(0.02, 0.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        reader.join()
        out.close()
        err.seek(0)
        return lines, err.read()


def _opened(h, acked: str, res: PathResults) -> str:
    """After a passphrase change was killed: which passphrase opens the soul, the last acknowledged one ("old")
    or the one being set ("new")? Neither is an integrity failure."""
    from anima.errors import WrongPassphrase

    other = "b" if acked == "a" else "a"
    for which, label in ((acked, "old"), (other, "new")):
        try:
            h.keyfile().unwrap(PASSPHRASES[which])
            res.passphrase_opened[label] += 1
            return which
        except WrongPassphrase:
            continue
    res.integrity_failures += 1
    return acked


def _restart(h, which: str, kept: set, gone: set, res: PathResults, log) -> None:
    from anima.models.fake import FakeEmbedder
    from anima.retrieval.indexer import Indexer
    from anima.store import Home
    from anima.store.kinds import KINDS

    t = time.perf_counter()
    try:
        soul = h.unlock(PASSPHRASES[which])
    except Exception as e:
        res.integrity_failures += 1
        if log:
            log(f"the soul did not open after a kill: {type(e).__name__}: {e}")
        return
    try:
        try:
            soul.check()
        except Exception as e:
            res.integrity_failures += 1
            if log:
                log(f"integrity check failed: {e}")
        indexer = Indexer(soul, FakeEmbedder())
        res.unindexed_at_restart += sum(len(v) for v in indexer.missing().values())
        indexer.load()
        indexer.reindex_missing()
        res.vectors_missing += sum(len(v) for v in indexer.missing().values())
        res.restart_ms.append((time.perf_counter() - t) * 1000)
        lost = [k for k in kept if not _present(soul, KINDS[k[0]].table, k[1])]
        res.acknowledged_lost = max(res.acknowledged_lost, len(lost))
        # Ids are reused once forgotten: what must not come back is the message's own word, in its row, its
        # full-text index, or a vector left under an id that no message holds.
        back = [g for g in gone if _forgotten_back(soul, *g)]
        res.forgotten_back = max(res.forgotten_back, len(back))
    finally:
        soul.close()
    imported = Home(h.dir / "imported")
    if imported.dir.exists() and not imported.exists():
        imported.tidy()  # a first import killed midway: the next create or import starts so (Home._staging)
    if imported.exists():
        try:
            with imported.unlock(PASSPHRASES["a"]) as other:
                other.check()
        except Exception as e:
            res.integrity_failures += 1
            if log:
                log(f"the imported soul fails after a kill: {type(e).__name__}: {e}")
    core = h.dir / "export.anima"
    if core.exists():
        from anima.store import core as core_module

        try:
            core_module.read_core(core, EXPORT_PASSPHRASE)
        except Exception:
            res.bad_cores += 1
    left = [p.name for p in h.dir.iterdir() if p.name not in ALLOWED]
    if imported.dir.exists():
        left += [f"imported/{p.name}" for p in imported.dir.iterdir() if p.name not in ALLOWED]
    if left and log:
        log(f"left behind: {left}")
    res.leftovers = max(res.leftovers, len(left))


def _forgotten_back(soul, item_id: int, word: str) -> bool:
    if soul.query("SELECT 1 FROM messages WHERE content LIKE ?", (f"%{word}%",)):
        return True
    # Nor in an episode summed up from it: a flagged one lost its words with the forget (store/forget.py _blank).
    if soul.query("SELECT 1 FROM episodes WHERE summary LIKE ?", (f"%{word}%",)):
        return True
    if soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", (f'"{word}"',)):
        return True
    return bool(
        soul.query(
            "SELECT 1 FROM embeddings WHERE item_kind = 'message' AND item_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM messages WHERE id = ?)",
            (item_id, item_id),
        )
    )


def _present(soul, table: str, item_id: int) -> bool:
    return bool(soul.query(f"SELECT 1 FROM {table} WHERE id = ?", (item_id,)))
