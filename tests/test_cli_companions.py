"""`python -m anima companions ...` and `--companion NAME`: several companions from the terminal, in-process."""

import pytest

from anima import cli
from anima.store import Home
from anima.store.companions import FOLDER, Companions
from tests.conftest import PASSPHRASE

OTHER = "another passphrase, for Bea alone"


@pytest.fixture
def two(anima_home, monkeypatch, capsys):
    """The first companion (in the data folder, as it always was) and Bea, made from the terminal."""
    Home(anima_home).create(PASSPHRASE, name="Old").close()
    monkeypatch.setenv("ANIMA_PASSPHRASE", OTHER)
    assert cli.main(["companions", "new", "Bea"]) == 0
    monkeypatch.delenv("ANIMA_PASSPHRASE")
    assert "Created Bea" in capsys.readouterr().out
    return anima_home


def run(monkeypatch, capsys, passphrase, *argv) -> tuple[int, str, str]:
    monkeypatch.setenv("ANIMA_PASSPHRASE", passphrase)
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_makes_a_companion_beside_the_first_with_its_own_passphrase(two, monkeypatch, capsys):
    with Home(two / FOLDER / "Bea").unlock(OTHER) as soul:
        assert soul.get_meta("name") == "Bea"
    code, out, _ = run(monkeypatch, capsys, PASSPHRASE, "companions", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("* main") and str(two) in lines[0]  # the first opens by default
    assert lines[1].startswith("  Bea") and str(two / FOLDER / "Bea") in lines[1]
    assert "Old" not in out  # a soul's name is not read without its passphrase


def test_every_command_works_on_the_companion_named(two, monkeypatch, capsys, tmp_path):
    code, _, err = run(monkeypatch, capsys, PASSPHRASE, "--companion", "Bea", "check")
    assert code == 2 and "passphrase" in err.lower()  # the first one's passphrase does not open Bea
    code, out, _ = run(monkeypatch, capsys, OTHER, "--companion", "Bea", "check")
    assert code == 0 and "passes" in out
    dump = tmp_path / "bea.json"
    code, _, _ = run(monkeypatch, capsys, OTHER, "--companion", "bea", "export", "--json", str(dump))
    assert code == 0
    assert "Bea" in dump.read_text() and "Old" not in dump.read_text()
    # Without --companion: the first one, as before there were several.
    code, _, _ = run(monkeypatch, capsys, PASSPHRASE, "check")
    assert code == 0
    monkeypatch.setenv("ANIMA_NEW_PASSPHRASE", "Bea's new passphrase, longer still")
    code, _, _ = run(monkeypatch, capsys, OTHER, "--companion", "Bea", "passphrase")
    assert code == 0
    Home(two / FOLDER / "Bea").unlock("Bea's new passphrase, longer still").close()
    Home(two).unlock(PASSPHRASE).close()  # the first one's is as it was


def test_default_chooses_which_opens_without_companion(two, monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, OTHER, "companions", "default", "bea")
    assert code == 0 and "Bea opens by default" in out
    code, _, _ = run(monkeypatch, capsys, OTHER, "check")  # Bea now, with Bea's passphrase
    assert code == 0
    code, out, _ = run(monkeypatch, capsys, OTHER, "companions")
    assert "* Bea" in out and "  main" in out
    code, _, err = run(monkeypatch, capsys, OTHER, "companions", "default", "Nobody")
    assert code == 2 and "no companion called 'Nobody'" in err and "main, Bea" in err


def test_remove_asks_for_yes_and_its_own_passphrase_and_leaves_the_first(two, monkeypatch, capsys):
    run(monkeypatch, capsys, OTHER, "companions", "default", "Bea")
    code, _, err = run(monkeypatch, capsys, OTHER, "companions", "remove", "Bea")
    assert code == 2 and "--yes" in err
    code, _, err = run(monkeypatch, capsys, PASSPHRASE, "companions", "remove", "Bea", "--yes")
    assert code == 2  # the first one's passphrase does not delete Bea
    assert Home(two / FOLDER / "Bea").exists()
    code, _, err = run(monkeypatch, capsys, OTHER, "companions", "remove", "Bea", "--yes")
    assert code == 0 and "Removed Bea" in err
    assert [c.name for c in Companions(two).list()] == ["main"]
    code, _, _ = run(monkeypatch, capsys, PASSPHRASE, "check")  # the default is the first one again
    assert code == 0


def test_a_name_that_is_a_path_is_one_line(two, monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, OTHER, "--companion", "../elsewhere", "check")
    assert code == 2 and "cannot name a companion's folder" in err and len(err.splitlines()) == 1
    code, _, err = run(monkeypatch, capsys, OTHER, "companions", "new", "Bea")
    assert code == 2 and "lives here already" in err


def test_chat_with_a_new_name_makes_that_companion_beside_the_others(two, monkeypatch, capsys):
    from anima.models import embedder, fake, llama
    from tests.conftest import typed_lines

    monkeypatch.setattr(llama, "LlamaChatModel", lambda *a, **k: fake.FakeChatModel())
    monkeypatch.setattr(embedder, "MiniLMEmbedder", lambda *a, **k: fake.FakeEmbedder())
    monkeypatch.setenv("ANIMA_NAME", "Cleo")
    typed_lines(monkeypatch, [])  # the input ends at once
    code, _, err = run(monkeypatch, capsys, "Cleo's own passphrase here", "--companion", "Cleo", "chat")
    assert code == 0 and f"Created Cleo in {two / FOLDER / 'Cleo'}." in err
    assert [c.name for c in Companions(two).list()] == ["main", "Bea", "Cleo"]
    Home(two).unlock(PASSPHRASE).close()  # the others are as they were
