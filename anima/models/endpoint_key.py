"""An endpoint's API key: in the OS keychain when there is a usable one, else held for this run only.

Never written to a file. Where it comes from, first found wins: $ANIMA_ENDPOINT_KEY (read, never stored), a key
entered during this run (in the settings where no keychain could keep it, or typed in the terminal), the
keychain. As with the database key (store/keychain.py), a key counts as kept only once it has been read back
equal: keyring's null backend accepts and forgets.
"""

import logging
import os

import keyring
import keyring.errors

log = logging.getLogger(__name__)

SERVICE = "anima-endpoint"
ENV = "ANIMA_ENDPOINT_KEY"
# Errors a keychain can raise that mean "not usable here", not a bug of ours.
_UNUSABLE = (keyring.errors.KeyringError, OSError, RuntimeError)
# Keys known this run: entered where no keychain keeps them (asked for again the next time), or read from the
# keychain once (a keychain may take a while to answer, and every request needs the key).
_this_run: dict[str, str] = {}


def _name(url: str) -> str:
    return url.strip().rstrip("/")


def keep(url: str, key: str) -> bool:
    """Keep `key` for the server at `url`: True when the keychain holds it, False when only this run does (it is
    then asked for again the next time)."""
    name = _name(url)
    try:
        keyring.set_password(SERVICE, name, key)
        back = keyring.get_password(SERVICE, name)
    except _UNUSABLE as e:
        log.info("keychain unusable for the endpoint key, kept for this run only: %s", type(e).__name__)
        back = None
    _this_run[name] = key
    return back == key


def hold(url: str, key: str) -> None:
    """Use `key` for `url` until the process ends, and keep it nowhere (a key typed in the terminal)."""
    _this_run[_name(url)] = key


def find(url: str) -> str | None:
    """The key to send to the server at `url`, or None when there is none at hand."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    name = _name(url)
    if name in _this_run:
        return _this_run[name]
    try:
        key = keyring.get_password(SERVICE, name) or None
    except _UNUSABLE as e:
        log.info("keychain unusable: %s", type(e).__name__)
        return None
    if key:
        _this_run[name] = key
    return key


def drop(url: str) -> None:
    """Forget the key for `url` everywhere it was kept."""
    name = _name(url)
    _this_run.pop(name, None)
    try:
        keyring.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return  # none was kept
    except _UNUSABLE as e:
        log.info("keychain unusable while forgetting the endpoint key: %s", type(e).__name__)
