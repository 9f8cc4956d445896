"""Search across every conversation in the real window (issue 39): Ctrl+K, words typed, a result chosen opens its
conversation at that message, highlighted; on a real encrypted soul."""

from PySide6.QtCore import Qt

from tests.conftest import talk
from tests.ui.chat.test_sidebar import pressable
from tests.ui.conftest import send
from ui.chat.search import FOUND, SearchPopup, show_found


def test_ctrl_k_finds_a_message_in_another_conversation_and_jumps_to_it_highlighted(qtbot, window):
    c = window.companion
    # An older conversation, long enough that the message is far above its newest page.
    talk(c, "We should name the boat Albatross", "Albatross it is.")
    older = c.session
    for i in range(40):
        talk(c, f"Small talk number {i}", f"Reply {i}")
    target = c.conversations.search("albatross")[-1].message_id  # the person's message, the older of the two
    c.new_conversation()
    window.sidebar.refresh()
    c.chat.enqueue("Fine.")
    send(qtbot, window, "Something else today")

    pressable(qtbot, window)
    qtbot.keyClick(window.input, Qt.Key_K, Qt.ControlModifier)
    popup = window._search
    assert isinstance(popup, SearchPopup) and popup.isVisible()
    qtbot.keyClicks(popup.box, "albatross")
    qtbot.waitUntil(lambda: popup.results.count() == 2, timeout=10_000)
    texts = [popup.results.item(i).text() for i in range(2)]
    assert all("We should name the boat Albatross" in t.split("\n")[0] for t in texts)  # its conversation's title
    assert "Anima: Albatross it is." in texts[0] and "You: We should name the boat Albatross" in texts[1]

    popup.results.setCurrentRow(1)
    assert popup.results.currentItem().data(FOUND) == (older, target)
    qtbot.keyClick(popup.results, Qt.Key_Return)

    qtbot.waitUntil(
        lambda: c.session == older and any(b.property("found") for b in window.transcript.bubbles), timeout=10_000
    )
    [found] = [b for b in window.transcript.bubbles if b.property("found")]
    assert found.message_id == target and found.text == "We should name the boat Albatross"
    assert not popup.isVisible()
    assert "Something else today" not in [b.text for b in window.transcript.bubbles]  # only that conversation
    assert window.sidebar.selected() == older
    bar = window.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() < bar.maximum(), timeout=5_000)  # scrolled up to it, not left at the bottom
    qtbot.waitUntil(lambda: not found.property("found"), timeout=10_000)  # the highlight fades


def test_words_found_nowhere_say_so(qtbot, window):
    talk(window.companion, "Hello there", "Hi!")
    window.search_conversations()
    popup = window._search
    qtbot.keyClicks(popup.box, "zeppelin")
    qtbot.waitUntil(lambda: popup.said.text() == "Nothing found.", timeout=10_000)
    assert popup.results.count() == 0


def test_a_message_not_shown_is_not_highlighted(qtbot, window):
    assert show_found(window.transcript, 12345) is None


def test_the_words_searched_for_are_bold_in_a_result_and_the_rest_is_shown_as_typed():
    from ui.chat.search import marked

    assert marked("Jo <3 painting, Jon too", "paint jo") == "<b>Jo</b> &lt;3 <b>painting</b>, <b>Jon</b> too"
    assert marked("nothing here", "   ") == "nothing here"
