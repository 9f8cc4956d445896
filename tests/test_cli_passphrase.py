"""The one passphrase rule (store/keys.py) in the terminal: a passphrase chosen too short is refused with one line,
exit 2, before anything is written. The window reads the same rule (tests/ui/test_passphrase_rule.py)."""

import getpass

import pytest

from anima import cli
from anima.errors import WeakPassphrase
from anima.store import Home, keys
from tests.conftest import PASSPHRASE


def refused(capsys, what: str) -> None:
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"anima: Choose {what} of at least {keys.MIN_PASSPHRASE_CHARS} characters."]


def test_the_rule_is_one_rule():
    assert keys.MIN_PASSPHRASE_CHARS == 8
    assert keys.passphrase_problem("x") == "Choose a passphrase of at least 8 characters."
    assert keys.passphrase_problem("seven c") is not None
    assert keys.passphrase_problem("lantern orchard") is None
    assert keys.check_new_passphrase("ünïcødé!") == "ünïcødé!"  # characters, not bytes


@pytest.mark.parametrize("guessable", ["password", "password1", "12345678", "qwertyuiop", "abcdefgh",
                                       "iloveyou1", "P@ssw0rd"])
def test_long_enough_but_among_the_first_guesses_is_refused(guessable):
    problem = keys.passphrase_problem(guessable)
    assert problem is not None and problem.startswith("Choose a passphrase that is harder to guess.")
    assert "to guess offline" in problem  # says how long, so the person sees why


def test_the_names_a_thief_knows_count_against_a_passphrase():
    assert keys.passphrase_problem("Quillonwood") is None
    assert keys.passphrase_problem("Quillonwood", known=("Quillonwood",)) is not None


def test_a_long_passphrase_is_judged_by_its_first_72_characters():
    assert keys.passphrase_problem("tangerine lighthouse " * 10) is None
    assert keys.passphrase_problem("a" * 200) is not None


def test_the_terminal_refuses_a_common_passphrase_with_why(anima_home, monkeypatch, capsys):
    monkeypatch.setenv("ANIMA_PASSPHRASE", "password1")
    assert cli.main(["chat"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("anima: Choose a passphrase that is harder to guess.")
    assert not Home(anima_home).exists()


def test_creating_a_companion_with_a_one_letter_passphrase_is_refused(anima_home, monkeypatch, capsys):
    monkeypatch.setenv("ANIMA_PASSPHRASE", "x")
    assert cli.main(["chat"]) == 2
    refused(capsys, "a passphrase")
    assert not Home(anima_home).exists()


def test_changing_to_a_short_passphrase_is_refused(anima_home, monkeypatch, capsys):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    before = home.key_path.read_bytes()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_NEW_PASSPHRASE", "x")
    assert cli.main(["passphrase"]) == 2
    refused(capsys, "a new passphrase")
    assert home.key_path.read_bytes() == before
    monkeypatch.setenv("ANIMA_NEW_PASSPHRASE", "a good new passphrase")
    assert cli.main(["passphrase"]) == 0
    home.unlock_key("a good new passphrase")


def test_exporting_under_a_short_export_passphrase_is_refused(anima_home, tmp_path, monkeypatch, capsys):
    Home(anima_home).create(PASSPHRASE).close()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", "x")
    assert cli.main(["export", str(tmp_path / "soul.core")]) == 2
    refused(capsys, "an export passphrase")
    assert list(tmp_path.glob("*soul.core*")) == []


def test_importing_into_a_new_home_under_a_short_passphrase_is_refused(anima_home, tmp_path, monkeypatch, capsys):
    with Home(anima_home).create(PASSPHRASE) as soul:
        Home.export(soul, tmp_path / "soul.core", "export passphrase")
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", "export passphrase")
    monkeypatch.setenv("ANIMA_PASSPHRASE", "x")
    assert cli.main(["--home", str(tmp_path / "new"), "import", str(tmp_path / "soul.core")]) == 2
    refused(capsys, "a passphrase")
    assert not Home(tmp_path / "new").exists()
    # Replacing a companion asks for its existing passphrase: no rule to keep there (it proves ownership).


def test_typed_in_a_terminal_a_short_passphrase_is_refused_before_it_is_asked_again(anima_home, monkeypatch, capsys):
    asked = []

    def typed(prompt):
        asked.append(prompt)
        return "x"
    monkeypatch.setattr(cli.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(getpass, "getpass", typed)
    with pytest.raises(WeakPassphrase) as err:
        cli.ask("ANIMA_PASSPHRASE", "Choose a passphrase: ", confirm=True, choosing="a passphrase")
    assert str(err.value) == "Choose a passphrase of at least 8 characters." and err.value.exit_status == 2
    assert asked == ["Choose a passphrase: "]
