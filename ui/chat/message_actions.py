"""What a person can do with one message: copy it, edit and send it again, have the reply made again, continue a
reply that was cut off or stopped, delete it (forgotten), and step through its versions (‹ 1/2 ›).

Each bubble carries a row (MessageActions): buttons with accessible names, shown while the bubble is hovered or
holds the focus (Tab reaches the bubble, then its buttons), and the same actions in its right-click menu. The
stepper, and how a reply ended ("Stopped", "Cut off"), show always. What the actions do is the window's
(Actions, one per window): the core does it off the UI thread (ui/tasks.py), a reply made again streams like
any other, and the history is read again after it, with its versions. As SillyTavern's swipes, editing, making
again and stepping act on the last exchange (conversation/branch.py): only its bubbles offer them.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import errors, tasks

if TYPE_CHECKING:
    from anima.knowledge.branches import Ending, Versions

# The window and its bubbles are typed Any here: each imports this module (and no two modules import each other).
Window = Any  # ui/window.py's MainWindow
Bubble = Any  # chat/transcript.py's Bubble: role, text, message_id, words_id, label, actions

# The actions, in the order a row and a menu show them: (name, button text, accessible name).
ACTIONS = (
    ("copy", "Copy", "Copy message"),
    ("edit", "Edit", "Edit and send again"),
    ("regenerate", "Regenerate", "Regenerate reply"),
    ("continue", "Continue", "Continue reply"),
    ("delete", "Delete", "Delete message"),
)
# By anima.knowledge.branches.Ending's values: the core is imported after the first paint (app.prepare).
ENDED = {"stopped": "Stopped", "cut_off": "Cut off"}


class MessageActions(QWidget):
    """A bubble's row of actions, its stepper between versions, and how its reply ended."""

    asked = Signal(str)  # one of ACTIONS' names, or "older" / "newer" (the stepper)

    def __init__(self, bubble: QFrame, role: str, label: QLabel):
        """`bubble`: the bubble it is in, whose `role` it is and whose text `label` shows."""
        super().__init__(bubble)
        self.bubble, self.label = bubble, label
        self.versions: Versions | None = None
        self.ending: Ending | None = None
        self.offered: set[str] = {"copy"}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.older = self._button("‹", "Previous version", "older")
        self.shown = QLabel("")
        self.shown.setObjectName("versions")
        self.newer = self._button("›", "Next version", "newer")
        self.ended = QLabel("")
        self.ended.setObjectName("ending")
        self.ended.setStyleSheet("color: palette(placeholder-text); font-style: italic;")
        for w in (self.older, self.shown, self.newer, self.ended):
            row.addWidget(w)
        row.addStretch(1)
        self.buttons = {name: self._button(text, accessible, name) for name, text, accessible in ACTIONS}
        for b in self.buttons.values():
            row.addWidget(b)
        self.editor: Editor | None = None
        # Hover and focus show the buttons; the row keeps its height meanwhile, so the transcript does not jump.
        # The bubble says when the pointer enters or leaves it (Bubble.enterEvent), and one connection for the
        # whole app when the focus moves (_follow_focus): not an event filter on each bubble and button, which
        # had the window's thread take the GIL for every event they got, each paint and move included.
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        bubble.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        bubble.setAccessibleName(f"{'Your' if role == 'user' else 'Companion'} message")
        _follow_focus()
        for clicked in (bubble, label):
            clicked.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            clicked.customContextMenuRequested.connect(lambda at, on=clicked: self.menu().popup(on.mapToGlobal(at)))
        self._look()

    def _button(self, text: str, accessible: str, name: str) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.setAutoRaise(True)
        b.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it, as a push button
        b.setAccessibleName(accessible)
        b.setToolTip(accessible)
        b.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        b.clicked.connect(lambda: self.asked.emit(name))
        return b

    # ---- what it offers ------------------------------------------------------------------------------------

    def offer(self, names: set[str]) -> None:
        """The actions this message offers now (the window's Actions.refresh decides)."""
        self.offered = set(names)
        self._look()

    def set_versions(self, versions: "Versions | None") -> None:
        self.versions = versions if versions is not None and versions.count > 1 else None
        self._look()

    def set_ending(self, ending: "Ending | None") -> None:
        self.ending = ending
        self._look()

    def _look(self) -> None:
        revealed = self._revealed()
        for name, b in self.buttons.items():
            # Continue shows with "Cut off" or "Stopped" even when the bubble is not hovered: it is why they are there.
            b.setVisible(name in self.offered and (revealed or name == "continue"))
        stepping = self.versions is not None
        for w in (self.older, self.shown, self.newer):
            w.setVisible(stepping)
        if self.versions is not None:
            v, step = self.versions, "step" in self.offered
            self.shown.setText(f"{v.shown + 1}/{v.count}")
            self.shown.setAccessibleName(f"Version {v.shown + 1} of {v.count}")
            self.older.setEnabled(step and v.shown > 0)
            self.newer.setEnabled(step and v.shown < v.count - 1)
        self.ended.setText(ENDED.get(self.ending.value, "") if self.ending is not None else "")
        self.ended.setVisible(self.ending is not None)

    def _revealed(self) -> bool:
        if self.editor is not None:
            return False
        focused = QGuiApplication.focusObject()
        return self.bubble.underMouse() or focused is self.bubble or focused in self.buttons.values()

    def look_again(self) -> None:
        """The pointer entered or left the bubble, or the focus moved to or from it or a button: its buttons show
        or hide once it has (after this event)."""
        QTimer.singleShot(0, self, self._look)

    def menu(self) -> QMenu:
        """The bubble's right-click menu: a selection's copy, and the actions it offers."""
        menu = QMenu(self.bubble)
        if self.label.hasSelectedText():
            selected = self.label.selectedText()
            menu.addAction("Copy selection", lambda: QGuiApplication.clipboard().setText(selected))
        for name, _, accessible in ACTIONS:
            if name in self.offered:
                menu.addAction(accessible, self._asking(name))
        return menu

    def _asking(self, name: str) -> Callable[[], None]:
        return lambda: self.asked.emit(name)

    # ---- editing in place ---------------------------------------------------------------------------------

    def edit(self, text: str, send: Callable[[str], None]) -> "Editor":
        """The message's `text` in an editor in place of it; `send(text)` when the person sends it again."""
        self.editor = Editor(text)
        layout = self.bubble.layout()
        assert isinstance(layout, QVBoxLayout)  # Bubble's
        layout.insertWidget(layout.indexOf(self.label) + 1, self.editor)
        self.label.hide()

        def close() -> None:
            if self.editor is not None:
                self.editor.deleteLater()
                self.editor = None
            self.label.show()
            self._look()

        def sent(text: str) -> None:
            close()
            send(text)

        self.editor.sent.connect(sent)
        self.editor.cancelled.connect(close)
        self.editor.box.setFocus()
        self._look()
        return self.editor


_followed: list[QApplication] = []  # the application whose focus changes the rows follow, once connected


def _follow_focus() -> None:
    app = QApplication.instance()
    if isinstance(app, QApplication) and app not in _followed:
        _followed[:] = [app]
        app.focusChanged.connect(_focus_moved)


def _focus_moved(old: QWidget | None, new: QWidget | None) -> None:
    for widget in (old, new):
        row = widget.parent() if isinstance(widget, QToolButton) else getattr(widget, "action_row", None)
        if isinstance(row, MessageActions):
            row.look_again()


class Editor(QWidget):
    """A message being edited: Enter (or the button) sends it again, Esc (the window's: Actions.escape) or the
    button leaves it as it was."""

    sent = Signal(str)
    cancelled = Signal()

    def __init__(self, text: str):
        super().__init__()
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        self.box = QPlainTextEdit(text)
        self.box.setAccessibleName("Edited message")
        self.box.setMaximumHeight(110)
        self.box.installEventFilter(self)
        col.addWidget(self.box)
        row = QHBoxLayout()
        row.addStretch(1)
        self.send = QPushButton("Send again")
        self.send.setAccessibleName("Send the edited message again")
        self.send.clicked.connect(self._send)
        self.cancel = QPushButton("Cancel")
        self.cancel.setAccessibleName("Cancel editing")
        self.cancel.clicked.connect(self.cancelled.emit)
        row.addWidget(self.cancel)
        row.addWidget(self.send)
        col.addLayout(row)

    def _send(self) -> None:
        text = self.box.toPlainText().strip()
        if text:
            self.sent.emit(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress:
            key, shift = event.key(), event.modifiers() & Qt.KeyboardModifier.ShiftModifier  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not shift:
                self._send()
                return True
        return False


class Actions(QObject):
    """What the actions of the window's bubbles do, through the companion, never on the UI thread."""

    def __init__(self, window: Window):
        super().__init__(window)
        self.window = window
        window.transcript.action_asked.connect(self.act)

    @property
    def transcript(self) -> Any:  # the window's Transcript
        return self.window.transcript

    def refresh(self) -> None:
        """Which bubble offers what: editing, making again and stepping act on the last exchange, and on nothing
        while a reply is under way."""
        bubbles = self.transcript.bubbles
        busy = self.window.worker is not None or self.window.companion is None
        stored = [b for b in bubbles if b.message_id is not None]
        last_user: Any = next((b for b in reversed(stored) if b.role == "user"), None)
        last: Any = stored[-1] if stored else None
        last_reply: Any = last if last is not None and last.role == "companion" and last_user is not None else None
        for b in bubbles:
            offered = {"copy"} if b.text else set()
            if b.message_id is not None and not busy:
                offered.add("delete")
                if b is last_user and b.words_id is not None:
                    offered |= {"edit", "step"}
                if b is last_reply:
                    offered |= {"regenerate", "step"} | ({"continue"} if b.action_row.ending is not None else set())
            b.action_row.offer(offered)

    def escape(self) -> None:
        """Esc with no reply under way: a message being edited is left as it was."""
        for b in self.transcript.bubbles:
            if b.action_row.editor is not None:
                b.action_row.editor.cancelled.emit()

    def replied(self, bubble: Bubble | None, turn: object) -> None:
        """A reply ended: how, when not by itself (the person stopped it, or it reached its limit)."""
        if bubble is not None:
            bubble.action_row.set_ending(getattr(turn, "ending", None))
        self.refresh()

    def act(self, bubble: Bubble, what: str) -> None:
        companion = self.window.companion
        if what == "copy":
            QGuiApplication.clipboard().setText(bubble.text)
            return
        if companion is None or self.window.worker is not None or bubble.message_id is None:
            return
        if what == "edit":
            bubble.action_row.edit(bubble.text, lambda text: self.resend(bubble, text))
        elif what == "regenerate":
            self.regenerate(bubble)
        elif what == "continue":
            reply_id = bubble.message_id
            self.window.run_again(
                lambda cancel: companion.continue_reply(reply_id, cancel), bubble, reply=bubble, then=self.reread
            )
        elif what == "delete":
            self.delete(bubble)
        elif what in ("older", "newer") and bubble.action_row.versions is not None:
            self.step(bubble, bubble.action_row.versions.shown + (1 if what == "newer" else -1))

    def _answered(self, reply: Bubble) -> Bubble | None:
        at = self.transcript.bubbles.index(reply)
        return next((b for b in reversed(self.transcript.bubbles[:at]) if b.role == "user"), None)

    def regenerate(self, reply: Bubble) -> None:
        companion, reply_id, answered = self.window.companion, reply.message_id, self._answered(reply)
        assert companion is not None and reply_id is not None  # act
        self.transcript.withdraw([reply])
        self.window.run_again(lambda cancel: companion.regenerate(reply_id, cancel), answered, then=self.reread)

    def resend(self, sent: Bubble, text: str) -> None:
        """The person's last message, edited, goes again: in place of it and its reply, until the history is read
        again with both versions."""
        companion, message_id = self.window.companion, sent.words_id
        assert companion is not None and message_id is not None  # refresh offered it
        at = self.transcript.bubbles.index(sent)
        self.transcript.withdraw(self.transcript.bubbles[at:])
        bubble = self.transcript.add("user", text)
        self.window.run_again(
            lambda cancel: companion.edit_and_resend(message_id, text, cancel), bubble, then=self.reread
        )

    def step(self, bubble: Bubble, index: int) -> None:
        companion, message_id = self.window.companion, bubble.message_id
        assert companion is not None and message_id is not None  # act
        tasks.run(
            lambda: companion.choose_branch(message_id, index),
            lambda _: self.reread(),
            lambda e: errors.show(self.window, e),
            self.window,
        )

    def delete(self, bubble: Bubble) -> None:
        """Forget the message, everywhere, once the person has said yes."""
        companion, message_id = self.window.companion, bubble.message_id
        assert companion is not None and message_id is not None  # act
        shown = bubble.text if len(bubble.text) <= 80 else bubble.text[:80] + "…"
        answer = QMessageBox.question(
            self.window,
            "Delete this message?",
            f"“{shown}”\n\nYour companion will forget this message completely: it is removed from its memory, "
            "and cannot be brought back.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return

        def gone(forgotten) -> None:
            self.window.forgotten(forgotten)
            self.reread()

        tasks.run(
            lambda: companion.forget("message", message_id), gone, lambda e: errors.show(self.window, e), self.window
        )

    def reread(self) -> None:
        """The history read again, with the versions and endings the soul now holds."""
        self.window.show_history(same_soul=True)
