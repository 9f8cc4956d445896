"""import-card --into-new and import-lorebook from the terminal with files that cannot come in: one `anima:`
line, exit 2, and no home left behind (nor anything taken from one that was there)."""

import json
import os

import pytest

from anima import cli, cli_open
from anima.errors import DiskFull
from anima.interchange.characters import Characters
from anima.models import embedder, fake, llama
from anima.store import Home
from anima.store.companions import Companions
from tests.conftest import PASSPHRASE
from tests.interchange.cardfiles import png, v2


@pytest.fixture
def fakes(monkeypatch):
    monkeypatch.setattr(llama, "LlamaChatModel", lambda *a, **k: fake.FakeChatModel())
    monkeypatch.setattr(embedder, "MiniLMEmbedder", lambda *a, **k: fake.FakeEmbedder())
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("anima: "), err
    return err[0]


def test_a_card_holding_nan_makes_no_new_companion_and_can_be_tried_again_fixed(fakes, anima_home, tmp_path, capsys):
    card = tmp_path / "nan.json"
    card.write_text(json.dumps(v2(extensions={"depth": 0.5})).replace("0.5", "NaN"))
    code = cli.main(["import-card", str(card), "--into-new"])
    assert not anima_home.exists()  # no half-made companion
    assert code == 2 and "not valid JSON" in one_line(capsys)
    card.write_text(json.dumps(v2()))
    assert cli.main(["import-card", str(card), "--into-new"]) == 0
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Mira"


real_apply = Characters.apply


def failing_apply(monkeypatch):
    def apply(self, plan):
        raise DiskFull("The disk is full; nothing was changed.")

    monkeypatch.setattr(Characters, "apply", apply)


def test_an_import_that_fails_after_the_companion_was_made_takes_the_new_home_away(
    fakes, anima_home, tmp_path, capsys, monkeypatch
):
    card = tmp_path / "mira.png"
    card.write_bytes(png(v2()))
    failing_apply(monkeypatch)
    home = tmp_path / "new" / "deeper" / "home"
    code = cli.main(["--home", str(home), "import-card", str(card), "--into-new"])
    assert not (tmp_path / "new").exists()  # the home it made is gone, and the folders it made for it
    assert code == 2 and "disk is full" in one_line(capsys)  # (and it never said it was created)
    monkeypatch.setattr(Characters, "apply", real_apply)
    assert cli.main(["--home", str(home), "import-card", str(card), "--into-new"]) == 0  # tried again, it works
    assert Home(home).exists()


def test_a_failed_import_into_a_folder_that_was_there_keeps_what_was_in_it(
    fakes, anima_home, tmp_path, capsys, monkeypatch
):
    anima_home.mkdir()
    (anima_home / "notes.txt").write_text("mine")
    (anima_home / "old").mkdir()
    card = tmp_path / "mira.json"
    card.write_text(json.dumps(v2()))
    failing_apply(monkeypatch)
    code = cli.main(["import-card", str(card), "--into-new"])
    assert sorted(os.listdir(anima_home)) == ["notes.txt", "old"]  # what it made went; what was there stayed
    assert (anima_home / "notes.txt").read_text() == "mine"
    assert code == 2 and "disk is full" in one_line(capsys)


def test_an_existing_companion_is_never_touched(fakes, anima_home, tmp_path, capsys, monkeypatch):
    card = tmp_path / "mira.json"
    card.write_text(json.dumps(v2()))
    assert cli.main(["import-card", str(card), "--into-new"]) == 0
    capsys.readouterr()
    before = sorted(os.listdir(anima_home))
    failing_apply(monkeypatch)
    # A companion lives there: the new one would go beside it; the import fails, and takes only what it made.
    assert cli.main(["import-card", str(card), "--into-new"]) == 2
    assert "disk is full" in one_line(capsys)
    assert cli.main(["--companion", "main", "import-card", str(card), "--into-new"]) == 2  # named: refused
    assert "already lives" in one_line(capsys)
    assert cli.main(["import-card", str(card)]) == 2  # into it: the import fails, the companion stays
    one_line(capsys)
    assert sorted(os.listdir(anima_home)) == before and Home(anima_home).exists()


def test_a_card_into_new_beside_a_companion_makes_one_of_its_own(fakes, anima_home, tmp_path, capsys):
    Home(anima_home).create(PASSPHRASE, name="Old").close()
    card = tmp_path / "mira.json"
    card.write_text(json.dumps(v2()))
    assert cli.main(["import-card", str(card), "--into-new"]) == 0
    assert cli.main(["import-card", str(card), "--into-new"]) == 0  # again: a second one, never the first
    assert [c.name for c in Companions(anima_home).list()] == ["main", "Mira", "Mira 2"]
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Old"
    with Home(anima_home / "companions" / "Mira 2").unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Mira"
    assert "Created Mira in" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["import-card", "import-lorebook"])
def test_a_device_or_a_folder_is_one_line_and_nothing_is_made(fakes, anima_home, tmp_path, capsys, command):
    # (a pipe: tests/interchange/test_card_inputs.py, where a reader that would wait on it is answered)
    for path, what in (("/dev/null", "a device or a pipe"), (tmp_path, "a folder")):
        assert cli.main([command, str(path)] + (["--into-new"] if command == "import-card" else [])) == 2
        assert f"it is {what}, not a file" in one_line(capsys)
    assert not anima_home.exists()


def test_a_companion_another_program_made_while_the_passphrase_was_asked_stays(
    fakes, anima_home, tmp_path, capsys, monkeypatch
):
    """The window's first run made a companion in the same home while this command asked for its passphrase:
    this command's create meets it, says so, and takes nothing of it away (found by a review)."""
    card = tmp_path / "mira.json"
    card.write_text(json.dumps(v2()))
    real_ask = cli_open.ask

    def ask(*a, **k):
        Home(anima_home).create(PASSPHRASE, name="Theirs").close()  # the other program, meanwhile
        return real_ask(*a, **k)

    monkeypatch.setattr(cli_open, "ask", ask)
    assert cli.main(["import-card", str(card), "--into-new"]) == 2
    assert "A companion already lives" in one_line(capsys)
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Theirs"
