import time
from collections.abc import Callable

import keyring
import keyring.backends.fail
import pytest

from anima.store import Home

PASSPHRASE = "correct horse battery staple"


@pytest.fixture(autouse=True, scope="session")
def anima_cache(tmp_path_factory):
    """Derived files (the re-encoded default model) go to one cache for the whole run, never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ANIMA_CACHE", str(folder))
        yield folder


@pytest.fixture(autouse=True, scope="session")
def cheap_keys():
    """Keys are wrapped at a trivial scrypt cost in tests (the real 2^17 takes half a second a wrap), here and in
    the `python -m anima` the tests start. tests/store/test_keys.py takes it away to check the real cost."""
    from anima.store import keys

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(keys.INSECURE_TEST_COST_ENV, "1")
        yield


@pytest.fixture(autouse=True)
def anima_home(tmp_path, monkeypatch):
    """Every test gets its own data directory and settings, and no test touches the real OS keychain."""
    home = tmp_path / "home"
    monkeypatch.setenv("ANIMA_HOME", str(home))
    # `python -m anima chat` reads the window's settings: a test's own, never the user's.
    monkeypatch.setenv("ANIMA_SETTINGS", str(tmp_path / "settings.json"))
    for var in ("ANIMA_PASSPHRASE", "ANIMA_EXPORT_PASSPHRASE", "ANIMA_NEW_PASSPHRASE", "ANIMA_ENDPOINT_KEY"):
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
    c.reflector.every = 0  # and quick reflection too (tests/reflect/ turn it on)
    yield c
    c.close()


def another_program(home_dir):
    """The soul of `home_dir` opened by another program (`anima chat` beside the window): a companion of its own,
    with its own connection and session, on the fast fakes, learning and reflecting off."""
    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder

    other = Companion.unlock(Home(home_dir), PASSPHRASE, FakeChatModel(), FakeEmbedder())
    other.indexer_thread.join()
    other.learns = False
    other.reflector.every = 0
    return other


@pytest.fixture
def terminal(anima_home, companion):
    """`anima chat`, open on the soul of `companion` (and of the window made from it)."""
    other = another_program(anima_home)
    yield other
    other.close()


def talk(c, text: str, reply: str, external=()) -> None:
    """A whole turn of `c`, its (fake) model answering `reply`."""
    c.chat.enqueue(reply)
    c.turn(text, external=list(external)).read()


@pytest.fixture
def reading_companion(anima_home):
    """Makes a companion whose (fake) chat model keeps its computed prefix, so it reads ahead between turns and
    along while the person types; `make(**capabilities)` -> (companion, chat). Learning is off, as above."""
    from anima.companion import Companion
    from anima.models.chat import Capabilities
    from anima.models.fake import FakeChatModel, FakeEmbedder

    made = []

    def make(**capabilities):
        chat = FakeChatModel(Capabilities(keeps_prefix=True, **capabilities))
        c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", chat, FakeEmbedder(), user_name="Ada")
        c.indexer_thread.join()
        c.learns = False
        c.reflector.every = 0
        made.append(c)
        return c, chat

    yield make
    for c in made:
        c.close()


def exported(anima_home, core, said: str, export_passphrase: str):
    """A new home whose soul holds one message, `said`, exported to `core` (its Home returned)."""
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content=said, created_at="2026")
        Home.export(soul, core, export_passphrase)
    return home


def typed_lines(monkeypatch, lines, echo: bool = False) -> None:
    """`anima chat` reads these lines as typed, then the end of its input (Ctrl-D); `echo`: each prompt printed,
    as a terminal shows it."""
    given = iter(lines)

    def typed(prompt=""):
        if echo:
            print(prompt, end="")
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)


def until(condition: Callable[[], object], timeout: float = 30.0, what: str = "the condition") -> None:
    """Wait until `condition()` is true, looking again every few milliseconds, for what another thread or program
    does (never a bare sleep: a machine busier than the one a test was written on takes longer). An assertion
    fails after `timeout` seconds, naming `what`."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.005)


@pytest.fixture
def dc(anima_home):
    """A companion on a real encrypted soul, the fake model playing the model, for deep reflection (its tests are
    tests/reflect/test_deep.py); no work between turns may fail."""
    import random

    from anima.companion import Companion
    from anima.models.fake import FakeChatModel, FakeEmbedder

    c = Companion.create(Home(anima_home), PASSPHRASE, "Anima", FakeChatModel(), FakeEmbedder(), user_name="Ada")
    c.indexer_thread.join()
    c.reflector.deep.rng = random.Random(7)
    failed = []
    c.on_background_failure(failed.append)
    yield c
    c.close()
    assert failed == []


@pytest.fixture
def small_disk(tmp_path):
    """An 8 MiB filesystem of its own (tmpfs), unmounted after the test (tests/store/test_full_disk.py)."""
    import os
    import shutil
    import subprocess

    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs root here; the simulated tests in this file cover the same")
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", str(where)], capture_output=True, text=True
    )
    if r.returncode:
        pytest.skip(f"no tmpfs mount here ({r.stderr.strip()}); the simulated tests in this file cover the same")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)
