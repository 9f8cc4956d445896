"""The Open Mind's Self view when something else changes the self while it is open (a forget in another program):
a save begun from the older text is refused with the person's text kept, what is stored now is shown, and an
editor the person has not touched follows the forget."""

import pytest

from anima.store import Home
from tests.conftest import PASSPHRASE
from tests.ui.test_open_mind import open_view

ZED = "- Brother Zed lives in Oslo"


@pytest.fixture
def forget_elsewhere(anima_home):
    """`python -m anima forget --person NAME`, as another program on the same soul does it."""

    def forget(name: str) -> None:
        with Home(anima_home).unlock(PASSPHRASE) as soul:
            soul.forget_person(name)

    return forget


@pytest.fixture
def view(qtbot, window):
    window.companion.self_model.write("human", ZED, "user")
    view = open_view(qtbot, window, "About you")
    assert view.editors["human"].toPlainText() == ZED
    return view


def test_a_save_begun_before_a_forget_elsewhere_is_refused_and_the_draft_kept(
    qtbot, window, view, forget_elsewhere, screenshot
):
    view.watch.stop()  # the person saves before the view has looked again
    forget_elsewhere("Zed")
    draft = ZED + "\n- Plays chess"
    view.editors["human"].setPlainText(draft)
    view.loaded = False
    view.save("human")
    qtbot.waitUntil(lambda: view.error.isVisible() and view.loaded, timeout=10_000)
    assert view.error.text() == (
        "That was not saved: the human block was changed by something else after you "
        "began editing it, so look at what it holds now and save again."
    )
    assert window.companion.self_model.read().human == ""  # Zed does not come back
    assert view.editors["human"].toPlainText() == draft  # the person's text is kept, to mend
    note = view.elsewhere["human"]
    assert note.isVisible() and "it now holds: (nothing)" in note.text()
    screenshot(window, "open-mind-self-changed-elsewhere")
    view.editors["human"].setPlainText("- Plays chess")  # mended, having seen what it holds now
    view.save("human")
    qtbot.waitUntil(lambda: window.companion.self_model.read().human == "- Plays chess", timeout=10_000)
    qtbot.waitUntil(lambda: not view.error.isVisible() and not note.isVisible(), timeout=10_000)
    assert view.editors["human"].toPlainText() == "- Plays chess"


def test_an_untouched_editor_follows_a_forget_elsewhere(qtbot, window, view, forget_elsewhere):
    view.watch.stop()  # looked at by hand below, not by the timer
    forget_elsewhere("Zed")
    view.loaded = False
    view.look_for_forgets()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert view.editors["human"].toPlainText() == ""
    assert not view.elsewhere["human"].isVisible()
    view.editors["human"].setPlainText("- Plays chess")
    view.save("human")
    qtbot.waitUntil(lambda: window.companion.self_model.read().human == "- Plays chess", timeout=10_000)


def test_text_being_typed_is_kept_through_a_forget_elsewhere_and_what_is_stored_shown(
    qtbot, window, view, forget_elsewhere
):
    view.watch.stop()
    view.editors["human"].setPlainText(ZED + "\n- Plays ches")  # typing, not saved
    forget_elsewhere("Zed")
    view.loaded = False
    view.look_for_forgets()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert view.editors["human"].toPlainText() == ZED + "\n- Plays ches"
    assert view.elsewhere["human"].isVisible() and "it now holds: (nothing)" in view.elsewhere["human"].text()
    assert window.companion.self_model.read().human == ""


def test_two_quick_saves_both_land_and_the_second_is_kept(qtbot, window, view):
    """Save pressed again before the first save ended (the pool may run them in either order): the second is
    begun from the first, not refused as changed elsewhere."""
    view.watch.stop()
    view.editors["human"].setPlainText(ZED + "\n- Plays chess")
    view.save("human")
    view.editors["human"].setPlainText(ZED + "\n- Plays chess\n- Has a cat")
    view.save("human")
    qtbot.waitUntil(
        lambda: window.companion.self_model.read().human == ZED + "\n- Plays chess\n- Has a cat", timeout=10_000
    )
    qtbot.waitUntil(lambda: not view._saving, timeout=10_000)
    assert not view.error.isVisible(), view.error.text()
    assert view.editors["human"].toPlainText() == ZED + "\n- Plays chess\n- Has a cat"


def test_a_changed_rhythm_not_yet_saved_is_kept_through_a_forget_elsewhere(qtbot, window, view, forget_elsewhere):
    view.watch.stop()
    stored = window.companion.rhythm.read()
    view.every.setValue(stored.every + 3)  # changed, not saved
    forget_elsewhere("Zed")
    view.loaded = False
    view.look_for_forgets()
    qtbot.waitUntil(lambda: view.loaded, timeout=10_000)
    assert view.editors["human"].toPlainText() == ""  # the reload happened
    assert view.every.value() == stored.every + 3
    assert view.earned_after.value() == stored.earned_after
    view.save_rhythm()
    qtbot.waitUntil(lambda: window.companion.rhythm.read().every == stored.every + 3, timeout=10_000)


def test_an_editor_past_its_sections_cap_says_why_and_save_waits_nothing_cut(qtbot, window, view):
    """Issue 43 item 5: the Self editors had no length limit a person could see. The cap is the section's own
    (store/sections.py); past it the line under the editor says why, Save waits, and the text stays whole."""
    from anima.store.sections import cap

    most = cap("human")
    editor, count, save = view.editors["human"], view.counts["human"], view.saves["human"]
    assert count.text() == f"{len(ZED)} of {most:,} characters" and save.isEnabled()
    long = ZED + "\n- " + "x" * most
    editor.setPlainText(long)
    assert count.text().startswith(f"{len(long):,} characters: ") and f"holds at most {most:,}" in count.text()
    assert not save.isEnabled() and "Shorten it to save" in save.toolTip()
    assert editor.toPlainText() == long  # nothing cut
    assert window.companion.self_model.read().human == ZED  # nothing saved
    editor.setPlainText(ZED + "\n- Plays chess")
    assert save.isEnabled() and count.text().endswith(f"of {most:,} characters")
