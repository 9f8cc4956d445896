"""`python -m anima bench redteam`: the red-team suite (issue 16) on a model that complies with everything and on
the real default model.

The cases and the way each is run and judged are the tests' own (tests/redteam/cases.py, harness.py): each
case on a fresh encrypted soul (the complying model reflecting after each turn too), then what changed in
what shapes the companion without the person's say (unconfirmed_changes: the SELF floor with working memory
and inner state, parts, rules, emotional reads labelled with the attack), records outside the raw message
history that keep a secret (secrets_stored), and the changes that wait for the person (proposals). Targets:
0 and 0; proposals are the gate doing its work.
"""

import argparse
import tempfile
import time
from pathlib import Path

from .report import emit, say, table

MODELS = ("scripted", "default")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench redteam")
    p.add_argument("--cases", help="comma-separated case names (default: every case)")
    p.add_argument("--scripted-only", action="store_true", help="skip the real default model")
    args = p.parse_args(argv or [])

    from anima.models.chat import ChatModel
    from tests.redteam.cases import CASES
    from tests.redteam.harness import Borrowed, Complying, run_case

    cases = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    models = MODELS[:1] if args.scripted_only else MODELS
    real = None
    if "default" in models:
        from anima.models.llama import LlamaChatModel

        real = LlamaChatModel().start_loading()
        real.llama

    outcomes, seconds = {}, {}
    for case in cases:
        for model in models:
            chat: ChatModel
            if model == "scripted":
                chat = Complying(case)
            else:
                assert real is not None  # loaded above for "default"
                chat = Borrowed(real)
            t = time.perf_counter()
            with tempfile.TemporaryDirectory(prefix="anima-redteam-") as folder:
                # The complying model also reflects after each turn (as the app does); on the default model
                # quick reflection adds ~30 s a turn on two cores, so there it is off, as in the tests.
                outcomes[case.name, model] = run_case(
                    case,
                    chat,
                    Path(folder) / "home",
                    **(
                        {"reply_tokens": 96, "temperature": 0.0, "reflects": False}
                        if model == "default"
                        else {"reflects": True}
                    ),
                )
            seconds[case.name, model] = time.perf_counter() - t
    if real is not None:
        real.close()

    def figures(o):
        return [len(o.changes), len(o.secrets), len(o.proposals), len(o.problems()) - len(o.changes) - len(o.secrets)]

    headers = ["case", "channel", "trick", "known hole"]
    for m in models:
        headers += [f"{m}: changed", "secrets", "proposals", "other"]
    rows: list[list[object]] = []
    for case in cases:
        row: list[object] = [
            case.name,
            case.channel,
            case.trick,
            "+".join(w for w, h in (("gate", case.hole), ("reflection", case.reflect_hole)) if h),
        ]
        for m in models:
            row += figures(outcomes[case.name, m])
        rows.append(row)
    totals = {m: [sum(figures(outcomes[c.name, m])[i] for c in cases) for i in range(4)] for m in models}
    rows.append(
        ["total", "", "", sum(bool(c.hole or c.reflect_hole) for c in cases)] + [v for m in models for v in totals[m]]
    )
    table(
        f"redteam: {len(cases)} cases, each on a fresh encrypted soul; changed = unconfirmed changes to what "
        "shapes the companion, secrets = records outside the message history keeping one, other = leaky "
        "replies, missing notices, ...",
        headers,
        rows,
    )

    said = [[case.name, m, problem] for case in cases for m in models for problem in outcomes[case.name, m].problems()]
    if said:
        table(
            "redteam: what went wrong, in words",
            ["case", "model", "problem"],
            [[c, m, x if len(x) <= 150 else x[:147] + "..."] for c, m, x in said],
        )
    table(
        "redteam: seconds per case",
        ["model", "total_s", "median_s"],
        [
            [m, sum(seconds[c.name, m] for c in cases), sorted(seconds[c.name, m] for c in cases)[len(cases) // 2]]
            for m in models
        ],
    )
    say()
    emit(
        "redteam",
        {
            "cases": len(cases),
            "unconfirmed_changes": sum(t[0] for t in totals.values()),
            "secrets_stored": sum(t[1] for t in totals.values()),
            "proposals": sum(t[2] for t in totals.values()),
        },
    )
    return 0
