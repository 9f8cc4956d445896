"""Opening a companion from the terminal (anima/cli_open.py): the passphrase read from the environment or typed,
never both asked for when the environment has it; a home with no companion is said, not made, unless asked."""

import pytest

from anima import cli_open
from anima.errors import KnownError
from anima.models import embedder
from anima.models.fake import FakeChatModel, FakeEmbedder
from anima.store import Home
from tests.conftest import PASSPHRASE


@pytest.fixture
def fakes(monkeypatch):
    monkeypatch.setattr(cli_open, "chosen_chat_model", lambda args: FakeChatModel())
    monkeypatch.setattr(embedder, "MiniLMEmbedder", FakeEmbedder)


def test_a_passphrase_in_the_environment_is_read_and_none_is_asked(monkeypatch):
    monkeypatch.setenv(cli_open.PASSPHRASE_ENV, PASSPHRASE)
    monkeypatch.setattr(cli_open, "typed", lambda prompt: pytest.fail(f"asked {prompt!r}"))
    assert cli_open.ask(cli_open.PASSPHRASE_ENV, "Passphrase: ") == PASSPHRASE


def test_no_passphrase_and_no_terminal_is_one_line(monkeypatch):
    monkeypatch.setattr(cli_open.sys.stdin, "isatty", lambda: False, raising=False)
    with pytest.raises(KnownError, match=f"No passphrase: set {cli_open.PASSPHRASE_ENV} or run from a terminal."):
        cli_open.ask(cli_open.PASSPHRASE_ENV, "Passphrase: ")


def test_a_home_with_no_companion_is_said_and_nothing_is_made(fakes, anima_home):
    from anima.cli import build_parser

    with pytest.raises(KnownError, match=r"No companion lives in .* yet"):
        cli_open.open_companion(build_parser().parse_args(["recall", "anything"]))
    assert not Home(anima_home).exists()


def test_the_companion_there_opens_on_the_passphrase_in_the_environment(fakes, anima_home, monkeypatch):
    from anima.cli import build_parser

    Home(anima_home).create(PASSPHRASE, name="Mira").close()
    monkeypatch.setenv(cli_open.PASSPHRASE_ENV, PASSPHRASE)
    companion = cli_open.open_companion(build_parser().parse_args(["recall", "anything"]), talk=False)
    try:
        assert companion.name == "Mira"
    finally:
        companion.close()
