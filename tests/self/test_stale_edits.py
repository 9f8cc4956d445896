"""What the person accepts or saves was made against a text that may have changed since: a proposal whose line is
gone, a rewrite made against an older text, an editor loaded before a forget. Each is refused in one sentence
and changes nothing; an accept and a reject at the same time (two programs on one soul) have one winner."""

import pytest

from anima.errors import InvalidEdit, KnownError
from anima.self.selfmodel import SelfModel
from anima.store import Home
from anima.store.provenance import Provenance, Source
from anima.trust.gate import Gate
from anima.trust.verdict import Change, Verdict
from tests.conftest import PASSPHRASE

BOB = Provenance(Source.THIRD_PARTY, None, "Bob")


def propose(companion, change: Change) -> int:
    [d] = companion.gate.submit([change])
    assert d.verdict is Verdict.PROPOSE, d.reason
    return d.proposal_id


def status(companion, proposal_id: int) -> str:
    return companion.soul.query("SELECT status FROM proposals WHERE id = ?", (proposal_id,))[0]["status"]


def test_a_replace_whose_line_is_gone_is_refused_changes_nothing_and_can_be_rejected(companion):
    companion.edit_self("human", "- Lives in Paris")
    pid = propose(companion, Change("human", "replace", "Lives in Berlin", BOB, "Lives in Paris"))
    companion.edit_self("human", "- Lives in Rome")  # the person's own, newer word
    with pytest.raises(InvalidEdit) as refused:
        companion.accept_proposal(pid)
    assert str(refused.value) == (
        f"Proposed change #{pid} was not applied, because the line it would replace "
        f'("Lives in Paris") is no longer in the human block: it is stale, nothing was '
        f"changed, and you may reject it."
    )
    assert companion.self_model.read().human == "- Lives in Rome"
    assert status(companion, pid) == "pending"  # not rejected for them: they decide, and see why it waits
    companion.reject_proposal(pid)
    assert status(companion, pid) == "rejected" and companion.self_model.read().human == "- Lives in Rome"


def test_a_replace_whose_line_is_still_there_is_applied(companion):
    companion.edit_self("human", "- Lives in Paris\n- Has a cat")
    pid = propose(companion, Change("human", "replace", "Lives in Berlin", BOB, "Lives in Paris"))
    companion.edit_self("human", "- Lives in Paris\n- Has a cat\n- Plays chess")  # another line changed: not stale
    companion.accept_proposal(pid)
    assert companion.self_model.read().human == "- Lives in Berlin\n- Has a cat\n- Plays chess"


def test_a_rewrite_made_against_an_older_text_is_refused_and_the_newer_text_kept(companion):
    companion.edit_self("persona", "Warm and curious.")
    pid = propose(
        companion, Change("persona", "rewrite", "A cheerful helper who loves puzzles.", Provenance(Source.REFLECTION))
    )
    assert companion.proposals()[0]["replaces"] == "Warm and curious."  # what it was made against
    companion.edit_self("persona", "Quiet and careful.")
    with pytest.raises(InvalidEdit, match=r"because the persona has changed since it was proposed: it is stale"):
        companion.accept_proposal(pid)
    assert companion.self_model.read().persona == "Quiet and careful."
    assert status(companion, pid) == "pending"


def test_a_rewrite_accepted_before_the_text_changed_is_applied(companion):
    companion.edit_self("persona", "Warm and curious.")
    pid = propose(
        companion, Change("persona", "rewrite", "A cheerful helper who loves puzzles.", Provenance(Source.REFLECTION))
    )
    companion.accept_proposal(pid)
    assert companion.self_model.read().persona == "A cheerful helper who loves puzzles."
    assert status(companion, pid) == "accepted"


@pytest.fixture
def other_program(companion, anima_home):
    """Another program on the same soul (`python -m anima proposals` beside the window). Told at once when the
    soul is busy, where a real one would wait up to the busy timeout first."""
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        soul.con.execute("PRAGMA busy_timeout = 0")
        yield Gate(soul, SelfModel(soul))


def test_a_reject_elsewhere_while_an_accept_is_applied_never_wins_both(companion, other_program, monkeypatch):
    companion.edit_self("human", "- Lives in Paris")
    pid = propose(companion, Change("human", "replace", "Lives in Berlin", BOB, "Lives in Paris"))
    told = []
    write = SelfModel.write

    def rejected_meanwhile(self, *args, **kwargs):  # between reading the proposal and applying it
        if not told:
            try:
                other_program.reject(pid)
                told.append("Rejected")
            except KnownError as e:
                told.append(str(e))
        return write(self, *args, **kwargs)

    monkeypatch.setattr(SelfModel, "write", rejected_meanwhile)
    companion.accept_proposal(pid)
    assert told and told[0] != "Rejected"  # the reject was not confirmed: the soul was busy with the accept
    assert status(companion, pid) == "accepted" and companion.self_model.read().human == "- Lives in Berlin"
    with pytest.raises(InvalidEdit, match=rf"^Proposed change #{pid} was already accepted\.$"):
        other_program.reject(pid)


def test_an_accept_elsewhere_while_a_reject_is_recorded_never_wins_both(companion, other_program, monkeypatch):
    companion.edit_self("human", "- Lives in Paris")
    pid = propose(companion, Change("human", "replace", "Lives in Berlin", BOB, "Lives in Paris"))
    told = []
    update = companion.soul.update

    def accepted_meanwhile(kind, *args, **kwargs):  # between reading the proposal and marking it rejected
        if kind == "proposal" and not told:
            try:
                other_program.accept(pid)
                told.append("Accepted")
            except KnownError as e:
                told.append(str(e))
        return update(kind, *args, **kwargs)

    monkeypatch.setattr(companion.soul, "update", accepted_meanwhile)
    companion.reject_proposal(pid)
    assert told and told[0] != "Accepted"
    assert status(companion, pid) == "rejected" and companion.self_model.read().human == "- Lives in Paris"
    with pytest.raises(InvalidEdit, match=rf"^Proposed change #{pid} was already rejected\.$"):
        other_program.accept(pid)


def test_an_edit_begun_before_a_forget_is_refused_and_nothing_comes_back(companion, anima_home):
    companion.edit_self("human", "- Brother Zed lives in Oslo")
    was = companion.self_model.read().human  # what the person's editor was loaded from
    with Home(anima_home).unlock(PASSPHRASE) as soul:  # another program forgets him
        soul.forget_person("Zed")
    assert companion.self_model.read().human == ""
    with pytest.raises(InvalidEdit) as refused:
        companion.edit_self("human", "- Brother Zed lives in Oslo\n- Plays chess", was)
    assert str(refused.value) == (
        "That was not saved: the human block was changed by something else after you "
        "began editing it, so look at what it holds now and save again."
    )
    assert companion.self_model.read().human == ""
    companion.edit_self("human", "- Plays chess", "")  # begun from what it holds now
    assert companion.self_model.read().human == "- Plays chess"


def test_a_section_outside_the_gate_is_checked_the_same_way(companion):
    companion.edit_self("inner_state", "Curious about the trip.")
    companion.edit_self("inner_state", "Tired.")
    with pytest.raises(InvalidEdit, match="inner state was changed by something else"):
        companion.edit_self("inner_state", "Curious about the trip, and glad.", "Curious about the trip.")
    assert companion.self_model.read().inner_state == "Tired."
