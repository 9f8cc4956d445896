"""Reading LoCoMo-format evaluation data (../shared/eval/README.md). The data is not shipped with Anima."""

import json
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo_dev.json"


def load(path: str | Path | None = None) -> list[dict]:
    p = Path(path or DEFAULT)  # `bench mind --locomo PATH` sets DEFAULT to the text typed
    if not p.exists():
        raise SystemExit(f"LoCoMo data not found at {p}; pass --locomo PATH")
    return json.loads(p.read_text())


def turns(data: list[dict]):
    """Every turn of every conversation as (speaker, text), in order."""
    for item in data:
        conv = item["conversation"]
        n = 1
        while f"session_{n}" in conv:
            for t in conv[f"session_{n}"]:
                text = t["text"] + (f" [shares {t['blip_caption']}]" if t.get("blip_caption") else "")
                yield t["speaker"], text
            n += 1
