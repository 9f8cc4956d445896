"""A short list of capable small instruct models that run on a laptop, for a better mind in a few clicks.

The bundled SmolLM2-135M keeps Anima working offline, but it forgets a cat's name two messages later. Each entry
here is a GGUF file on huggingface.co that llama.cpp runs on a CPU, at Q4_K_M (about 4.8 bits a weight: most of
the quality for a third of the size). Nothing is downloaded unless the person presses Download (download.py).

What is stated, and how truthfully:
- `approx_bytes` and `memory_gb` are round figures for the person to judge by (the file's size on its model page,
  and that plus room for a 4,096-token context); they are not used to verify anything.
- `size` and `sha256` are exact or None. This catalogue was written on a machine that could not reach
  huggingface.co, so none is stated: a download is verified by the size the server announces, by the GGUF header,
  and by the sha256 once an entry states it. Never fill one in from memory.
"""

from dataclasses import dataclass
from pathlib import Path

from ..paths import home


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


CATALOGUE: tuple[CatalogueModel, ...] = (
    CatalogueModel(
        "Qwen2.5 1.5B Instruct",
        "qwen2.5-1.5b-instruct-q4_k_m.gguf",
        *_hf("Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf"),
        licence="Apache-2.0",
        approx_bytes=1_100_000_000,
        memory_gb=2,
        summary="The lightest that keeps track of a conversation; any laptop.",
    ),
    CatalogueModel(
        "SmolLM2 1.7B Instruct",
        "SmolLM2-1.7B-Instruct-Q4_K_M.gguf",
        *_hf("bartowski/SmolLM2-1.7B-Instruct-GGUF", "SmolLM2-1.7B-Instruct-Q4_K_M.gguf"),
        licence="Apache-2.0",
        approx_bytes=1_100_000_000,
        memory_gb=2,
        summary="The bundled model's big sibling, same chat format.",
    ),
    CatalogueModel(
        "Gemma 2 2B Instruct",
        "gemma-2-2b-it-Q4_K_M.gguf",
        *_hf("bartowski/gemma-2-2b-it-GGUF", "gemma-2-2b-it-Q4_K_M.gguf"),
        licence="Gemma Terms of Use",
        approx_bytes=1_700_000_000,
        memory_gb=3,
        summary="Warm, fluent conversation for its size.",
    ),
    CatalogueModel(
        "Llama 3.2 3B Instruct",
        "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        *_hf("bartowski/Llama-3.2-3B-Instruct-GGUF", "Llama-3.2-3B-Instruct-Q4_K_M.gguf"),
        licence="Llama 3.2 Community License",
        approx_bytes=2_000_000_000,
        memory_gb=3.5,
        summary="A good all-round companion on 8 GB of memory.",
    ),
    CatalogueModel(
        "Phi-3.5 mini Instruct",
        "Phi-3.5-mini-instruct-Q4_K_M.gguf",
        *_hf("bartowski/Phi-3.5-mini-instruct-GGUF", "Phi-3.5-mini-instruct-Q4_K_M.gguf"),
        licence="MIT",
        approx_bytes=2_400_000_000,
        memory_gb=4,
        summary="Strong at reasoning and following a format; drier in conversation.",
    ),
)


def models_folder(data_folder: str = "") -> Path:
    """Where downloaded models live: `models/` in the data directory (the settings' data folder, else
    $ANIMA_HOME, else the platform's), beside the soul and apart from any cache that may be cleared."""
    return home(data_folder or None) / "models"


def local_path(model: CatalogueModel, data_folder: str = "") -> Path:
    return models_folder(data_folder) / model.file


def downloaded(model: CatalogueModel, data_folder: str = "") -> bool:
    return local_path(model, data_folder).is_file()
