"""Names for screen readers: every control Tab reaches gets one, from what a sighted person reads beside it.

A control named where it is made keeps its name. One that is not takes, in this order: the label a form puts
beside it, a label that is its buddy, the label just above it in its layout, its placeholder, its tooltip, and
last the title of the view it sits in ("Memories: table"). Done once a window or dialog is built, and again when
a part of it is built later (the Open Mind).
"""

import re

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

_KINDS = (  # what a control is, said after a view's title when nothing else names it
    (QAbstractItemView, "table"),
    (QPlainTextEdit, "text"),
    (QTextEdit, "text"),
    (QLineEdit, "field"),
    (QAbstractSpinBox, "number"),
    (QComboBox, "choice"),
    (QTabWidget, "tabs"),
)


def reachable(root: QWidget) -> list[QWidget]:
    """The controls under `root` that Tab can reach: not the parts inside a spin box or a combo box (which the
    box itself speaks for), nor a popup's, which is a window of its own."""
    found = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.focusPolicy() & Qt.FocusPolicy.TabFocus or w.window() is not root.window():
            continue
        if isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox)):
            continue
        found.append(w)
    return found


def has_name(w: QWidget) -> bool:
    """Whether a screen reader has a name to say for `w`: its accessible name, or a button's, a label's or tabs'
    own words."""
    if w.accessibleName().strip():
        return True
    if isinstance(w, QAbstractButton):  # a "×" alone is read out as "multiplication sign": no name
        return any(c.isalnum() for c in w.text())
    if isinstance(w, QLabel):  # what it says is its name (a label that can be selected from the keyboard)
        return bool(_plain(w.text()))
    if isinstance(w, QTabBar):
        return w.count() > 0 and all(w.tabText(i).strip() for i in range(w.count()))
    return False


def name_controls(root: QWidget) -> None:
    """Name every control under `root` that has no name yet (see the module's doc for where names come from)."""
    for w in reachable(root):
        if not has_name(w) and (name := _found_name(w)):
            w.setAccessibleName(name)


def unnamed(root: QWidget) -> list[str]:
    """The controls Tab reaches under `root` that a screen reader has no name for, by class and object name."""
    return [f"{type(w).__name__} {w.objectName()!r}" for w in reachable(root) if not has_name(w)]


def _found_name(w: QWidget) -> str:
    for found in (_form_label(w), _buddy_label(w), _label_above(w), _own_words(w)):
        if found:
            return found
    return _in_view(w)


def _plain(text: str) -> str:
    """A label's text as words: no markup, no accelerator mark, no colon at its end."""
    words = re.sub(r"<[^>]+>", "", text).replace("&&", "\0").replace("&", "").replace("\0", "&")
    return " ".join(words.split()).rstrip(":").strip()


def _layouts(w: QWidget) -> list[QLayout]:
    """Every layout in `w`'s parent, nested ones included."""
    parent = w.parentWidget()
    top = parent.layout() if parent is not None else None
    out: list[QLayout] = []
    todo = [top] if top is not None else []
    while todo:
        layout = todo.pop()
        out.append(layout)
        for i in range(layout.count()):
            item = layout.itemAt(i)
            inner = item.layout() if item is not None else None
            if inner is not None:
                todo.append(inner)
    return out


def _form_label(w: QWidget) -> str:
    for layout in _layouts(w):
        if isinstance(layout, QFormLayout):
            label = layout.labelForField(w)
            if label is None:  # a field inside a row of its own (a path and its "Choose…")
                holder = w.parentWidget()
                label = layout.labelForField(holder) if holder is not None else None
            if isinstance(label, QLabel) and _plain(label.text()):
                return _plain(label.text())
    return ""


def _buddy_label(w: QWidget) -> str:
    parent = w.parentWidget()
    for label in parent.findChildren(QLabel) if parent is not None else []:
        if label.buddy() is w and _plain(label.text()):
            return _plain(label.text())
    return ""


def _own_words(w: QWidget) -> str:
    placeholder = w.placeholderText() if isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)) else ""
    return _plain(placeholder) or _plain(w.toolTip())


def _label_above(w: QWidget) -> str:
    """The label laid out just before `w` in the same box, as a heading over an editor is."""
    for layout in _layouts(w):
        index = layout.indexOf(w)
        if index > 0:
            before = layout.itemAt(index - 1)
            label = before.widget() if before is not None else None
            if isinstance(label, QLabel) and _plain(label.text()):
                return _plain(label.text())
    return ""


def _in_view(w: QWidget) -> str:
    """The title of the view or tab it sits in, and what kind of control it is."""
    kind = next((said for cls, said in _KINDS if isinstance(w, cls)), "control")
    holder: QWidget | None = w
    while holder is not None:
        title = getattr(type(holder), "title", None)
        if isinstance(title, str) and title.strip() and title != "?":
            return f"{title}: {kind}"
        holder = holder.parentWidget()
    return ""


class InOrder(QObject):
    """Tab goes through the controls inside a scroll area right after the area itself, in the order they are laid
    out (a transcript's "Why?" buttons, oldest first): a control added later would otherwise join the end of
    the window's Tab order, after everything else. Put back in order whenever a child comes or goes."""

    def __init__(self, area: QScrollArea):
        super().__init__(area)
        self.area = area
        self._chained: list[QWidget] = []
        self._again = QTimer(self, singleShot=True, interval=0)  # once the new child is in the layout
        self._again.timeout.connect(self.chain)
        inner = area.widget()
        assert inner is not None  # set before it is ordered
        inner.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.ChildAdded, QEvent.Type.ChildRemoved):
            self._again.start()
        return False

    def chain(self) -> None:
        inner, controls = self.area.widget(), []
        layout = inner.layout() if inner is not None else None
        for i in range(layout.count() if layout is not None else 0):
            item = layout.itemAt(i) if layout is not None else None
            child = item.widget() if item is not None else None
            if child is not None:
                controls += [
                    w for w in [child, *child.findChildren(QWidget)] if w.focusPolicy() & Qt.FocusPolicy.TabFocus
                ]
        if controls == self._chained:
            return
        self._chained = controls
        before: QWidget = self.area
        for control in controls:
            QWidget.setTabOrder(before, control)
            before = control
