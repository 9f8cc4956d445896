"""The app's settings: which mind to use and where the data lives.

Kept as JSON in the user's config directory, apart from the soul (the data
folder cannot live inside the data folder). No secret is ever kept here: an
endpoint's API key lives in the OS keychain.
"""

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from .errors import KnownError
from .models.chat import DEFAULT_CONTEXT_TOKENS


@dataclass
class Settings:
    model_path: str = ""          # a GGUF file; empty: the bundled default
    endpoint_url: str = ""        # an OpenAI-compatible server; when set, used instead of the GGUF
    endpoint_model: str = ""
    gpu_layers: int = -1          # -1: all layers, when the llama.cpp build has a GPU backend
    context_tokens: int = DEFAULT_CONTEXT_TOKENS  # see models/chat.py
    data_folder: str = ""         # empty: $ANIMA_HOME or the platform's user data dir

    @staticmethod
    def path() -> Path:
        explicit = os.environ.get("ANIMA_SETTINGS")
        return Path(explicit) if explicit else Path(platformdirs.user_config_dir("anima", appauthor=False)) / "settings.json"

    @classmethod
    def load(cls) -> "Settings":
        p = cls.path()
        if not p.exists():
            return cls()
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
            known = {f.name for f in fields(cls)}
            return cls(**{k: v for k, v in raw.items() if k in known})
        except (ValueError, TypeError) as e:
            raise KnownError(f"The settings file {p} is damaged ({e}); fix or delete it.") from None

    def validate(self) -> None:
        if self.context_tokens < 1024 or self.context_tokens > 131072:
            raise KnownError("The context size must be between 1,024 and 131,072 tokens.")
        if self.endpoint_url and not self.endpoint_url.startswith(("http://", "https://")):
            raise KnownError("The endpoint must be an http:// or https:// address.")
        if self.endpoint_url and not self.endpoint_model:
            raise KnownError("Name the model the endpoint should use.")
        if self.model_path and not Path(self.model_path).expanduser().is_file():
            raise KnownError(f"There is no model file at {self.model_path}.")

    def save(self) -> None:
        self.validate()
        p = self.path()
        p.parent.mkdir(parents=True, exist_ok=True)
        from .store.keys import write_atomically
        write_atomically(p, json.dumps(asdict(self), indent=1).encode("utf-8"))

    def chat_model(self):
        """The chat model these settings choose (call its start_loading() when the app may spend the time)."""
        if self.endpoint_url:
            from .models.openai_http import OpenAIChatModel, key_from_keychain
            return OpenAIChatModel(self.endpoint_url, self.endpoint_model, api_key=key_from_keychain(self.endpoint_url),
                                   context_tokens=self.context_tokens)
        from .models.llama import LlamaChatModel
        return LlamaChatModel(self.model_path or None, n_ctx=self.context_tokens,
                              n_gpu_layers=self.gpu_layers)
