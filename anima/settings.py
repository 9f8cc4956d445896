"""The app's settings: which mind to use and where the data lives.

Kept as JSON in the user's config directory, apart from the soul (the data
folder cannot live inside the data folder). No secret is ever kept here: an
endpoint's API key lives in the OS keychain.
"""

import errno
import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import cast

import platformdirs

from .errors import KnownError
from .files import NotRegularFile, TooLarge, read_regular, write_atomically
from .models.chat import DEFAULT_CONTEXT_TOKENS, ChatModel


@dataclass
class Settings:
    model_path: str = ""  # a GGUF file; empty: the bundled default
    endpoint_url: str = ""  # an OpenAI-compatible server; when set, used instead of the GGUF
    endpoint_model: str = ""
    endpoint_dialect: str = "auto"  # how the server takes a JSON schema (models/dialects.py); auto: found once
    endpoint_uses_key: bool = False  # an API key was entered for it: from the keychain, else asked for
    gpu_layers: int = -1  # -1: all layers, when the llama.cpp build has a GPU backend
    context_tokens: int = DEFAULT_CONTEXT_TOKENS  # see models/chat.py
    data_folder: str = ""  # empty: $ANIMA_HOME or the platform's user data dir
    theme: str = "system"  # the window's look: one of THEMES ("system" follows the desktop's light or dark)
    # The companion speaks first when a note or a prediction falls due (conversation/reaching_out.py): at most this
    # many times a day (0: never), and never in the quiet hours ("HH:MM" to "HH:MM", wrapping midnight).
    reach_out_per_day: int = 1
    quiet_from: str = "22:00"
    quiet_to: str = "08:00"
    companion: str = ""  # the companion that opens by default (store/companions.py); empty: the first one
    sidebar_shown: bool = True  # the window's conversations at the left (View: toggle_sidebar)
    # The window as it was last closed (ui/window_state.py), as plain values; its place and size are Qt's own
    # bytes, in base64. Written alone as the window closes (keep): never asked to be valid, never a secret.
    window_geometry: str = ""
    window_maximized: bool = False
    window_split: str = ""  # the widths of the chat and the Open Mind beside it: "650,450"
    mind_open: bool = False

    @staticmethod
    def path() -> Path:
        explicit = os.environ.get("ANIMA_SETTINGS")
        return (
            Path(explicit)
            if explicit
            else Path(platformdirs.user_config_dir("anima", appauthor=False)) / "settings.json"
        )

    @classmethod
    def load(cls) -> "Settings":
        p = cls.path()
        data = _read(p)
        if data is None:
            return cls()
        try:
            raw = json.loads(data.decode("utf-8"))
        except ValueError as e:
            raise _damaged(p, str(e)) from None
        except RecursionError:  # Python's JSON reader recurses into each array and object
            raise _damaged(p, "it is nested thousands deep") from None
        if not isinstance(raw, dict):
            raise _damaged(p, "it holds no JSON object")
        # Keys this version does not know are left alone: an older or a newer Anima wrote them.
        # Each field's type is a class: this module's annotations are evaluated (no postponed annotations).
        known = {f.name: cast(type, f.type) for f in fields(cls)}
        given = {k: v for k, v in raw.items() if k in known}
        for name, value in given.items():
            if problem := _wrong(value, known[name]):
                raise _damaged(p, f'its "{name}" {problem}')
        return cls(**given)

    def validate(self) -> None:
        if self.context_tokens < 1024 or self.context_tokens > 131072:
            raise KnownError("The context size must be between 1,024 and 131,072 tokens.")
        if not 0 <= self.reach_out_per_day <= 24:
            raise KnownError("Reaching out is at most 24 times a day (0 turns it off).")
        for said in (self.quiet_from, self.quiet_to):
            if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", said):
                raise KnownError(f'Quiet hours are times of day such as "22:00"; "{said}" is not one.')
        if self.endpoint_url:
            from .models.openai_http import address_problem

            if problem := address_problem(self.endpoint_url):
                raise KnownError(problem)
        if self.endpoint_url and not self.endpoint_model:
            raise KnownError("Name the model the endpoint should use.")
        from .models.dialects import CHOICES

        if self.endpoint_dialect not in CHOICES:
            raise KnownError(f"The structured-output dialect must be one of {', '.join(CHOICES)}.")
        if self.theme not in THEMES:
            raise KnownError(f"The theme must be one of {', '.join(THEMES)}.")
        if self.model_path:
            from .models.gguf import read_header

            read_header(self.model_path)  # a file that is not a GGUF model is refused before it is used

    def save(self) -> None:
        self.validate()
        # Kept absolute: the window and the terminal start in different folders, and must mean the same place.
        for name in ("data_folder", "model_path"):
            if value := getattr(self, name):
                setattr(self, name, str(Path(value).expanduser().absolute()))
        # Written where a link to it leads (the link stays a link), keeping the keys this version does not know,
        # as load() leaves them: an older or a newer Anima wrote them, and saving once lost them (QA).
        self._write(asdict(self))

    def keep(self, *names: str) -> None:
        """Write only these settings, as they are here, leaving the rest of the file as it is: the window's place,
        written as it closes, neither undoes a change saved meanwhile (the terminal) nor asks the rest to be
        valid (a model file since deleted)."""
        values = asdict(self)
        self._write({name: values[name] for name in names})

    def _write(self, values: dict[str, object]) -> None:
        p = Path(os.path.realpath(self.path()))
        p.parent.mkdir(parents=True, exist_ok=True)
        try:
            kept = json.loads((_read(p) or b"{}").decode("utf-8"))
        except (KnownError, ValueError, RecursionError):
            kept = {}  # damaged: what this version knows is all there is to keep
        whole = {**(kept if isinstance(kept, dict) else {}), **values}
        write_atomically(p, json.dumps(whole, indent=1).encode("utf-8"))

    def chat_model(self, ask_key: Callable[[str], str] | None = None) -> ChatModel:
        """The chat model these settings choose (call its start_loading() when the app may spend the time).

        An endpoint's API key is looked for when the first request is made, off the window's thread. Where the
        settings say the server needs one and none is at hand, `ask_key(url)` is asked now (the terminal), or,
        with none, the first request says how to give it (the window: Settings)."""
        if self.endpoint_url:
            from .models import endpoint_key
            from .models.openai_http import OpenAIChatModel

            url = self.endpoint_url
            if self.endpoint_uses_key and ask_key is not None and endpoint_key.find(url) is None:
                endpoint_key.hold(url, ask_key(url))
            return OpenAIChatModel(
                url,
                self.endpoint_model,
                api_key=_key_finder(url, self.endpoint_uses_key),
                dialect=self.endpoint_dialect,
                context_tokens=self.context_tokens,
            )
        from .models.llama import LlamaChatModel

        return LlamaChatModel(self.model_path or None, n_ctx=self.context_tokens, n_gpu_layers=self.gpu_layers)


def chosen_data(explicit: str | None = None) -> str | None:
    """The data folder a terminal command works in: `--home`, else the one chosen in the window's settings (so the
    window and the terminal open the same companion), else None: $ANIMA_HOME or the platform's user data dir."""
    return explicit or Settings.load().data_folder or None


THEMES = ("system", "light", "dark")


def chosen_home(explicit: str | None = None, companion: str | None = None) -> str | None:
    """The home a terminal command opens: the companion named (`--companion`), else the one the settings open by
    default, in the data folder chosen_data() gives; the first companion (the data folder itself) when neither
    names one, as before there were several."""
    from .store.companions import Companions

    settings = Settings.load()
    data = explicit or settings.data_folder or None
    companions = Companions(data)
    if companion:
        return str(companions.home(companion).dir)
    home = companions.opening(settings.companion)
    return data if home.dir == companions.data else str(home.dir)


# A settings file is a few hundred bytes. Read no more than this: the path may lead to something endless.
_LARGEST = 1 << 20
_KINDS = {str: "text", bool: "true or false", int: "a whole number"}


def _read(p: Path) -> bytes | None:
    """The settings file's bytes, or None when there is none. Only a regular file is read (files.py
    read_regular): a pipe would wait for a writer forever, and a device such as /dev/zero never ends."""
    try:
        return read_regular(p, _LARGEST)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except TooLarge:
        raise KnownError(
            f"The settings file {p} is over {_LARGEST >> 20} MB, far more than settings take; fix or delete it."
        ) from None
    except OSError as e:
        if isinstance(e, NotRegularFile) or e.errno == errno.ELOOP:  # (links that lead round in a circle)
            raise KnownError(
                f"The settings file {p} is not a regular file (it may be a folder, a pipe or a "
                "device); fix or delete it."
            ) from None
        raise KnownError(
            f"The settings file {p} cannot be read ({e.strerror or e}); give this user access to it, or delete it."
        ) from None


def _wrong(value: object, kind: type) -> str | None:
    """What is wrong with a setting's value, for a field of type `kind`; None when nothing is. Types are compared
    exactly: a bool is an int to Python, but true is no context size, and 1 is no yes or no."""
    if type(value) is not kind:
        return f"is not {_KINDS[kind]}"
    if kind is str and isinstance(value, str) and "\0" in value:
        return "holds a NUL character"
    return None


def _damaged(p: Path, why: str) -> KnownError:
    return KnownError(f"The settings file {p} is damaged ({why}); fix or delete it.")


def _key_finder(url: str, needed: bool) -> Callable[[], str | None]:
    def find() -> str | None:
        from .models import endpoint_key
        from .models.chat import ModelError

        key = endpoint_key.find(url)
        if key is None and needed:
            raise ModelError(
                f"The model server at {url} needs its API key, and no keychain on this computer keeps "
                f"it: enter it in Settings (it is kept until Anima closes), or set {endpoint_key.ENV}."
            )
        return key

    return find


def choose_companion(name: str) -> None:
    """Open the companion called `name` by default from now on, in the window and the terminal (MAIN: the first
    one, the data folder's own)."""
    from .store.companions import MAIN

    settings = Settings.load()
    settings.companion = "" if name.strip().casefold() == MAIN else name.strip()
    settings.save()
