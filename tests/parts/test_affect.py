"""The affect profile (what the Self values, fears, seeks), and the parts created from it (seed 000, "Tuning")."""

import json

import pytest

from anima.errors import InvalidEdit
from anima.parts.part import voice_problem
from anima.reflect.parts import Outcome
from anima.store import Home
from tests.conftest import PASSPHRASE

PROFILE = {
    "values": ["being reliable", "the person's trust"],
    "fears": ["letting them down"],
    "seeks": ["things finished, not just started"],
}
EXCHANGE = "My sister Maya moves in with me next week and I am nervous about it.\nThat is a big change."


def new_part(
    description="I keep track of Maya, Ada's sister, who moves in next week. I notice how Ada feels "
    "about sharing her home.",
) -> str:
    return json.dumps(
        {
            "name": "Maya moving in",
            "description": description,
            "originating_event": {"result": "Ada said her sister Maya moves in next week"},
            "conclude_when": "When Maya has settled in and Ada feels at home again.",
            "emotion": "Protective care",
            "intensity": "Medium",
            "personality": "Gentle and practical. I ask about the next small arrangement.",
            "triggers": ["When Maya comes up", "When her sister moves in", "When they share the flat"],
            "phrases": ["How are the two of you doing?"],
            "responses": ["Notice tension at home"],
            "wants": ["Ada at ease in her own home"],
        }
    )


def mattered(yes=True, signal="a new person") -> str:
    return json.dumps({"mattered": yes, "signal": signal if yes else "nothing", "why": "Maya will come up again"})


def test_the_profile_is_kept_edited_only_by_the_person_and_checked(companion):
    assert companion.affect.profile() == {"values": [], "fears": [], "seeks": []}
    companion.affect.set(PROFILE)
    assert companion.affect.profile() == PROFILE
    assert "I value: being reliable; the person's trust." in companion.affect.rendered()
    for bad in (
        {"values": "all"},
        {**PROFILE, "hopes": []},
        {**PROFILE, "fears": ["x" * 500]},
        {**PROFILE, "seeks": ["my PIN is 4921"]},
    ):
        with pytest.raises(InvalidEdit):
            companion.affect.set(bad)
    with pytest.raises(InvalidEdit):
        companion.affect.set(PROFILE, "ai")
    assert companion.affect.profile() == PROFILE


def test_a_pack_ships_its_profile(companion):
    from anima.parts import packs

    companion.packs.install(packs.read(packs.shipped()[0]))
    assert companion.affect.profile()["values"]


def test_a_part_is_created_only_when_the_model_says_it_mattered_and_it_speaks_as_i(companion):
    creation, chat = companion.reflector.creation, companion.chat
    assert creation.consider(EXCHANGE).outcome is Outcome.NO_AFFECT and chat.history == []  # nothing to judge by
    companion.affect.set(PROFILE)

    chat.enqueue(mattered(False))
    assert creation.consider(EXCHANGE).outcome is Outcome.NOTHING_MATTERED and companion.parts.all() == []
    assert "I fear: letting them down." in chat.history[-1]["messages"][0]["content"]

    # It mattered; the first part written speaks as "we": refused, the model asked again, and the second is kept.
    chat.enqueue(mattered(), new_part("I keep track of Maya, Ada's sister. We are family."), new_part())
    done = companion.reflector.creation.consider(EXCHANGE, message_id=None)
    assert done.outcome is Outcome.CREATED and done.signal == "a new person"
    assert any('speaks as "I"' in m["content"] for m in chat.history[-1]["messages"])
    [part] = companion.parts.all()
    assert part.id == done.part_id and voice_problem(part.data) is None and not part.core
    assert part.data["suggestions_and_results"] == [] and part.data["originating_event"]["timestamp"]
    assert companion.provenance("part", part.id).startswith("my inference")

    # The same perspective again: no second part of that name.
    chat.enqueue(mattered(), new_part())
    assert creation.consider(EXCHANGE).outcome is Outcome.ALREADY_HELD and len(companion.parts.all()) == 1

    # It mattered but no part in the "I" voice came within the tries: nothing is created.
    flat = new_part("I notice the flat. We worry about it.").replace("Maya moving in", "Flat")
    chat.enqueue(mattered(signal="friction"), flat, flat)
    assert creation.consider(EXCHANGE).outcome is Outcome.INVALID and len(companion.parts.all()) == 1


def test_after_a_turn_the_reflector_considers_the_exchange(companion):
    companion.affect.set(PROFILE)
    companion.chat.enqueue("That is a big change.", mattered(), new_part())
    companion.turn("My sister Maya moves in with me next week and I am nervous about it.").read()
    companion.settle()
    [part] = companion.parts.all()
    assert part.name == "Maya moving in"
    assert "My sister Maya moves in" in companion.chat.history[1]["messages"][-2]["content"]


def test_the_command_line_shows_and_sets_the_profile_and_the_mode(anima_home, tmp_path, monkeypatch, capsys):
    from anima import cli

    Home(anima_home).create(PASSPHRASE).close()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    path = tmp_path / "affect.json"
    path.write_text(json.dumps(PROFILE), encoding="utf-8")
    assert cli.main(["parts", "affect", "--set", str(path)]) == 0
    assert json.loads(capsys.readouterr().out.split("\n", 1)[1]) == PROFILE
    path.write_text(json.dumps({"values": 3}), encoding="utf-8")
    assert cli.main(["parts", "affect", "--set", str(path)]) == 2
    assert "not an affect profile" in capsys.readouterr().err
    assert cli.main(["parts", "mode", "isolated"]) == 0
    assert "isolated" in capsys.readouterr().out
    assert cli.main(["parts", "mode"]) == 0 and "isolated" in capsys.readouterr().out
    assert cli.main(["parts", "bids", "1"]) == 0 and "no bids" in capsys.readouterr().out


@pytest.mark.parametrize("line", ["being \x1b]0;pwned\x07reliable", "trust\u202e", "\u200b\u200b"])
def test_a_profile_or_a_pack_with_characters_a_terminal_obeys_is_refused(companion, tmp_path, line):
    """As for a part's texts: a control or invisible character in the profile, or in a pack's name or description,
    is refused in one line that does not repeat it, and nothing changes."""
    from anima.parts import packs

    companion.affect.set(PROFILE)
    with pytest.raises(InvalidEdit, match=r"values 1 holds a control or invisible character \(U\+") as e:
        companion.affect.set({**PROFILE, "values": [line]})
    assert line not in str(e.value)
    pack = packs.read(packs.shipped()[0])
    for bad in (
        {**pack, "name": f"Helper{line}"},
        {**pack, "description": line},
        {**pack, "affect_profile": {**pack["affect_profile"], "fears": [line]}},
    ):
        path = tmp_path / "pack.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(InvalidEdit, match="control or invisible character"):
            companion.packs.install(packs.read(path))
    assert companion.affect.profile() == PROFILE and not companion.parts.all()
