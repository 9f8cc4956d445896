"""The sections of the self are declared once (store/sections.py): a cap changed there is the cap everywhere."""

from dataclasses import fields, replace

import pytest
from PySide6.QtWidgets import QLabel

from anima.errors import InvalidEdit
from anima.self.selfmodel import SelfFloor
from anima.store.provenance import Provenance, Source
from anima.store.sections import SECTIONS, Kept, kept_in
from anima.trust.verdict import Change, Verdict

CAP = 60
KEPT = "Lives in Lisbon with two cats"  # "- Lives in Lisbon with two cats": 31 characters
DROPPED = "Works nights as a nurse at the children's hospital"  # with it the block is 84


@pytest.fixture
def smaller_human_block(monkeypatch):
    monkeypatch.setitem(SECTIONS, "human", replace(SECTIONS["human"], cap=CAP))


def test_every_section_of_the_floor_is_in_the_registry_and_every_stored_one_has_a_row(soul):
    assert {f.name for f in fields(SelfFloor)} == set(SECTIONS)
    assert {r["section"] for r in soul.query("SELECT section FROM self_model")} == set(kept_in(Kept.SECTION))
    assert {r["name"] for r in soul.query("SELECT name FROM blocks")} == set(kept_in(Kept.BLOCK))


def test_a_cap_changed_in_the_registry_holds_in_the_gate_the_prompt_and_the_open_mind(
    companion, qtbot, smaller_human_block
):
    from ui.mind.self_view import AboutYouView

    # The gate: the line past the new cap does not fit what is always in mind, and stays out.
    own = Provenance(Source.APP)
    kept, dropped = companion.gate.submit([Change("human", "add", KEPT, own), Change("human", "add", DROPPED, own)])
    assert kept.verdict is dropped.verdict is Verdict.APPLY
    assert "there was no room for it in what is always in mind" in dropped.reason
    assert companion.self_model.read().human == f"- {KEPT}"
    # The self model refuses a text over it.
    with pytest.raises(InvalidEdit, match=f"The human block holds at most {CAP} characters"):
        companion.self_model.write("human", f"- {KEPT}\n- {DROPPED}", "user")

    # The prompt the workspace assembles holds what fit, and nothing past the cap.
    companion.chat.enqueue("Hello.")
    companion.turn("Hi there").read()
    floor = companion.chat.history[-1]["messages"][0]["content"]
    assert f"# {SECTIONS['human'].heading}\n- {KEPT}" in floor and "nurse" not in floor

    # The Open Mind says the new limit above the human block's editor.
    view = AboutYouView(companion)  # the human block is edited under "About you"
    qtbot.addWidget(view)
    shown = [label.text() for label in view.findChildren(QLabel)]
    assert f"<b>{SECTIONS['human'].shown}</b> (at most {CAP} characters)" in shown
