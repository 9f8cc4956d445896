"""Remembering the database key in the OS keychain, when there is a usable one.

keyring's null backend accepts a secret and forgets it, the fail backend
raises, a locked keychain raises: so a key counts as remembered only once it
has been read back equal. Anything else means "ask for the passphrase".
"""

import logging

import keyring
import keyring.errors

log = logging.getLogger(__name__)

SERVICE = "anima"

# Errors a keychain can raise that mean "not usable here", not a bug of ours.
_UNUSABLE = (keyring.errors.KeyringError, OSError, RuntimeError)


def available() -> bool:
    """Whether the active backend can plausibly keep a secret (the UI greys the option out otherwise)."""
    try:
        backend = keyring.get_keyring()
    except _UNUSABLE:
        return False
    return getattr(backend, "priority", 0) > 0


def remember(companion_id: str, database_key: bytes) -> bool:
    """Store the key and read it back. True only when the keychain really holds it."""
    secret = database_key.hex()
    try:
        keyring.set_password(SERVICE, companion_id, secret)
        back = keyring.get_password(SERVICE, companion_id)
    except _UNUSABLE as e:
        log.info("keychain unusable, the passphrase will be asked for: %s", type(e).__name__)
        return False
    if back != secret:
        log.info("keychain did not keep the key; the passphrase will be asked for")
        forget(companion_id)
        return False
    return True


def recall(companion_id: str) -> bytes | None:
    try:
        secret = keyring.get_password(SERVICE, companion_id)
    except _UNUSABLE as e:
        log.info("keychain unusable: %s", type(e).__name__)
        return None
    if not secret:
        return None
    try:
        return bytes.fromhex(secret)
    except ValueError:
        log.warning("keychain entry for this companion is not a key; ignoring it")
        return None


def forget(companion_id: str) -> None:
    try:
        keyring.delete_password(SERVICE, companion_id)
    except keyring.errors.PasswordDeleteError:
        return  # nothing was stored: already forgotten
    except _UNUSABLE as e:
        log.info("keychain unusable while forgetting: %s", type(e).__name__)
