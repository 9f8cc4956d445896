import keyring
import keyring.backends.fail
import pytest

from anima.store import Home

PASSPHRASE = "correct horse battery staple"


@pytest.fixture(autouse=True)
def anima_home(tmp_path, monkeypatch):
    """Every test gets its own data directory, and no test touches the real OS keychain."""
    home = tmp_path / "home"
    monkeypatch.setenv("ANIMA_HOME", str(home))
    for var in ("ANIMA_PASSPHRASE", "ANIMA_EXPORT_PASSPHRASE", "ANIMA_NEW_PASSPHRASE"):
        monkeypatch.delenv(var, raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield home
    keyring.set_keyring(previous)


@pytest.fixture
def soul(anima_home):
    s = Home(anima_home).create(PASSPHRASE, name="Test")
    yield s
    s.close()


@pytest.fixture
def companion(anima_home):
    """A companion on a real encrypted soul, with the fast fakes for the models."""
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder
    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.learns = False  # the fake model answers only what a test enqueues; tests of learning turn it on
    yield c
    c.close()
