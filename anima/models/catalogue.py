"""A short list of capable small instruct models that run on a laptop, for a better mind in a few clicks.

The bundled SmolLM2-135M keeps Anima working offline, but it forgets a cat's name two messages later. Each entry
here is a current small instruct model (1-4B parameters) as a GGUF file on huggingface.co that llama.cpp runs on a
CPU, at Q4_K_M (about 4.8 bits a weight: most of the quality for a third of the size). Nothing is downloaded
unless the person presses Download (download.py).

What is stated, and how truthfully:
- `approx_bytes` and `memory_gb` are round figures for the person to judge by (the file's size on its model page,
  and that plus room for a 4,096-token context); machine.py judges from `memory_gb` whether it fits.
- `size` and `sha256` are exact or None. This catalogue was written on a machine that cannot reach
  huggingface.co: a figure is stated only where a public source read here states it for that very file (each
  cites its source), never from memory. A download is verified by the size the server announces, by the GGUF
  header, and by `size` and `sha256` where they are stated.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..paths import home
from .machine import Fit, Memory, fit


@dataclass(frozen=True)
class CatalogueModel:
    name: str
    file: str  # the file name in the models folder (and on the server)
    url: str  # where it is downloaded from: huggingface.co's direct address of the file
    page: str  # the model's page, where its card and licence are
    licence: str
    approx_bytes: int  # about; for the person, not for verification
    memory_gb: float  # about: RAM the model and a 4,096-token context take
    summary: str
    size: int | None = None  # exact, when known: then verified
    sha256: str | None = None  # exact, when known: then verified

    def describe(self) -> str:
        return (
            f"{self.name}: about {self.approx_bytes / 1e9:.1f} GB to download, about {self.memory_gb:g} GB of "
            f"memory; {self.licence}. {self.summary}"
        )


def _hf(repo: str, file: str) -> tuple[str, str]:
    return f"https://huggingface.co/{repo}/resolve/main/{file}", f"https://huggingface.co/{repo}"


# Sources of the exact figures (public files read through this project's search tools, 2026-12-06):
# [ios] a Swift app's ModelCatalog.swift whose comment says its byte sizes "are the exact byte counts served by
#       the host", checked after each download (search index file id 68913374495);
# [pi]  a llama.cpp cluster's acceptance report ("FOLLOWUP 06"), which verified the file on two machines: size
#       807,694,464 bytes and its SHA-256 (search index file id 61016933975). It and [ios] agree on the size.
CATALOGUE: tuple[CatalogueModel, ...] = (
    CatalogueModel(
        "Llama 3.2 1B Instruct",
        "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        *_hf("bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q4_K_M.gguf"),
        licence="Llama 3.2 Community License",
        approx_bytes=808_000_000,
        memory_gb=1.5,
        summary="The smallest that holds a conversation together; fast on any laptop.",
        size=807_694_464,  # [ios] and [pi]
        sha256="6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83",  # [pi]
    ),
    CatalogueModel(
        "Gemma 3 1B Instruct",
        "google_gemma-3-1b-it-Q4_K_M.gguf",
        *_hf("bartowski/google_gemma-3-1b-it-GGUF", "google_gemma-3-1b-it-Q4_K_M.gguf"),
        licence="Gemma Terms of Use",
        approx_bytes=810_000_000,
        memory_gb=1.5,
        summary="Google's smallest; warm and fluent for its size.",
    ),
    CatalogueModel(
        "Qwen2.5 1.5B Instruct",
        "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
        *_hf("bartowski/Qwen2.5-1.5B-Instruct-GGUF", "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf"),
        licence="Apache-2.0",
        approx_bytes=986_000_000,
        memory_gb=2,
        summary="Keeps track of a conversation and follows a format well; any laptop.",
        size=986_048_768,  # [ios]
    ),
    CatalogueModel(
        "SmolLM2 1.7B Instruct",
        "SmolLM2-1.7B-Instruct-Q4_K_M.gguf",
        *_hf("bartowski/SmolLM2-1.7B-Instruct-GGUF", "SmolLM2-1.7B-Instruct-Q4_K_M.gguf"),
        licence="Apache-2.0",
        approx_bytes=1_056_000_000,
        memory_gb=2,
        summary="The bundled model's big sibling, same chat format; trained on openly documented data.",
        size=1_055_609_824,  # [ios]
    ),
    CatalogueModel(
        "Qwen3 1.7B",
        "Qwen_Qwen3-1.7B-Q4_K_M.gguf",
        *_hf("bartowski/Qwen_Qwen3-1.7B-GGUF", "Qwen_Qwen3-1.7B-Q4_K_M.gguf"),
        licence="Apache-2.0",
        approx_bytes=1_300_000_000,
        memory_gb=2.5,
        summary="The newest generation at this size; thinks aloud before it answers unless told not to.",
    ),
    CatalogueModel(
        "Llama 3.2 3B Instruct",
        "llama-3.2-3b-instruct-q4_k_m.gguf",
        *_hf("hugging-quants/Llama-3.2-3B-Instruct-Q4_K_M-GGUF", "llama-3.2-3b-instruct-q4_k_m.gguf"),
        licence="Llama 3.2 Community License",
        approx_bytes=2_020_000_000,
        memory_gb=3.5,
        summary="A good all-round companion on 8 GB of memory.",
        size=2_019_373_920,  # [ios]
    ),
    CatalogueModel(
        "Phi-4 mini Instruct",
        "microsoft_Phi-4-mini-instruct-Q4_K_M.gguf",
        *_hf("bartowski/microsoft_Phi-4-mini-instruct-GGUF", "microsoft_Phi-4-mini-instruct-Q4_K_M.gguf"),
        licence="MIT",
        approx_bytes=2_500_000_000,
        memory_gb=4,
        summary="Strong at reasoning and following a format; drier in conversation.",
    ),
    CatalogueModel(
        "Gemma 3 4B Instruct",
        "google_gemma-3-4b-it-Q4_K_M.gguf",
        *_hf("bartowski/google_gemma-3-4b-it-GGUF", "google_gemma-3-4b-it-Q4_K_M.gguf"),
        licence="Gemma Terms of Use",
        approx_bytes=2_500_000_000,
        memory_gb=4,
        summary="The most natural conversation here; wants 8 GB of memory or more.",
    ),
    CatalogueModel(
        "Qwen3 4B Instruct 2507",
        "Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf",
        *_hf("bartowski/Qwen_Qwen3-4B-Instruct-2507-GGUF", "Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf"),
        licence="Apache-2.0",
        approx_bytes=2_500_000_000,
        memory_gb=4,
        summary="The strongest here at 4B; answers without thinking aloud.",
    ),
)


def fitting(memory: Memory, catalogue: Sequence[CatalogueModel] = CATALOGUE) -> list[tuple[CatalogueModel, Fit]]:
    """Each model with whether it fits `memory`, those that fit first, then tight, then too big (each group in
    catalogue order: smallest first)."""
    order = {Fit.FITS: 0, Fit.UNKNOWN: 1, Fit.TIGHT: 2, Fit.TOO_BIG: 3}
    judged = [(m, fit(m.memory_gb, memory)) for m in catalogue]
    return sorted(judged, key=lambda pair: order[pair[1]])


def in_use(model: CatalogueModel, model_path: str, data_folder: str = "") -> bool:
    """Whether the settings' model file (`model_path`) is this catalogue model's downloaded file."""
    return bool(model_path) and Path(model_path).expanduser().absolute() == local_path(model, data_folder).absolute()


def models_folder(data_folder: str = "") -> Path:
    """Where downloaded models live: `models/` in the data directory (the settings' data folder, else
    $ANIMA_HOME, else the platform's), beside the soul and apart from any cache that may be cleared."""
    return home(data_folder or None) / "models"


def local_path(model: CatalogueModel, data_folder: str = "") -> Path:
    return models_folder(data_folder) / model.file


def downloaded(model: CatalogueModel, data_folder: str = "") -> bool:
    return local_path(model, data_folder).is_file()
