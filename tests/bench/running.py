"""Running a benchmark as `make bench` does, at its smallest, and reading the JSON object of its last line."""

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass
class Ran:
    returncode: int
    out: str
    err: str
    figures: dict  # the last line's object, {} when that line is no JSON


def bench(name: str, *args: str, locomo: Path | None = None, env: dict | None = None, timeout: float = 600) -> Ran:
    """`python -m anima bench NAME ARGS` in a process of its own, on the test's home and cache. `locomo`: the
    LoCoMo-format file its conversations come from, in place of ../shared/eval's (which is not shipped)."""
    code = "import sys; from anima.bench import run"
    if locomo is not None:
        code += f"; import pathlib, bench.locomo; bench.locomo.DEFAULT = pathlib.Path({str(locomo)!r})"
    code += f"; sys.exit(run({name!r}, sys.argv[1:]))"
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    full = {**os.environ, "PYTHONPATH": path, "QT_QPA_PLATFORM": "offscreen", **(env or {})}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=full, cwd=ROOT, timeout=timeout
    )
    lines = done.stdout.strip().splitlines()
    try:
        figures = json.loads(lines[-1]) if lines else {}
    except ValueError:
        figures = {}
    return Ran(done.returncode, done.stdout, done.stderr, figures if isinstance(figures, dict) else {})


SAID = [
    ("Caroline", "I went to the support group on Monday and met a counsellor called Ruth."),
    ("Melanie", "That sounds good. I painted a sunrise over the lake last weekend."),
    ("Caroline", "My grandmother gave me a silver necklace from Sweden when I was ten."),
    ("Melanie", "The kids and I went camping in the mountains and saw a bear far away."),
    ("Caroline", "I am reading a book about adoption agencies because I want to adopt."),
    ("Melanie", "I run a pottery class on Thursdays at the community centre."),
    ("Caroline", "Ruth said I should keep a journal, so I write in it every night."),
    ("Melanie", "My daughter's birthday is in June and she wants a violin."),
]


def locomo_file(folder: Path, sessions: int = 3) -> Path:
    """A small conversation in LoCoMo's format (speakers, sessions with their dates, turns with dia_ids, and
    questions naming the turns that hold their answers), written to `folder`."""
    conversation: dict[str, object] = {"speaker_a": "Caroline", "speaker_b": "Melanie"}
    qa = []
    for s in range(1, sessions + 1):
        conversation[f"session_{s}_date_time"] = f"1:56 pm on {s + 7} May, 2023"
        turns: list[dict[str, str]] = []
        for i, (speaker, text) in enumerate(SAID, 1):
            turn = {"speaker": speaker, "dia_id": f"D{s}:{i}", "text": f"{text} (session {s})"}
            if i == 2:
                turn["blip_caption"] = "a photo of a painting of a sunrise"
            turns.append(turn)
        conversation[f"session_{s}"] = turns
    qa.append({"question": "Who is Caroline's counsellor?", "answer": "Ruth", "evidence": ["D1:1"], "category": 1})
    qa.append({"question": "What did Melanie paint?", "answer": "a sunrise", "evidence": ["D1:2"], "category": 4})
    qa.append({"question": "Where is the necklace from?", "answer": "Sweden", "evidence": ["D2:3"], "category": 3})
    qa.append({"question": "What does Melanie think?", "answer": "", "evidence": [], "category": 5})  # left out
    path = folder / "locomo.json"
    path.write_text(json.dumps([{"sample_id": "test", "conversation": conversation, "qa": qa}]), encoding="utf-8")
    return path
