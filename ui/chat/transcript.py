"""The conversation as it is read: Markdown-rendered bubbles, the newest streaming in, older ones loaded on scroll.

Rendering never fetches anything: a bubble is a QLabel, whose document loads no
remote resource, and a reply is shown as the core stores it (remote images and
links carrying data removed, conversation/outward.py), while it streams too.
Text from outside sent with a message is shown apart from the person's words,
as plain text (chat/attachments.py).
"""

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from anima.conversation.outward import safe_reply
from anima.conversation.turn import NOT_KEPT
from anima.trust.text import clean

from .attachments import OutsideText
from .message_actions import MessageActions


class Wrapped(QLabel):
    """A word-wrapped label that remembers its height at each width. Laying out the transcript asks each label
    for its height again and again (22 times each, at 5 widths, while a page of 30 opened), and each answer
    shapes its whole text anew: ~100 of the ~150 ms the window stalled then. The text or its font changing
    forgets the heights."""

    def __init__(self):
        super().__init__()
        self._heights: dict[int, int] = {}

    def setText(self, text: str) -> None:
        self._heights.clear()
        super().setText(text)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)


class Bubble(QFrame):
    def __init__(
        self, role: str, text: str, message_id: int | None, parent=None, outside: Sequence[tuple[str, str]] = ()
    ):
        super().__init__(parent)
        self.role, self.message_id, self.text = role, message_id, text
        self.words_id = message_id  # its own words' (message_id is its first shown id: its words', else an outside's)
        self.unsaved: QLabel | None = None  # the note on a reply that was not saved
        self.setObjectName("bubble-" + role)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        if role == "user":
            self.setStyleSheet("QFrame#bubble-user { background: palette(alternate-base); }")
        layout = QVBoxLayout(self)
        self.label = Wrapped()
        self.label.setTextFormat(Qt.TextFormat.MarkdownText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        layout.addWidget(self.label)
        self.outside: list[OutsideText] = []
        for label, body in outside:  # (its label, its text): what was sent with the message from outside
            self.outside.append(OutsideText(label, body))
            layout.addWidget(self.outside[-1])
        self.why = QPushButton("Why?")
        self.why.setFlat(True)
        self.why.setVisible(role == "companion" and message_id is not None)
        layout.addWidget(self.why, alignment=Qt.AlignmentFlag.AlignRight)
        self.action_row = MessageActions(
            self, role, self.label
        )  # copy, edit, regenerate, continue, delete; ‹ 1/2 › (message_actions.py)
        layout.addWidget(self.action_row)
        self.set_text(text)

    def set_text(self, text: str) -> None:
        self.text = text
        self.label.setText(text)
        self.label.setVisible(bool(text) or not self.outside)

    def set_id(self, message_id: int) -> None:
        self.message_id = self.words_id = message_id
        self.why.setVisible(self.role == "companion")

    def set_ids(self, ids: list[int]) -> None:
        """The ids the core stored a sent message under (Turn.user_ids): the person's words first, when there were
        any, then each text from outside, in order; what cleaned away to nothing was not stored (TurnStream)."""
        ids = list(ids)
        if clean(self.text) and ids:
            self.words_id = ids.pop(0)
        for box, message_id in zip([b for b in self.outside if clean(b.text)], ids, strict=False):
            box.message_id = message_id
        self._first_id()

    def _first_id(self) -> None:
        # What the history pages from and "Why?" asks about: its words, else its first text from outside.
        self.message_id = next(
            (i for i in [self.words_id, *(b.message_id for b in self.outside)] if i is not None), None
        )

    def forget(self, message_ids: set[int]) -> bool:
        """Take off what was forgotten (its words, a text from outside sent with them); True when nothing of it is
        left, so that the bubble goes too. What was not forgotten stays, as the history shows it when reloaded."""
        gone = [b for b in self.outside if b.message_id in message_ids]
        for box in gone:
            self.outside.remove(box)
            box.deleteLater()
        forgot_words = self.words_id in message_ids
        if forgot_words:
            self.words_id = None
            self.set_text("")
        self._first_id()
        return (bool(gone) or forgot_words) and not self.text and not self.outside

    def mark_unsaved(self) -> None:
        """A reply the soul did not keep (the disk filled, say): greyed and said, so it is not taken as kept."""
        self.setObjectName("bubble-unsaved")
        self.label.setStyleSheet("color: palette(placeholder-text);")
        note = QLabel(NOT_KEPT)
        note.setObjectName("unsaved")
        note.setStyleSheet("color: #c0392b; font-style: italic;")
        layout = self.layout()
        assert layout is not None  # set in __init__
        layout.addWidget(note)
        note.show()  # now, not on a later turn of the event loop (a child added to a shown bubble waits for one)
        self.unsaved = note


class Transcript(QScrollArea):
    wants_older = Signal(int)  # the id of the oldest shown message
    why_asked = Signal(int)  # a reply's message id
    action_asked = Signal(object, str)  # a bubble, and what its row asked (chat/message_actions.py)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        inner = QWidget()
        self.column = QVBoxLayout(inner)
        self.column.addStretch(1)
        self.setWidget(inner)
        self.bubbles: list[Bubble] = []
        self.streaming: Bubble | None = None
        self._pending = ""
        self._flush = QTimer(self, interval=50, singleShot=True)  # re-render Markdown at most 20 times a second
        self._flush.timeout.connect(self._render_stream)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        # Where the view should sit once the layout has grown: this many pixels above the bottom.
        self._anchor: int | None = None
        self.verticalScrollBar().rangeChanged.connect(self._reanchor)
        self.loading_older = False
        self.all_loaded = False
        # Ids forgotten in this soul (they never come back): a message forgotten before its bubble learnt its ids,
        # while its reply was being prepared, still goes the moment they are known.
        self.forgotten: set[int] = set()

    def clear(self, keep=()) -> None:
        """Another soul is shown: nothing of the last one stays but `keep`, bubbles of messages still to be sent."""
        self.withdraw([b for b in self.bubbles if b not in keep])
        self.all_loaded = False
        self.forgotten = set()

    def add(
        self,
        role: str,
        text: str,
        message_id: int | None = None,
        at_top: bool = False,
        outside: Sequence[tuple[str, str]] = (),
        at: int | None = None,
        follow: bool = True,
    ) -> Bubble:
        """A bubble at the bottom, or at the top (older history), or before the `at`-th shown bubble. The view
        follows it to the bottom (`follow`, never for older history)."""
        b = Bubble(role, text, message_id, outside=outside)

        def why() -> None:
            if b.message_id is not None:
                self.why_asked.emit(b.message_id)

        b.why.clicked.connect(why)
        b.action_row.asked.connect(lambda what: self.action_asked.emit(b, what))
        at = 0 if at_top else len(self.bubbles) if at is None else at
        if at < len(self.bubbles):  # by the neighbour's place: a withdrawn bubble may still be in the column
            self.column.insertWidget(self.column.indexOf(self.bubbles[at]), b)
        else:
            self.column.addWidget(b)
        self.bubbles.insert(at, b)
        if follow and not at_top:
            self._anchor = 0
            self._to_bottom()
        return b

    def _to_bottom(self) -> None:
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def _reanchor(self, _min: int, maximum: int) -> None:
        if self._anchor is not None:
            self.verticalScrollBar().setValue(maximum - self._anchor)

    def prepend(self, messages: list[dict]) -> None:
        """Older history, newest last, above what is shown; the view stays where the reader was.

        A message whose "outside" is its provenance (text from outside) joins the message it was sent with."""
        bar = self.verticalScrollBar()
        self._anchor = bar.maximum() - bar.value()
        for m, sent_with in reversed(self._grouped(messages)):
            self._place(m, sent_with, at_top=True)
        self.all_loaded = not messages
        self.loading_older = False

    def older_unread(self) -> None:
        """The older page asked for could not be read: the next scroll to the top asks again."""
        self.loading_older = False

    def said_elsewhere(self, messages: list[dict], waiting: Iterable[Bubble] = ()) -> None:
        """Newer messages another program stored (`anima chat`, another window), oldest first, as Messages.page
        gives them: in the order the soul stores them, among this window's own, above those not stored yet
        (`waiting`: the message being answered, those queued; and the reply under way). A reader scrolled up
        in the history stays where they are."""
        held = {*waiting, self.streaming}
        bar = self.verticalScrollBar()
        follow = bar.value() >= bar.maximum()
        if not follow:
            self._anchor = None  # the view stays where the reader is, not a distance from the growing bottom
        for m, sent_with in self._grouped(messages):
            first = (m or sent_with[0])["id"]
            at = len(self.bubbles)
            while at and (self.bubbles[at - 1] in held or (self.bubbles[at - 1].message_id or 0) > first):
                at -= 1
            self._place(m, sent_with, at=at, follow=follow)

    def _grouped(self, messages: list[dict]) -> list[tuple[dict | None, list[dict]]]:
        """Messages not shown yet, each with the text from outside sent with it (or None: sent with no typed
        words, or with a message not among these)."""
        shown: list[tuple[dict | None, list[dict]]] = []
        on_screen = self.shown_ids()  # a message whose turn ran while the page was read (kept below it) is there
        for m in messages:
            if m["id"] in on_screen:
                continue
            cites = m.get("outside")
            if cites is None:
                shown.append((m, []))
            elif shown and shown[-1][0] is not None and shown[-1][0]["id"] == cites["message_id"]:
                shown[-1][1].append(m)
            else:
                shown.append((None, [m]))
        return shown

    def _place(self, m: dict | None, sent_with: list[dict], **where) -> None:
        """A bubble for a stored message and the text from outside sent with it (none if all of it is forgotten)."""
        first = m or sent_with[0]
        b = self.add(
            first["role"],
            m["content"] if m else "",
            m["id"] if m else None,
            outside=[(o["speaker"], o["content"]) for o in sent_with],
            **where,
        )
        for box, o in zip(b.outside, sent_with, strict=True):  # a box per text from outside
            box.message_id = o["id"]
        if m:
            b.action_row.set_versions(m.get("versions"))
            b.action_row.set_ending(m.get("ending"))
        if b.forget(self.forgotten):  # read as a forget ran: none of what went is shown
            self.withdraw([b])

    def start_reply(self, answering: Bubble | None = None) -> Bubble:
        """The reply's bubble, streaming, right below the bubble of the message it answers: messages typed after
        that one, before it was answered, wait below, and the reply goes between, as the soul stores them."""
        at = self.bubbles.index(answering) + 1 if answering in self.bubbles else None
        self.streaming = self.add("companion", "…", at=at)
        self._pending = ""
        return self.streaming

    def resume_reply(self, bubble: Bubble) -> None:
        """A reply streams on where it stopped (continued): its bubble takes the new text after what it shows."""
        self.streaming, self._pending = bubble, bubble.text + " "

    def piece(self, text: str) -> None:
        self._pending += text
        if not self._flush.isActive():
            self._flush.start()

    def _render_stream(self) -> None:
        if self.streaming is not None:
            self.streaming.set_text(safe_reply(self._pending) or "…")
            bar = self.verticalScrollBar()
            bar.setValue(bar.maximum())

    def end_reply(self, message_id: int | None, text: str | None = None) -> None:
        """The reply ended; `text` is the reply as the core stored it, which the bubble then shows."""
        self._flush.stop()
        self._render_stream()
        if self.streaming is not None and text is not None:
            self.streaming.set_text(text or "…")
        if self.streaming is not None and message_id is not None:
            self.streaming.set_id(message_id)
        self.streaming = None

    def withdraw(self, bubbles: list) -> None:
        """Take bubbles out again: a message that was not saved (a full disk) goes back to the box, not here; one
        that was forgotten is gone."""
        for b in bubbles:
            if b in self.bubbles:
                self.bubbles.remove(b)
                b.deleteLater()
            if b is self.streaming:
                self.streaming = None

    def recorded(self, bubble: Bubble, ids: list[int]) -> None:
        """A sent message was stored: its bubble learns the ids, so that forgetting it (or what was sent with it)
        takes it off the screen, at once if that forget came first."""
        if bubble in self.bubbles:
            bubble.set_ids(ids)
            self.forget(set())

    def forget(self, message_ids: set[int]) -> None:
        """Messages forgotten (in the Open Mind): nothing of them stays on screen, a text from outside shown in
        the bubble of the message it was sent with included; a bubble left with nothing goes."""
        self.forgotten |= message_ids
        self.withdraw([b for b in self.bubbles if b.forget(self.forgotten)])

    def shown_ids(self) -> set[int]:
        """The ids of every message on screen: the person's words, the companion's, texts from outside."""
        return {i for b in self.bubbles for i in (b.words_id, *(box.message_id for box in b.outside)) if i is not None}

    def oldest_id(self) -> int | None:
        ids = [b.message_id for b in self.bubbles if b.message_id is not None]
        return min(ids) if ids else None

    def _scrolled(self, value: int) -> None:
        if self.verticalScrollBar().isSliderDown() or self.underMouse():
            self._anchor = None  # the reader is scrolling: stop pinning the view
        if value == 0 and not self.loading_older and not self.all_loaded and self.oldest_id() is not None:
            self.loading_older = True
            self.wants_older.emit(self.oldest_id())
