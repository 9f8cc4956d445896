"""import-card, import-lorebook and export-card from the terminal (the fake models stand in for the real ones)."""

import base64
import json

import pytest

from anima import cli
from anima.models import embedder, fake, llama
from anima.store import Home, png_text
from tests.conftest import PASSPHRASE
from tests.mind.cardfiles import PICTURE, png, v2, wi_entry, world_info


@pytest.fixture
def fakes(monkeypatch):
    monkeypatch.setattr(llama, "LlamaChatModel", lambda *a, **k: fake.FakeChatModel())
    monkeypatch.setattr(embedder, "MiniLMEmbedder", lambda *a, **k: fake.FakeEmbedder())
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)


def test_a_card_makes_a_new_companion_then_a_lorebook_comes_in_and_the_card_goes_out(fakes, anima_home, tmp_path,
                                                                                   capsys):
    card = tmp_path / "mira.png"
    card.write_bytes(png(v2()))
    assert cli.main(["import-card", str(card), "--into-new"]) == 0
    out = capsys.readouterr().out
    assert "Name: Mira" in out and "Imported" in out and "1 world card" in out
    assert cli.main(["import-card", str(card), "--into-new"]) == 2  # a companion lives there now
    assert "already lives" in capsys.readouterr().err
    book = tmp_path / "eldoria.json"
    book.write_text(json.dumps(world_info(wi_entry(0, ["Grimhold"], "Grimhold is the ruined fort.", disable=True),
                                          wi_entry(1, ["Pier"], "The pier is half sunk."))))
    assert cli.main(["import-lorebook", str(book)]) == 0
    assert "2 world cards (1 disabled, as they were)" in capsys.readouterr().out
    exported, lore = tmp_path / "out.png", tmp_path / "out.lorebook.json"
    assert cli.main(["export-card", str(exported), "--lorebook", str(lore)]) == 0
    said = capsys.readouterr()
    assert "3 lorebook entries" in said.out and "NOT encrypted" in said.err
    data = json.loads(base64.b64decode(png_text.read_texts(exported.read_bytes())["chara"]))["data"]
    assert data["name"] == "Mira" and len(data["character_book"]["entries"]) == 3
    assert png_text.picture(exported.read_bytes()) == PICTURE
    assert len(json.loads(lore.read_text())["entries"]) == 3
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Mira"


def test_a_refused_card_is_one_line_and_nothing_is_made(fakes, anima_home, tmp_path, capsys):
    bad = tmp_path / "bad.png"
    bad.write_bytes(PICTURE)
    assert cli.main(["import-card", str(bad), "--into-new"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no character card in it" in err[0]
    assert not Home(anima_home).exists()
