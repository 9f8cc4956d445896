"""`python -m anima.models.export_onnx`: all-MiniLM-L6-v2 as one ONNX file, exported once, at `make setup`.

The run-time embedder (embedder.py) then needs only ONNX Runtime and the `tokenizers` package: not torch,
sentence-transformers or transformers, which took ~1 GB resident and seconds to import. This script is the
only place torch is needed for embeddings; it writes the graph (the transformer, mean pooling and L2
normalisation of the very same weights) and the tokenizer beside it into `embedder.onnx_dir()`, a folder
of the Python installation (the venv, or the bundle), never the user's home.
"""

import argparse
import json
import os
import shutil
import sys
import warnings
from pathlib import Path
from typing import cast

from .embedder import MAX_TOKENS, MODEL_FILE, TOKENIZER_FILE, minilm_path, onnx_dir

NAMES = ["input_ids", "attention_mask", "token_type_ids"]


def export(dest: Path, source: str | None = None) -> Path:
    """Write model.onnx, tokenizer.json and export.json into `dest` (replacing what is there); returns `dest`."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

    source = source or minilm_path()
    model = SentenceTransformer(source, device="cpu")
    # The transformer (a transformers PreTrainedModel); torch's Module.__getattr__ says Tensor | Module.
    bert = cast(torch.nn.Module, model[0].auto_model).eval()

    class Pooled(torch.nn.Module):
        """What SentenceTransformer.encode computes (modules.json: Transformer, mean Pooling, Normalize)."""

        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(
            self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
        ) -> torch.Tensor:
            out = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(out.dtype)
            pooled = (out * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1)

    dest = Path(dest)
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    # Two texts of different lengths: the traced graph must not fix the batch or the padding.
    sample = model.tokenizer(["a sample", "a longer sample sentence"], return_tensors="pt", padding=True)
    with warnings.catch_warnings(), torch.inference_mode(False):
        warnings.simplefilter("ignore")  # the tracer's notes about the model's Python control flow
        torch.onnx.export(
            Pooled(),
            tuple(sample[n] for n in NAMES),
            str(staging / MODEL_FILE),
            input_names=NAMES,
            output_names=["vector"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in NAMES}, "vector": {0: "batch"}},
        )
    # The tokenizer as sentence-transformers runs it: its file says 128 tokens, the model reads 256.
    tokenizer = json.loads((Path(source) / TOKENIZER_FILE).read_text(encoding="utf-8"))
    tokenizer["truncation"] = {"max_length": MAX_TOKENS, "strategy": "LongestFirst", "stride": 0, "direction": "Right"}
    tokenizer["padding"] = {
        "strategy": "BatchLongest",
        "direction": "Right",
        "pad_to_multiple_of": None,
        "pad_id": 0,
        "pad_type_id": 0,
        "pad_token": "[PAD]",
    }
    (staging / TOKENIZER_FILE).write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf-8")
    weights = Path(source) / "model.safetensors"
    (staging / "export.json").write_text(
        json.dumps(
            {
                "model": "all-MiniLM-L6-v2",
                "dim": 384,
                "max_tokens": MAX_TOKENS,
                "opset": 17,
                "weights_bytes": weights.stat().st_size if weights.exists() else None,
                "torch": torch.__version__,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    shutil.rmtree(dest, ignore_errors=True)
    staging.rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m anima.models.export_onnx", description=__doc__.splitlines()[0])
    p.add_argument("--dest", type=Path, default=None, help=f"folder to write (default: {onnx_dir()})")
    p.add_argument("--if-missing", action="store_true", help="do nothing when the folder already holds the model")
    args = p.parse_args(argv)
    dest = args.dest or onnx_dir()
    if args.if_missing and (dest / MODEL_FILE).is_file() and (dest / TOKENIZER_FILE).is_file():
        print(f"The ONNX embedder is already in {dest}.")
        return 0
    export(dest)
    size = sum(f.stat().st_size for f in dest.iterdir())
    print(f"Exported all-MiniLM-L6-v2 to {dest} ({size / 1e6:.0f} MB).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
