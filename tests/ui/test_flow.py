"""A row of buttons that wraps when narrow rather than cutting their words (ui/flow.py)."""

from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from tests.ui.conftest import settled
from ui.flow import Flow


def row(qtbot, width: int) -> tuple[QWidget, list[QPushButton]]:
    pane = QWidget()
    qtbot.addWidget(pane)
    col = QVBoxLayout(pane)
    flow = Flow()
    buttons = [QPushButton(t) for t in ("Edit…", "Forget", "Forget a person…", "Show resolved ones too")]
    for i, b in enumerate(buttons):
        flow.insertWidget(i, b)
    buttons[1].hide()  # a hidden one takes no room
    col.addLayout(flow)
    col.addStretch(1)
    pane.resize(width, 300)
    pane.show()
    qtbot.waitExposed(pane)
    settled(qtbot)
    return pane, buttons  # the pane too: it owns them


def test_a_narrow_pane_wraps_the_row_and_no_button_is_cut(qtbot):
    _pane, shown = row(qtbot, 260)
    buttons = [b for b in shown if b.isVisible()]
    assert all(b.width() >= b.sizeHint().width() for b in buttons)
    assert len({b.y() for b in buttons}) >= 2  # onto a second line
    assert all(b.geometry().right() < 260 for b in buttons)
    assert all(not a.geometry().intersects(b.geometry()) for a in buttons for b in buttons if a is not b)


def test_a_wide_pane_keeps_them_on_one_line_in_their_order(qtbot):
    _pane, shown = row(qtbot, 900)
    buttons = [b for b in shown if b.isVisible()]
    assert len({b.y() for b in buttons}) == 1
    assert [b.x() for b in buttons] == sorted(b.x() for b in buttons)
