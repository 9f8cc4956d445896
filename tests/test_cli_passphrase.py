"""The one passphrase rule (store/keys.py) in the terminal: a passphrase chosen too short is refused with one line,
exit 2, before anything is written. The window reads the same rule (tests/ui/test_passphrase_rule.py)."""

import getpass

import pytest

from anima import cli, cli_open
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


@pytest.mark.parametrize(
    "guessable", ["password", "password1", "12345678", "qwertyuiop", "abcdefgh", "iloveyou1", "P@ssw0rd"]
)
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
        cli_open.ask("ANIMA_PASSPHRASE", "Choose a passphrase: ", confirm=True, choosing="a passphrase")
    assert str(err.value) == "Choose a passphrase of at least 8 characters." and err.value.exit_status == 2
    assert asked == ["Choose a passphrase: "]


# ---- the names a thief would try first, as the window weighs them (ui/dialogs/unlock.py) ----------------------

NAME = "Quillonwood"  # accepted alone (test_the_names_a_thief_knows_count_against_a_passphrase), not as a name


def weak(capsys, what: str) -> None:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"anima: Choose {what} that is harder to guess."), lines


@pytest.mark.slow  # runs `python -m anima`
def test_creating_a_companion_under_its_own_name_is_refused_from_the_terminal(tmp_path):
    """The QA case: `echo hello | ANIMA_PASSPHRASE=Lisbonanima python -m anima --home W chat` made "Anima"."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    home = tmp_path / "w"
    r = subprocess.run(
        [sys.executable, "-m", "anima", "--home", str(home), "chat"],
        input="hello\n",
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=120,
        env={**os.environ, "ANIMA_PASSPHRASE": "Lisbonanima"},
    )
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert lines == [
        "anima: Choose a passphrase that is harder to guess. Weak: 1 minute to guess offline. Add "
        "another word or two. Uncommon words are better."
    ]
    assert not home.exists()


def test_a_companion_named_in_the_environment_is_weighed_by_that_name(anima_home, monkeypatch, capsys):
    monkeypatch.setenv("ANIMA_NAME", NAME)
    monkeypatch.setenv("ANIMA_PASSPHRASE", NAME)
    assert cli.main(["chat"]) == 2
    weak(capsys, "a passphrase")
    assert not anima_home.exists()


@pytest.mark.parametrize("meta", ["name", "user_name"])
def test_changing_to_the_companion_s_or_the_person_s_name_is_refused(anima_home, monkeypatch, capsys, meta):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        soul.set_meta(meta, NAME)
    before = home.key_path.read_bytes()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_NEW_PASSPHRASE", NAME)
    assert cli.main(["passphrase"]) == 2
    weak(capsys, "a new passphrase")
    assert home.key_path.read_bytes() == before


@pytest.mark.parametrize("meta", ["name", "user_name"])
def test_an_export_passphrase_of_the_companion_s_or_the_person_s_name_is_refused(
    anima_home, tmp_path, monkeypatch, capsys, meta
):
    with Home(anima_home).create(PASSPHRASE) as soul:
        soul.set_meta(meta, NAME)
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", NAME)
    assert cli.main(["export", str(tmp_path / "soul.core")]) == 2
    weak(capsys, "an export passphrase")
    assert list(tmp_path.glob("*soul.core*")) == []


@pytest.mark.parametrize("meta", ["name", "user_name"])
def test_importing_under_a_name_the_core_holds_is_refused(anima_home, tmp_path, monkeypatch, capsys, meta):
    with Home(anima_home).create(PASSPHRASE) as soul:
        soul.set_meta(meta, NAME)
        Home.export(soul, tmp_path / "soul.core", "export passphrase")
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", "export passphrase")
    monkeypatch.setenv("ANIMA_PASSPHRASE", NAME)
    assert cli.main(["--home", str(tmp_path / "new"), "import", str(tmp_path / "soul.core")]) == 2
    weak(capsys, "a passphrase")
    assert not (tmp_path / "new").exists()
    monkeypatch.setenv("ANIMA_PASSPHRASE", "a good new passphrase")  # and one that keeps the rule goes in
    assert cli.main(["--home", str(tmp_path / "new"), "import", str(tmp_path / "soul.core")]) == 0
    with Home(tmp_path / "new").unlock("a good new passphrase") as soul:
        assert soul.get_meta(meta) == NAME


def test_typed_in_a_terminal_the_strength_shown_weighs_the_names(monkeypatch, capsys):
    monkeypatch.setattr(cli.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(getpass, "getpass", lambda prompt: NAME)
    with pytest.raises(WeakPassphrase):
        cli_open.ask("ANIMA_PASSPHRASE", "Choose a passphrase: ", confirm=True, choosing="a passphrase", known=(NAME,))
    assert cli_open.ask("ANIMA_PASSPHRASE", "Choose a passphrase: ", confirm=True, choosing="a passphrase") == NAME
    assert capsys.readouterr().err.startswith("Strength: ")


# ---- a passphrase that is not text (bytes that are not UTF-8) ---------------------------------------------------

# `ANIMA_NEW_PASSPHRASE=$'plum orbit \xff\xfe lantern'`, as Python holds it: surrogate escapes.
NOT_TEXT = "plum orbit \udcff\udcfe lantern"
SAID_NOT_TEXT = (
    "anima: That passphrase holds bytes that are not text (it is not valid UTF-8), so it neither locks "
    "nor unlocks anything; nothing was changed."
)


def test_the_rule_refuses_a_passphrase_that_is_not_text():
    assert keys.passphrase_problem(NOT_TEXT, "a new passphrase") == (
        "Choose a new passphrase of text: this one holds bytes that are not text (it is not valid UTF-8)."
    )


def one_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_the_terminal_says_a_passphrase_is_not_text_in_one_line(anima_home, tmp_path, monkeypatch, capsys):
    """QA: `anima passphrase`, creation and `export` were a traceback (UnusableCost); unlock said the key file "is
    damaged" and import that the core "is damaged"."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    before = home.key_path.read_bytes()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_NEW_PASSPHRASE", NOT_TEXT)
    assert cli.main(["passphrase"]) == 2
    assert one_line(capsys).startswith("anima: Choose a new passphrase of text")
    assert home.key_path.read_bytes() == before
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", NOT_TEXT)
    assert cli.main(["export", str(tmp_path / "soul.core")]) == 2
    assert one_line(capsys).startswith("anima: Choose an export passphrase of text")
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", "an export passphrase")
    assert cli.main(["export", str(tmp_path / "soul.core")]) == 0
    capsys.readouterr()
    monkeypatch.setenv("ANIMA_PASSPHRASE", NOT_TEXT)
    assert cli.main(["check"]) == 2
    assert one_line(capsys) == SAID_NOT_TEXT
    assert cli.main(["--home", str(tmp_path / "new"), "import", str(tmp_path / "soul.core")]) == 2
    assert one_line(capsys).startswith("anima: Choose a passphrase of text")
    monkeypatch.setenv("ANIMA_PASSPHRASE", "new machine passphrase")
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", NOT_TEXT)
    assert cli.main(["--home", str(tmp_path / "new"), "import", str(tmp_path / "soul.core")]) == 2
    assert one_line(capsys) == SAID_NOT_TEXT
    assert not (tmp_path / "new").exists() and home.key_path.read_bytes() == before
    monkeypatch.delenv("ANIMA_PASSPHRASE")
    monkeypatch.setenv("ANIMA_NAME", "Tessellate")
    monkeypatch.setenv("ANIMA_PASSPHRASE", NOT_TEXT)
    assert cli.main(["--home", str(tmp_path / "created"), "chat"]) == 2
    assert one_line(capsys).startswith("anima: Choose a passphrase of text")
    assert not Home(tmp_path / "created").exists()


def test_typed_in_a_terminal_in_another_encoding_a_passphrase_is_not_text_in_one_line(monkeypatch):
    """getpass reads the terminal as UTF-8: bytes that are not were a UnicodeDecodeError traceback."""
    from anima.errors import PassphraseNotText

    def typed(prompt):
        raise UnicodeDecodeError("utf-8", b"plum \xff", 5, 6, "invalid start byte")

    monkeypatch.setattr(cli.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(getpass, "getpass", typed)
    with pytest.raises(PassphraseNotText) as err:
        cli_open.ask("ANIMA_PASSPHRASE", "Passphrase: ")
    assert err.value.exit_status == 2 and "not text" in str(err.value)
