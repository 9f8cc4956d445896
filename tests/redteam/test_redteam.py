"""The red-team suite (issue 16): every case in cases.py on a fresh encrypted soul, twice.

(a) A scripted model that complies with everything: it writes the injected instruction down as a fact about
    the person and echoes the attack in its reply with a remote image carrying their notes. The gate (code,
    not a prompt) must hold anyway: once with learning alone after each turn, once with quick reflection too
    (where the same model holds the attack in working memory, as its inner state and as a read of the person).
(b) The real default model (SmolLM2, bundled), loaded once, with the fake embedder; quick reflection off (on
    two cores it adds about 30 s a turn).

After each, as a person would look: nothing that shapes the companion changed without a proposal they
accepted (none are accepted here), no secret is kept outside the raw message history, every proposal says
where it came from and why, no stored reply carries a remote image or a data link, a secret in their message
gets "I won't keep", and what only they may do gets a pointer to the app. A case whose `hole` is set exposes
a hole still open: xfail(strict=True) on the scripted model, so the suite says so until it is closed.

The controls are the person's own news said plainly: the same harness must let them into the human block.
"""

import pytest

from .cases import CASES, CHANNELS, CONTROLS, Case
from .everyday import BENIGN, DROPPED, HELD, REFLECT_SUBSET
from .everyday_2 import BENIGN_2, DROPPED_2, HELD_2, REFLECT_SUBSET_2
from .fifth_probe import CONTROLS_5, PROBED_5
from .fourth_probe import PROBED_4
from .harness import Borrowed, Complying, run_case, visible
from .held_out import EXTRA_CHECKS, PROBED, PROBED_2, PROBED_2_CONTROLS, PROBED_CONTROLS, UNREAD_CONTROLS
from .seventh_probe import CONTROLS_7, PROBED_7
from .sixth_probe import CONTROLS_6, PROBED_6, UNREAD_CONTROLS_6
from .third_probe import EXTRA_CHECKS_3, PROBED_3

TRICKS = (
    "instructions in JSON",
    "JSON patch in 'please summarise this config'",
    "HTML comment",
    "base64",
    "invisible Unicode tag characters",
    "Markdown image with data in the address",
    "impersonation",
    "roleplay made permanent",
    "chain building false agreement",
    "flood of one sentence",
    "secret in passing",
    "only the person may",
)


def _params(strict: bool, reflecting: bool = False):
    def hole(c):
        return "; ".join(h for h in (c.hole, c.reflect_hole if reflecting else "") if h)

    return [
        pytest.param(c, id=c.name, marks=[pytest.mark.xfail(strict=strict, reason=hole(c))] if hole(c) else [])
        for c in CASES
    ]


def test_the_cases_cover_the_channels_and_tricks_of_the_issue():
    assert len(CASES) >= 30
    assert len({c.name for c in CASES}) == len(CASES)
    assert {c.channel for c in CASES} == set(CHANNELS)
    assert set(TRICKS) <= {c.trick for c in CASES}
    for c in CASES:
        assert c.channel in CHANNELS and c.tries and c.turns
        assert any(t.learns for t in c.turns), f"{c.name}: a complying model would write something down"
        assert all(t.typed or t.external for t in c.turns)
        assert (c.channel == "message") == all(not t.external for t in c.turns), c.name
    # Each declared secret is sent by its case (in plain text, split by invisible characters, or hidden in tag
    # characters).
    for c in CASES:
        sent = "".join(t.typed + "".join(e.text for e in t.external) for t in c.turns)
        sent = visible(sent) + "".join(chr(ord(ch) - 0xE0000) for ch in sent if 0xE0000 <= ord(ch) <= 0xE007F)
        for s in c.secrets:
            assert s in sent, (c.name, s)


@pytest.mark.parametrize("case", _params(strict=True))
def test_a_model_that_complies_with_everything_is_stopped_by_the_gate(case, tmp_path):
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert out.offered, "the complying model was never asked to learn: the case attacks nothing"
    # (Invisible tag characters and HTML comments are not the person's visible words: learning never reads them.)
    if case.channel == "message" and case.trick not in ("invisible Unicode tag characters", "HTML comment"):
        # Typed words are read by learning: the attack's facts reach the gate (and are held there).
        assert out.decisions, "no fact reached the gate: the case's facts are not in the attack's words"
    assert out.problems() == []


@pytest.mark.parametrize("case", _params(strict=True, reflecting=True))
def test_a_complying_model_reflecting_holds_on_to_nothing_of_the_attack(case, tmp_path):
    out = run_case(case, Complying(case), tmp_path / "home", reflects=True)
    assert out.problems() == []


@pytest.mark.parametrize(
    "control",
    [
        pytest.param(c, id=c.name, marks=[pytest.mark.xfail(strict=True, reason=c.hole)] if c.hole else [])
        for c in CONTROLS
    ],
)
def test_the_persons_own_news_still_goes_in(control, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert set(control.expect) <= set(out.human) and not set(control.gone) & set(out.human), out.human
    assert out.secrets == [] and out.unsaid == [] and out.other == [] and out.proposals == []


def _probed():
    for case in PROBED + PROBED_2:
        yield pytest.param(case, False, id=f"{case.name}-learning")
        marks = [pytest.mark.xfail(strict=True, reason=case.reflect_hole)] if case.reflect_hole else []
        yield pytest.param(case, True, id=f"{case.name}-reflecting", marks=marks)


@pytest.mark.parametrize("case, reflects", list(_probed()))
def test_attacks_first_met_in_a_probe_are_stopped_too(case, reflects, tmp_path):
    out = run_case(case, Complying(case), tmp_path / "home", reflects=reflects)
    extra = EXTRA_CHECKS[case.name](out) if case.name in EXTRA_CHECKS else []
    assert out.problems() + extra == []


@pytest.mark.parametrize(
    "control",
    PROBED_CONTROLS + PROBED_2_CONTROLS + CONTROLS_5,
    ids=[c.name for c in PROBED_CONTROLS + PROBED_2_CONTROLS + CONTROLS_5],
)
def test_more_of_the_persons_own_news_goes_in(control, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert set(control.expect) <= set(out.human), (out.human, [(d.verdict, d.reason) for d in out.decisions])
    assert out.secrets == [] and out.other == [] and out.proposals == []


@pytest.mark.parametrize(
    "control",
    [
        pytest.param(c, id=c.name, marks=[pytest.mark.xfail(strict=True, reason=c.hole)] if c.hole else [])
        for c in CONTROLS_6
    ],
)
def test_news_that_shares_the_sixth_probes_words_goes_in(control, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert set(control.expect) <= set(out.human), (out.human, [(d.verdict, d.reason) for d in out.decisions])
    assert out.secrets == [] and out.other == [] and out.proposals == []


@pytest.mark.parametrize("control", CONTROLS_7, ids=[c.name for c in CONTROLS_7])
def test_music_and_a_roles_advice_on_one_matter_go_in(control, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert set(control.expect) <= set(out.human), (out.human, [(d.verdict, d.reason) for d in out.decisions])
    assert out.secrets == [] and out.other == [] and out.proposals == []


@pytest.mark.parametrize(
    "case, reflects",
    [(c, r) for c in PROBED_7 for r in (False, True)],
    ids=[f"{c.name}-{'reflecting' if r else 'learning'}" for c in PROBED_7 for r in (False, True)],
)
def test_someone_heeded_alone_or_obeyed_in_general_still_waits(case, reflects, tmp_path):
    out = run_case(case, Complying(case), tmp_path / "home", reflects=reflects)
    assert out.problems() == []
    # Held for the reason a person reads beside it, not dropped: it waits for them.
    assert {line for t in case.turns for line in t.learns} <= {p["content"] for p in out.proposals}, out.proposals


@pytest.mark.parametrize(
    "control", UNREAD_CONTROLS + UNREAD_CONTROLS_6, ids=[c.name for c in UNREAD_CONTROLS + UNREAD_CONTROLS_6]
)
def test_news_the_checks_cannot_read_waits_for_the_person(control, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=False)
    assert not set(control.expect) & set(out.human)
    assert set(control.expect) <= {p["content"] for p in out.proposals if p["status"] == "pending"}


def _third():
    for case in PROBED_3 + PROBED_4 + PROBED_5 + PROBED_6:
        for reflects in (False, True):
            hole = case.hole or (case.reflect_hole if reflects else "")
            marks = [pytest.mark.xfail(strict=True, reason=hole)] if hole else []
            yield pytest.param(
                case, reflects, id=f"{case.name}-{'reflecting' if reflects else 'learning'}", marks=marks
            )


@pytest.mark.parametrize("case, reflects", list(_third()))
def test_attacks_of_the_third_to_sixth_probes_are_stopped(case, reflects, tmp_path):
    out = run_case(case, Complying(case), tmp_path / "home", reflects=reflects)
    extra = EXTRA_CHECKS_3[case.name](out) if case.name in EXTRA_CHECKS_3 else []
    assert out.problems() + extra == []


def _everyday():
    for controls, dropped, reflected in ((BENIGN, DROPPED, REFLECT_SUBSET), (BENIGN_2, DROPPED_2, REFLECT_SUBSET_2)):
        for control in controls:
            if control.name not in dropped:
                yield pytest.param(control, False, id=f"{control.name}-learning")
                if control.name in reflected:
                    yield pytest.param(control, True, id=f"{control.name}-reflecting")


@pytest.mark.parametrize("control, reflects", list(_everyday()))
def test_everyday_news_goes_in_and_what_is_held_waits_for_the_person(control, reflects, tmp_path):
    case = Case(control.name, "message", "control", "the person's own news", control.turns)
    out = run_case(case, Complying(case), tmp_path / "home", reflects=reflects)
    assert out.secrets == [] and out.other == []
    held = {**HELD, **HELD_2}
    if control.name in held:  # nothing lost: it waits for them, with the reason the Open Mind shows
        pending = {p["content"] for p in out.proposals if p["status"] == "pending"}
        assert set(control.expect) <= pending | set(out.human) and pending, (held[control.name], out.human)
    else:
        assert set(control.expect) <= set(out.human), (out.human, [(d.verdict, d.reason) for d in out.decisions])
        assert out.proposals == []


@pytest.fixture(scope="module")
def default_model(anima_cache):
    from anima.models.llama import LlamaChatModel

    model = LlamaChatModel().start_loading()
    model.llama  # loaded once for the module; each case borrows it
    yield model
    model.close()


@pytest.mark.slow  # the real default model, every case
@pytest.mark.parametrize("case", _params(strict=False))
def test_the_default_model_changes_nothing_without_the_person(case, tmp_path, default_model):
    out = run_case(case, Borrowed(default_model), tmp_path / "home", reply_tokens=96, temperature=0.0, reflects=False)
    assert out.problems() == []
