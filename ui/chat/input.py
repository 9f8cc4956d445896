"""The message box: Enter sends, Shift+Enter starts a new line, Tab moves on to the next control (as everywhere
else in the window: a person on the keyboard must be able to leave it); text from outside waits beside it as
attachments.

A paste of more than one line, and a file dropped on the box or attached, do not join the typed text: each
becomes an attachment (chat/attachments.py) that is sent with it, marked as text from outside.
"""

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy

from anima.errors import KnownError

if TYPE_CHECKING:  # the core is imported off the UI thread after the first paint (app.prepare), not before it
    from anima.knowledge.messages import External

from .. import errors
from .attachments import AttachmentBar, is_outside_paste

# What the keys do in the message box, declared once: the shortcut sheet (help.py) shows these.
KEYS = (
    ("Enter", "Send the message"),
    ("Shift+Enter", "A new line"),
    ("Tab, Shift+Tab", "The next control, the one before"),
)


class MessageBox(QPlainTextEdit):
    send = Signal(str, list)  # the typed text, and the attachments (External) sent with it
    drafted = Signal(str)  # typing paused on this text: the companion may read along

    PAUSE_MS = 400

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText("Write a message…")
        # The rest of what the box does, where a pointer resting on it finds it (a placeholder of two lines was
        # cut at its third beside the Open Mind): Shift+Enter, and what a paste or a drop becomes.
        self.setToolTip(
            "Enter sends; Shift+Enter starts a new line. Pasted lines and dropped files are attached as text "
            "from outside."
        )
        self.setObjectName("message-box")
        # As tall as what is typed, from two lines (the placeholder's) to eight, as chat apps' boxes are.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().contentsChanged.connect(self._fit_height)
        self._fit_height()
        self.setAccessibleName("Message")
        self.setTabChangesFocus(True)
        self.attachments = AttachmentBar()  # placed by the window, above the box
        self.pause = QTimer(self, singleShot=True, interval=self.PAUSE_MS)
        self.pause.timeout.connect(self._paused)
        self.textChanged.connect(self.pause.start)
        self.textChanged.connect(self._measure)

    def _fit_height(self) -> None:
        lines = int(self.document().size().height())
        if self.document().isEmpty():  # the placeholder's lines, at this width
            # The frame's inside, not viewport(): empty, the box shows no scroll bar, so they are as wide, and
            # PySide's first viewport() looks up the type of what it returns (33 Qt enum types made, ~4 ms of the
            # ~190 ms to the first painted window).
            width = max(1, self.contentsRect().width() - 2 * int(self.document().documentMargin()))
            wrap = Qt.TextFlag.TextWordWrap
            lines = self.fontMetrics().boundingRect(0, 0, width, 10_000, wrap, self.placeholderText()).height()
            lines //= self.fontMetrics().lineSpacing()
        lines = min(8, max(2, lines))
        margins = self.contentsMargins().top() + self.contentsMargins().bottom()
        height = lines * self.fontMetrics().lineSpacing() + 2 * int(self.document().documentMargin()) + margins + 4
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()  # wrapped lines change with the width

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_height()

    def _measure(self) -> None:
        """Past the length one typed message may have (TYPED_MOST), the bar above says so while it is typed, not
        only when Enter is pressed; nothing is cut. characterCount is kept by the document: no copy per key."""
        from anima.knowledge.messages import TYPED_MOST, MessageTooLong  # (the core: after the first paint)

        length = self.document().characterCount() - 1  # the document's closing paragraph separator
        self.attachments.say(str(MessageTooLong(length)) if length > TYPED_MOST else "")

    def _paused(self) -> None:
        text = self.toPlainText().strip()
        if text:
            self.drafted.emit(text)

    def keyPressEvent(self, event):
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submit()
            return
        super().keyPressEvent(event)

    def submit(self) -> bool:
        """Send what is typed and attached, as Enter does; False when there is nothing to send."""
        text, external = self.toPlainText().strip(), self.attachments.items()
        if not (text or external):
            return False
        from anima.knowledge.messages import TYPED_MOST, MessageTooLong

        if len(text) > TYPED_MOST:  # refused here, with words, and kept in the box: no dialog, nothing lost
            self.attachments.say(str(MessageTooLong(len(text))))
            return False
        self.clear()
        self.attachments.clear()
        self.pause.stop()
        self.send.emit(text, external)
        return True

    def start_with(self, text: str) -> None:
        """An opener chosen: in the box, to send as it is or to change first."""
        self.setPlainText(text)
        self.moveCursor(self.textCursor().MoveOperation.End)
        self.setFocus()

    def give_back(self, text: str, external: list["External"]) -> None:
        """A message that could not be saved comes back to the box, before whatever was typed since."""
        typed = self.toPlainText().strip()
        self.setPlainText(text + (f"\n{typed}" if typed else ""))
        for e in external:
            self.attachments.add(e)
        self.moveCursor(self.textCursor().MoveOperation.End)

    # ---- text from outside -----------------------------------------------------

    def canInsertFromMimeData(self, source) -> bool:
        return any(u.isLocalFile() for u in source.urls()) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source) -> None:
        """A paste or a drop: local files and text of more than one line become attachments."""
        from anima.knowledge.messages import External
        from anima.store.provenance import Source

        files = [u.toLocalFile() for u in source.urls() if u.isLocalFile()]
        if files:
            for path in files:
                self.attach_file(path)
        elif source.hasText() and is_outside_paste(source.text()):
            self.attachments.add(External(Source.PASTED, source.text()))
        else:
            super().insertFromMimeData(source)

    def attach_file(self, path: str) -> None:
        from anima.knowledge.messages import attached_file

        try:
            external = attached_file(path)
        except KnownError as e:
            errors.show(self, e)
        else:
            self.attachments.add(external)
