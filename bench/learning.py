"""`python -m anima bench learning --scenario FILE|FOLDER [--model PATH | --endpoint URL]`: what the mind learns.

Plays a scripted conversation through the real companion (an encrypted soul in a temporary folder, the real turn,
the work between turns as the app runs it after each reply: learning, quick reflection; deep reflection after
each session, the last included), with the process's clock (anima/store/clock.py) set to each session's `at`
plus a minute per message, so that days pass between sessions. Then scores what the soul holds against the
scenario's expectations (bench/learning_score.py), and asks the scenario's questions through the turn: recall@10
(the answer's words in the ten items recalled for the question) and whether the reply holds them (a tiny model's
rarely does). A folder plays each of its scenarios, one table and one JSON line each.

Scenario (JSON): {"name", "sessions": [{"at": ISO time, "messages": [...]}], "expect": {"facts": [{"says"}],
"superseded": [{"old", "new"}], "rules": [{"says"}], "world": [{"name"}], "questions": [{"ask", "answer"}]}}.
Last line: {"bench": "learning", "scenario", "stored", "matched", "duplicates", "ungrounded", "junk",
"facts_found", "facts_expected", "superseded_ok", "superseded_expected", "rules_ok", "world_ok",
"qa_recall_at_10", "tokens_per_turn", "turn_s", "reflection_s", ..., "tokens_by_tier"}: turn_s is a turn's reply
(sent to read), reflection_s a deep reflection; the work after each turn is between_turns_s; tokens_by_tier the mean
tokens each tier of a turn's workspace took (anima/workspace/budget.py), also a table of its own.
"""

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from anima.companion import Companion
from anima.errors import KnownError
from anima.models.chat import ChatModel
from anima.models.embedder import Embedder
from anima.store import Home, clock
from anima.workspace.budget import TIERS, budgets

from . import learning_score
from .learning_score import Item
from .report import emit, say, table

ROOT = Path(__file__).resolve().parent.parent
OURS = ROOT / "bench" / "scenarios" / "learning"
SHARED = ROOT.parent / "shared" / "eval" / "learning"  # the example, and any kept aside, beside the repository
PASSPHRASE = "bench learning passphrase"
KEEPS = {t.name: t.keeps.value for t in TIERS}  # how a tier with no budget of its own keeps within the context


def scenarios(path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The scenario in a file, or each one in a folder (by name), checked for the fields the bench reads."""
    files = sorted(path.glob("*.json")) if path.is_dir() else [path] if path.exists() else []
    if not files:
        raise KnownError(f"No scenario (a file, or a folder of *.json) at {path}.")
    out = []
    for f in files:
        try:
            s = json.loads(f.read_text(encoding="utf-8"))
            assert isinstance(s["name"], str) and s["sessions"], "a name and sessions"
            for session in s["sessions"]:
                at(session["at"])
                assert all(isinstance(m, str) for m in session["messages"]), "messages are strings"
            s.setdefault("expect", {})
        except (OSError, ValueError, KeyError, TypeError, AssertionError) as e:
            raise KnownError(f"{f} is not a learning scenario: {e!r}.") from None
        out.append((f, s))
    return out


def shortened(scenario: dict[str, Any], messages: int) -> dict[str, Any]:
    """The scenario with only the first `messages` of each session (its expectations as they were)."""
    return {**scenario, "sessions": [{**s, "messages": s["messages"][:messages]} for s in scenario["sessions"]]}


def at(text: str) -> datetime:
    """A session's time; one with no zone is UTC."""
    t = datetime.fromisoformat(text)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


@dataclass
class Asked:
    ask: str
    answer: list[str]
    recalled: bool  # the answer's words in the top ten recalled
    replied: bool  # and in the reply
    reply: str


@dataclass
class Played:
    items: list[Item]
    proposals: list[str]
    said: list[str]
    turn_s: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    tiers: list[dict[str, int]] = field(default_factory=list)  # each turn's tokens by tier
    budgets: dict[str, int] = field(default_factory=dict)  # each tier's budget with this model (budget.py)
    between_s: list[float] = field(default_factory=list)
    reflection_s: list[float] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)


def held(c: Companion, parts_before: set[int]) -> tuple[list[Item], list[str]]:
    """What the soul holds that learning made: every memory (superseded ones too), rule, world card and part made
    during the scenario, each kind oldest first; and the proposals waiting for the person's say."""
    items = [Item("memory", m["id"], m["content"], m["valid_to"] is None) for m in sorted(c.memories.all(), key=_id)]
    items += [Item("rule", r.id, r.pattern, r.retired_at is None) for r in sorted(c.rules.all(), key=lambda r: r.id)]
    items += [
        Item("world", w["id"], f"{w['title']}\n{w['body']}", bool(w.get("enabled", 1)))
        for w in sorted(c.world.all(), key=_id)
    ]
    items += [
        Item("part", p.id, f"{p.name}. {p.data.get('description', '')}", p.status != "archived")
        for p in sorted(c.parts.all(archived=None), key=lambda p: p.id)
        if p.id not in parts_before
    ]
    return items, [p["content"] for p in c.proposals(pending_only=True) if p.get("content")]


def _id(row: dict[str, Any]) -> int:
    return int(row["id"])


def play(
    scenario: dict[str, Any],
    chat: ChatModel,
    embedder: Embedder,
    folder: Path,
    progress: Callable[[str], None] = lambda line: None,
) -> Played:
    """The scenario through a new companion in `folder`, with the clock at each message's time; the wall clock
    again after it."""
    was = clock.set_clock(clock.wall)
    try:
        return _play(scenario, chat, embedder, folder, progress)
    finally:
        clock.set_clock(was)


def _set(when: datetime) -> None:
    clock.set_clock(lambda: when)


def _play(
    scenario: dict[str, Any], chat: ChatModel, embedder: Embedder, folder: Path, progress: Callable[[str], None]
) -> Played:
    sessions = scenario["sessions"]
    _set(at(sessions[0]["at"]))
    c = Companion.create(Home(folder), PASSPHRASE, "Anima", chat, embedder)
    try:
        c.wait_until_indexed()
        parts_before = {p.id for p in c.parts.all(archived=None)}
        played = Played([], [], [m for s in sessions for m in s["messages"]])
        played.budgets = budgets(chat.capabilities.context_tokens)
        when = at(sessions[0]["at"])
        for n, session in enumerate(sessions, 1):
            if n > 1:
                c.start_session()  # a new conversation: earlier ones come back by recall
            for i, text in enumerate(session["messages"]):
                when = at(session["at"]) + timedelta(minutes=i)
                _set(when)
                t = time.perf_counter()
                stream = c.turn(text)
                stream.read()
                played.turn_s.append(time.perf_counter() - t)
                played.tokens.append(sum(chat.count_tokens(m["content"]) + 4 for m in stream.workspace.messages))
                played.tiers.append(stream.workspace.by_tier)
                t = time.perf_counter()
                c.settle()  # learning and quick reflection, as the app runs them after the reply
                played.between_s.append(time.perf_counter() - t)
                progress(
                    f"  session {n}, message {i + 1}/{len(session['messages'])}: reply {played.turn_s[-1]:.1f} s, "
                    f"after it {played.between_s[-1]:.1f} s"
                )
            when += timedelta(minutes=5)
            _set(when)
            t = time.perf_counter()
            c.reflect_deeply()
            played.reflection_s.append(time.perf_counter() - t)
            progress(
                f"session {n}: {len(session['messages'])} turns, {sum(played.turn_s[-len(session['messages']) :]):.0f}"
                f" s replying, {sum(played.between_s[-len(session['messages']) :]):.0f} s between turns, deep "
                f"reflection {played.reflection_s[-1]:.0f} s"
            )
        played.items, played.proposals = held(c, parts_before)
        # The questions, an hour after the last message, in a conversation of their own.
        c.start_session()
        _set(when + timedelta(hours=1))
        for q in scenario["expect"].get("questions", []):
            recalled = [r.text for r in c.recall(q["ask"], k=10)]
            reply = c.turn(q["ask"]).read()
            c.settle()
            played.asked.append(
                Asked(
                    q["ask"],
                    q["answer"],
                    learning_score.recalled_holds(recalled, q["answer"]),
                    learning_score.says(reply, q["answer"]),
                    reply,
                )
            )
        return played
    finally:
        c.close(models=False)


def figures(name: str, scenario: dict[str, Any], played: Played) -> tuple[learning_score.Scored, dict[str, Any]]:
    scored = learning_score.score(played.items, played.proposals, played.said, scenario["expect"])
    asked = played.asked
    return scored, {
        "scenario": name,
        "stored": len(played.items),
        "matched": scored.count("matched"),
        "duplicates": scored.count("duplicate"),
        "ungrounded": scored.count("ungrounded"),
        "junk": scored.count("junk"),
        "facts_found": scored.facts_found,
        "facts_expected": scored.facts_expected,
        "superseded_ok": scored.superseded_ok,
        "superseded_expected": scored.superseded_expected,
        "rules_ok": scored.rules_ok,
        "world_ok": scored.world_ok,
        "qa_recall_at_10": round(sum(a.recalled for a in asked) / len(asked), 3) if asked else 0.0,
        "tokens_per_turn": round(statistics.mean(played.tokens), 1) if played.tokens else 0.0,
        "turn_s": round(statistics.mean(played.turn_s), 2) if played.turn_s else 0.0,
        "reflection_s": round(statistics.mean(played.reflection_s), 2) if played.reflection_s else 0.0,
        "rules_expected": scored.rules_expected,
        "world_expected": scored.world_expected,
        "qa_in_reply": round(sum(a.replied for a in asked) / len(asked), 3) if asked else 0.0,
        "between_turns_s": round(statistics.mean(played.between_s), 2) if played.between_s else 0.0,
        "tokens_by_tier": by_tier(played.tiers),
    }


def by_tier(turns: list[dict[str, int]]) -> dict[str, float]:
    """The mean tokens of each tier over the turns, in the tiers' order (a tier no turn had is left out)."""
    names = [t.name for t in TIERS if any(turn.get(t.name) for turn in turns)]
    return {name: round(statistics.mean(turn.get(name, 0) for turn in turns), 1) for name in names}


def report(name: str, scenario: dict[str, Any], played: Played) -> dict[str, Any]:
    """The tables for one scenario; returns the figures of its JSON line."""
    scored, out = figures(name, scenario, played)
    table(
        f"learning, {name}: what the soul holds",
        ["kind", "id", "class", "current", "text"],
        [[i.kind, i.id, cls, "yes" if i.current else "no", " ".join(i.text.split())[:90]] for i, cls in scored.classes],
    )
    table(
        f"learning, {name}: the questions",
        ["ask", "answer", "recall@10", "in reply"],
        [
            [a.ask, " + ".join(a.answer), "yes" if a.recalled else "no", "yes" if a.replied else "no"]
            for a in played.asked
        ],
    )
    table(
        f"learning, {name}: scores",
        ["what", "value"],
        [[k, v] for k, v in out.items() if k not in ("scenario", "tokens_by_tier")],
    )
    table(
        f"learning, {name}: a turn's workspace, mean tokens by tier",
        ["tier", "tokens", "budget"],
        [[tier, mean, played.budgets.get(tier) or KEEPS[tier]] for tier, mean in out["tokens_by_tier"].items()],
    )
    say(f"not met: {'; '.join(scored.missing) or 'nothing'}")
    return out


def chat_model(args: argparse.Namespace) -> ChatModel:
    if args.model and args.endpoint:
        raise KnownError("Choose a model file (--model) or a model server (--endpoint), not both.")
    if args.endpoint:
        from anima.models.endpoint_key import ENV
        from anima.models.openai_http import OpenAIChatModel

        return OpenAIChatModel(args.endpoint, args.endpoint_model, api_key=os.environ.get(ENV))
    from anima.models.llama import LlamaChatModel

    return LlamaChatModel(args.model).start_loading()


def main(argv: list[str] | None = None, chat: ChatModel | None = None, embedder: Embedder | None = None) -> int:
    """`chat`, `embedder`: models in place of the ones the options name (a test's fakes)."""
    p = argparse.ArgumentParser(prog="anima bench learning")
    p.add_argument(
        "--scenario",
        type=Path,
        default=SHARED if SHARED.is_dir() else OURS,
        help="a scenario file, or a folder of them (default: ../shared/eval/learning if it exists, else ours)",
    )
    p.add_argument("--model", help="a GGUF file (default: the bundled SmolLM2-135M)")
    p.add_argument("--endpoint", help="an OpenAI-compatible server's URL, in place of a local model")
    p.add_argument("--endpoint-model", default="default", help="the model that server should use")
    p.add_argument("--messages", type=int, help="play at most this many messages of each session (a slow machine)")
    args = p.parse_args(argv or [])
    plays = scenarios(args.scenario)
    if args.messages:
        plays = [(f, shortened(s, args.messages)) for f, s in plays]
    from anima.models.embedder import MiniLMEmbedder

    chat = chat or chat_model(args)
    embedder = embedder or MiniLMEmbedder().start_loading()
    try:
        for path, scenario in plays:
            name = scenario["name"] or path.stem
            say(f"learning: {name} ({path}), on {chat.name}")
            with tempfile.TemporaryDirectory(prefix="anima-bench-learning-") as tmp:
                played = play(scenario, chat, embedder, Path(tmp), progress=say)
            emit("learning", report(name, scenario, played))
    finally:
        chat.close()
    return 0
