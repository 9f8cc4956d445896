"""Every control a person reaches with Tab has a name a screen reader can say: in the window, the Open Mind, and
every dialog."""

from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from anima.store import Home
from ui import access
from ui.chat.why import WhyDialog
from ui.dialogs.card_import import PreviewDialog
from ui.dialogs.core_io import ExportDialog, ImportDialog
from ui.dialogs.settings import SettingsDialog
from ui.dialogs.unlock import ChangePassphraseDialog, FirstRunDialog, UnlockDialog
from ui.help import AboutDialog, ShortcutSheet


def test_the_window_and_the_whole_open_mind_name_every_control(qtbot, window):
    from anima.knowledge.messages import External
    from anima.store.provenance import Source

    window.input.attachments.add(External(Source.PASTED, "a pasted\nletter"))
    window.transcript.add("user", "read this", outside=[("pasted", "a pasted\nletter")])
    window.toggle_mind()
    assert window.mind.isVisible()
    assert len(access.reachable(window)) > 40  # the walk reaches into the Open Mind's tabs, shown or not
    assert access.unnamed(window) == []
    assert window.input.accessibleName() == "Message"
    assert window.transcript.accessibleName() == "Conversation"
    [remove] = [w for w in access.reachable(window) if w.objectName() == "remove-attachment"]
    assert remove.accessibleName().startswith("Remove ")  # not "×", said as "multiplication sign"


def test_every_dialog_names_every_control(qtbot, window, anima_home, tmp_path):
    from anima.settings import Settings

    c = window.companion
    dialogs = [
        FirstRunDialog(Home(tmp_path / "new")),
        UnlockDialog(Home(anima_home)),
        ChangePassphraseDialog(Home(anima_home)),
        ExportDialog(c),
        ImportDialog(Home(anima_home), replacing=True),
        ImportDialog(Home(tmp_path / "new"), replacing=False),
        SettingsDialog(Settings(), window),
        WhyDialog([], {}, bids=[]),
        PreviewDialog("A card", ["Name: Mira"]),
        ShortcutSheet(window),
        AboutDialog(window, c),
    ]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        assert access.reachable(dialog), type(dialog).__name__
        assert access.unnamed(dialog) == [], type(dialog).__name__
        dialog.close()


def test_a_field_takes_its_name_from_its_label_its_placeholder_or_the_heading_above_it(qtbot):
    from PySide6.QtWidgets import QFormLayout, QLabel

    root = QWidget()
    qtbot.addWidget(root)
    form = QFormLayout()
    labelled = QLineEdit()
    form.addRow("Your &name:", labelled)
    hinted = QLineEdit(placeholderText="Search the memories")
    form.addRow(hinted)
    col = QVBoxLayout(root)
    col.addLayout(form)
    col.addWidget(QLabel("<b>Persona</b>"))
    headed = QPlainTextEdit()
    col.addWidget(headed)
    bare = QPlainTextEdit()
    col.addWidget(bare)
    col.addWidget(QPushButton("Save"))
    assert len(access.unnamed(root)) == 4  # the four fields; the button says its text
    access.name_controls(root)
    assert (labelled.accessibleName(), hinted.accessibleName(), headed.accessibleName()) == (
        "Your name",
        "Search the memories",
        "Persona",
    )
    assert access.unnamed(root) == ["QPlainTextEdit ''"]  # nothing to name it by: the test says so, by its class


def test_tab_goes_through_the_replies_why_in_the_order_they_are_shown(qtbot, window):
    """Bubbles come later than the window's controls (history is read after it opens, replies come as they
    come): their "Why?" still follows the conversation on Tab, oldest first, older history above included."""
    from PySide6.QtCore import Qt

    from tests.ui.conftest import settled

    window.transcript.add("companion", "second", message_id=2)
    window.transcript.add("companion", "third", message_id=3)
    window.transcript.add("companion", "first", message_id=1, at_top=True)
    settled(qtbot)
    whys, w = [], window.transcript
    for _ in range(len(access.reachable(window)) + 5):
        w = w.nextInFocusChain()
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
            if w is window.input:
                break
            whys.append(w)
    bubbles = {b.why: b.text for b in window.transcript.bubbles}
    # Each bubble's own row of actions comes with it (chat/message_actions.py): the Why? buttons keep their order.
    assert [bubbles[w] for w in whys if w in bubbles][:3] == ["first", "second", "third"]
