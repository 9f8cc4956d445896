"""Opening a companion from the terminal: its passphrase (from the environment, else typed), the chat model the
settings and this run's options choose, and the companion unlocked, or created in a terminal with none yet.

Every command reads it from here: `python -m anima` (cli.py) and the character cards' commands (cli_cards.py).
"""

import argparse
import getpass
import os
import sys
from typing import TYPE_CHECKING

from .errors import KnownError, PassphraseNotText
from .store import Home, PassphraseNeeded, Soul, keys, strength
from .store.home import DEFAULT_NAME

if TYPE_CHECKING:
    from .companion import Companion
    from .models.chat import ChatModel

PASSPHRASE_ENV = "ANIMA_PASSPHRASE"


def ask(env: str, prompt: str, confirm: bool = False, choosing: str | None = None, known: tuple[str, ...] = ()) -> str:
    """A passphrase from the environment (read, never stored), else from the terminal. `choosing` names a
    passphrase being chosen now ("a passphrase", "an export passphrase"): it must keep the one rule for them,
    judged as the window judges it, against `known`, the names a thief would try first (names_in)."""
    value = os.environ.get(env) or ""  # unset or empty: typed
    from_terminal = not value
    if from_terminal:
        if not sys.stdin.isatty():
            raise KnownError(f"No passphrase: set {env} or run from a terminal.")
        value = typed(prompt)
    if choosing:
        keys.check_new_passphrase(value, choosing, known)
        if from_terminal:  # as the window shows it while typing
            print(f"Strength: {strength.estimate(value, known)}", file=sys.stderr)
    if from_terminal and confirm and typed("Again: ") != value:
        raise KnownError("The two passphrases differ; nothing was changed.")
    return value


def typed(prompt: str) -> str:
    """A passphrase typed at the terminal. Bytes that are not UTF-8 (a terminal in another encoding) are said in
    one sentence (PassphraseNotText), as they are when they come from the environment, never a traceback."""
    try:
        return getpass.getpass(prompt)
    except UnicodeDecodeError:
        raise PassphraseNotText() from None
    except EOFError:  # Ctrl-D at the prompt
        raise KnownError("No passphrase was typed (the input ended); nothing was changed.") from None


def names_in(soul: Soul) -> tuple[str, ...]:
    """The companion's name and the person's: what the window's first-run form weighs a passphrase against."""
    return soul.get_meta("name", "Anima"), soul.get_meta("user_name", "")


def unlock(home: Home) -> Soul:
    try:
        return home.unlock(os.environ.get(PASSPHRASE_ENV))
    except PassphraseNeeded:
        pass  # asked below, outside the handler: no passphrase to ask for is the one mistake, not a second one
    return home.unlock(ask(PASSPHRASE_ENV, "Passphrase: "))


def ask_endpoint_key(url: str) -> str:
    """The API key of a model server that needs one and whose key no keychain here keeps: asked each time."""
    from .models.endpoint_key import ENV

    if not sys.stdin.isatty():
        raise KnownError(f"The model server at {url} needs its API key and no keychain here keeps it: set {ENV}.")
    return getpass.getpass(f"API key for {url}: ")


def chosen_chat_model(args: argparse.Namespace) -> "ChatModel":
    """The chat model the window's settings choose, with this run's --model or --endpoint instead if given."""
    from .settings import Settings

    settings = Settings.load()
    model, endpoint = getattr(args, "model", None), getattr(args, "endpoint", None)
    if model and endpoint:
        raise KnownError("Choose a model file (--model) or a model server (--endpoint), not both.")
    if model:
        settings.model_path, settings.endpoint_url = model, ""
    if endpoint:
        if endpoint.rstrip("/") != settings.endpoint_url.rstrip("/"):
            settings.endpoint_uses_key = False  # its key, if any, comes from the keychain or the environment
        settings.endpoint_url = endpoint
        settings.endpoint_model = getattr(args, "endpoint_model", None) or settings.endpoint_model
    elif getattr(args, "endpoint_model", None):
        if not settings.endpoint_url:
            raise KnownError("--endpoint-model names a model on a server: give the server with --endpoint URL.")
        settings.endpoint_model = args.endpoint_model
    settings.validate()
    return settings.chat_model(ask_key=ask_endpoint_key)


def open_companion(
    args: argparse.Namespace, create_if_missing: bool = False, talk: bool = True, recalls: bool = True
) -> "Companion":
    """Unlock (or, in a terminal with no companion yet, create) the companion on the default models.
    With talk=False the chat model is never loaded (recall needs only the embedder). With recalls=False neither
    the embedder nor the vector index is loaded: a command that only reads rows (a list of parts, the proposals)
    would otherwise wait for all of a large soul's vectors (7 s and 930 MB on 100,000 messages) to print a line."""
    from .companion import Companion
    from .models.embedder import MiniLMEmbedder

    home = Home(args.home)
    chat = chosen_chat_model(args)
    embedder = MiniLMEmbedder()
    if not home.exists():
        home.ensure_vacant()  # a key file without its soul is said before a name and a passphrase are asked
        if not create_if_missing:
            raise KnownError(f"No companion lives in {home.dir} yet; start `python -m anima chat` to create one.")
        name = (
            os.environ.get("ANIMA_NAME")
            or (input(f"Name your companion [{DEFAULT_NAME}]: ").strip() if sys.stdin.isatty() else "")
            or DEFAULT_NAME
        )
        # The person's name is not asked here (the window asks it): the companion's is what a thief knows.
        passphrase = ask(PASSPHRASE_ENV, "Choose a passphrase: ", confirm=True, choosing="a passphrase", known=(name,))
        companion = Companion.create(home, passphrase, name, chat, embedder)
        print(f"Created {name} in {home.dir}.", file=sys.stderr)
    else:
        companion = Companion(home, unlock(home), chat, embedder, background=False)
        if recalls or talk:
            companion.start_background(chat=talk)
    return companion
