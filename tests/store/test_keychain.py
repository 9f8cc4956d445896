import keyring
import keyring.backend
import keyring.backends.fail
import keyring.backends.null
import pytest

from anima.store import Home, PassphraseNeeded, keychain
from tests.conftest import PASSPHRASE


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keychain that works: it keeps secrets in a dict."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.secrets = {}

    def set_password(self, service, username, password):
        self.secrets[(service, username)] = password

    def get_password(self, service, username):
        return self.secrets.get((service, username))

    def delete_password(self, service, username):
        if (service, username) not in self.secrets:
            raise keyring.errors.PasswordDeleteError("absent")
        del self.secrets[(service, username)]


def key_appears_on_disk(home, key: bytes) -> bool:
    needles = [key, key.hex().encode(), key.hex().upper().encode()]
    return any(n in p.read_bytes() for p in home.dir.rglob("*") if p.is_file() for n in needles)


def test_a_working_keychain_remembers_the_key_and_unlocks_without_a_passphrase(anima_home):
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    assert keychain.available()
    home = Home(anima_home)
    home.create(PASSPHRASE, remember=True).close()
    assert len(backend.secrets) == 1
    home.unlock().close()  # no passphrase asked
    key = home.unlock_key(PASSPHRASE)
    assert not key_appears_on_disk(home, key)
    home.forget_remembered()
    assert backend.secrets == {}
    with pytest.raises(PassphraseNeeded):
        home.unlock()


def test_a_stale_key_in_the_keychain_is_not_used(anima_home):
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    home = Home(anima_home)
    home.create(PASSPHRASE, remember=True).close()
    (entry,) = backend.secrets
    backend.secrets[entry] = "00" * 32
    with pytest.raises(PassphraseNeeded):
        home.unlock()


@pytest.mark.parametrize("backend", [keyring.backends.fail.Keyring, keyring.backends.null.Keyring])
def test_without_a_usable_keychain_the_passphrase_is_asked_and_unlock_still_works(anima_home, backend):
    keyring.set_keyring(backend())
    assert not keychain.available()
    home = Home(anima_home)
    home.create(PASSPHRASE, remember=True).close()  # asked to remember; it cannot, and says so by not doing it
    assert home.remember(PASSPHRASE) is False
    with pytest.raises(PassphraseNeeded):
        home.unlock()
    home.unlock(PASSPHRASE).close()
    assert not key_appears_on_disk(home, home.unlock_key(PASSPHRASE))
