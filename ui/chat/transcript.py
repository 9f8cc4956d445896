"""The conversation as it is read: Markdown-rendered bubbles, the newest streaming in, older ones loaded on scroll.

Rendering never fetches anything: a bubble is a QLabel, whose document loads no
remote resource, and a reply is shown as the core stores it (remote images and
links carrying data removed, conversation/outward.py), while it streams too.
Text from outside sent with a message is shown apart from the person's words,
as plain text (chat/attachments.py).
"""

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QTextDocument
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QPushButton, QScrollArea, QVBoxLayout, QWidget

from anima.trust.text import clean

from .. import theme
from ..slices import Slices
from .attachments import OutsideText
from .empty_state import EmptyState
from .message_actions import MessageActions
from .meta import Avatar, when

if TYPE_CHECKING:  # the conversation room is imported off the UI thread after the first paint (app.prepare)
    from .rich_text import Rendered


class Wrapped(QLabel):
    """A word-wrapped label that remembers its height at each width. Laying out the transcript asks each label
    for its height again and again (22 times each, at 5 widths, while a page of 30 opened), and each answer
    shapes its whole text anew: ~100 of the ~150 ms the window stalled then. The text or its font changing
    forgets the heights."""

    def __init__(self):
        super().__init__()
        self._heights: dict[int, int] = {}
        self._natural: int | None = None

    def setText(self, text: str) -> None:
        if text == self.text():  # (a streaming reply's finished paragraphs, most frames: its heights still hold)
            return
        self._heights.clear()
        self._natural = None
        super().setText(text)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def natural_width(self) -> int:
        """The width its text takes on one line a paragraph (its widest line, unwrapped): a short message's
        bubble is no wider than that. Shaped once a text."""
        if self._natural is None:
            doc = QTextDocument()
            doc.setDocumentMargin(0)
            doc.setDefaultFont(self.font())
            doc.setHtml(self.text())
            self._natural = int(doc.idealWidth()) + 8  # (what the label's own layout adds, and a pixel to spare)
        return self._natural

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
            self._natural = None
        super().changeEvent(event)


MARGIN = 16  # the column's, each side
COLUMN = 920  # on a wide window the conversation is a column this wide, centred: the eye need not cross it all
WIDEST = 720  # a bubble's most pixels: ~70 characters a line, as long a line as reads well
PADDING = 14  # inside a bubble, each side
INDENT = Avatar.SIZE + 8  # the companion's bubbles start past its avatar
LONG = 280  # characters: a message this long fills its bubble's width, not worth measuring


class Bubble(QFrame):
    """One message: its sender and time above it, and the bubble, on the right for the person and on the left,
    past the companion's avatar, for the companion, no wider than reads well (fit)."""

    def __init__(
        self,
        role: str,
        text: str,
        message_id: int | None,
        parent=None,
        outside: Sequence[tuple[str, str]] = (),
        created_at: str | None = None,
        name: str | None = None,
    ):
        super().__init__(parent)
        self.role, self.message_id, self.text = role, message_id, text
        self.words_id = message_id  # its own words' (message_id is its first shown id: its words', else an outside's)
        self.unsaved: QLabel | None = None  # the note on a reply that was not saved
        self.created_at = created_at
        self.rendered: Rendered  # (set_text)
        self.tail: Wrapped | None = None  # while it streams: the paragraph being written (stream)
        self.setObjectName("bubble-" + role)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 6, 0, 6)
        outer.setSpacing(4)
        mine = role == "user"
        name = name if name is not None else ("You" if mine else "Anima")
        self.meta = QLabel(self._meta_text(name))
        self.meta.setObjectName("bubble-meta")
        self.avatar = None if mine else Avatar(name)  # the person's messages have none
        header = QHBoxLayout()
        header.setSpacing(8)
        if mine:
            header.addStretch(1)
        if self.avatar is not None:
            header.addWidget(self.avatar)
        header.addWidget(self.meta)
        if not mine:
            header.addStretch(1)
        outer.addLayout(header)
        self.body = QFrame()
        self.body.setObjectName("bubble-body")
        self.body.setProperty("role", role)
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(PADDING, 9, PADDING, 9)
        layout.setSpacing(6)
        row = QHBoxLayout()
        if mine:
            row.addStretch(1)
        else:
            row.addSpacing(INDENT)
        row.addWidget(self.body)
        if not mine:
            row.addStretch(1)
        outer.addLayout(row)
        self.label = self._text_label()
        layout.addWidget(self.label)
        self.outside: list[OutsideText] = []
        for label, body in outside:  # (its label, its text): what was sent with the message from outside
            self.outside.append(OutsideText(label, body))
            layout.addWidget(self.outside[-1])
        self.why = QPushButton("Why?")
        self.why.setObjectName("why")
        self.why.setFlat(True)
        self.why.setToolTip("What your companion recalled and weighed for this reply")
        layout.addWidget(self.why, alignment=Qt.AlignmentFlag.AlignRight)
        self.why.setVisible(role == "companion" and message_id is not None)
        self._why_width = 0  # its width, asked once (fit)
        self._room = WIDEST + INDENT  # the width the transcript gives it (fit)
        # Copy, edit, regenerate, continue, delete; ‹ 1/2 › (message_actions.py): under the bubble, on its side.
        self.action_row = MessageActions(self, role, self.label)
        actions = QHBoxLayout()
        if mine:
            actions.addStretch(1)
        else:
            actions.addSpacing(INDENT)
        actions.addWidget(self.action_row)
        if not mine:
            actions.addStretch(1)
        outer.addLayout(actions)
        self.set_text(text)

    def enterEvent(self, event) -> None:
        self.action_row.look_again()  # hovered: its row's buttons show (chat/message_actions.py)
        super().enterEvent(event)

    def leaveEvent(self, event) -> None:
        self.action_row.look_again()
        super().leaveEvent(event)

    def _text_label(self) -> Wrapped:
        label = Wrapped()
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        label.linkActivated.connect(self._link)
        return label

    def _meta_text(self, name: str) -> str:
        at = when(self.created_at)
        return f"{name}  ·  {at}" if at else name

    def set_name(self, name: str) -> None:
        """Who said it (the companion's name, once known)."""
        self.meta.setText(self._meta_text(name))
        if self.avatar is not None:
            self.avatar.set_name(name)

    def set_text(self, text: str) -> None:
        from .rich_text import render  # when a message is first shown, not before the window's first paint

        self.text = text
        self.rendered = render(text, theme.current())
        if self.tail is not None:  # it has stopped streaming: one label again, the whole text rendered
            self.tail.deleteLater()
            self.tail = None
        self.label.setText(self.rendered.html)
        shown = bool(text) or not self.outside
        if self.label.isHidden() == shown:  # (showing a label styled by the stylesheet polishes it again)
            self.label.setVisible(shown)
        self.fit(self._room)

    def stream(self, text: str) -> None:
        """A reply as it streams: its finished paragraphs in the label, rendered, and the paragraph being written
        in a second label below it, plain (rich_text.growing). Laying a label's text out costs as much as the text
        is long, and the transcript does it at each width it asks about, every frame: the whole reply in one label
        took ~12 ms of the UI thread a frame at 2,600 characters; now only the growing paragraph is laid out."""
        from .rich_text import growing

        self.text = text
        self.rendered, tail = growing(text, theme.current())
        if self.tail is None:
            self.tail = self._text_label()
            layout = self.body.layout()
            assert isinstance(layout, QVBoxLayout)  # set in __init__
            layout.insertWidget(layout.indexOf(self.label) + 1, self.tail)
        for label, html in ((self.label, self.rendered.html), (self.tail, tail.html)):
            label.setText(html)
            if label.isHidden() == bool(html):
                label.setVisible(bool(html))
        self.fit(self._room)

    def restyle(self) -> None:
        """The theme changed: the text's colours (its code's) are in its HTML."""
        self.set_text(self.text)

    def fit(self, room: int) -> None:
        """Size the bubble for a transcript `room` pixels wide: as wide as its text, at most WIDEST and a little
        less than the room, and never wider than the room (a long word or line wraps inside it)."""
        self._room = room
        indent = 0 if self.role == "user" else INDENT
        most = max(120, min(WIDEST, room - indent - (48 if room > 560 else 8)))
        if self.outside or self.rendered.code or len(self.text) > LONG or "<table" in self.rendered.html:
            width = most
        else:
            if not self._why_width:
                self._why_width = self.why.sizeHint().width()
            shown = [w.natural_width() for w in (self.label, self.tail) if w is not None and not w.isHidden()]
            width = min(most, max([*shown, self._why_width]) + 2 * PADDING)
        if self.body.minimumWidth() != width or self.body.maximumWidth() != width:
            self.body.setFixedWidth(width)

    def _link(self, href: str) -> None:
        """A code block's Copy link copies exactly its code; no other link is followed from a message."""
        from .rich_text import COPY

        if href.startswith(COPY):
            index = int(href[len(COPY) :])
            if 0 <= index < len(self.rendered.code):
                QGuiApplication.clipboard().setText(self.rendered.code[index])
                window = self.window()
                if isinstance(window, QMainWindow):
                    window.statusBar().showMessage("Code copied", 2000)

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
        from anima.conversation.turn import NOT_KEPT

        note = QLabel(NOT_KEPT)
        note.setObjectName("unsaved")
        note.setWordWrap(True)
        layout = self.body.layout()
        assert layout is not None  # set in __init__
        layout.addWidget(note)
        note.show()  # now, not on a later turn of the event loop (a child added to a shown bubble waits for one)
        self.unsaved = note


# Keys that move the view: the reader reading back, no longer at the newest.
_SCROLL_KEYS = (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home, Qt.Key.Key_End)


class Transcript(QScrollArea):
    wants_older = Signal(int)  # the id of the oldest shown message
    why_asked = Signal(int)  # a reply's message id
    opener_chosen = Signal(str)  # an opener of the empty state, for the message box
    action_asked = Signal(object, str)  # a bubble, and what its row asked (chat/message_actions.py)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        # Never wider than the window: bubbles fit the width (a long word or line wraps inside its bubble).
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        inner.setObjectName("transcript-column")
        self.column = QVBoxLayout(inner)
        self.column.setContentsMargins(MARGIN, 8, MARGIN, 12)
        self.column.addStretch(1)
        # A new conversation: who the companion is and a few openers, instead of a blank area.
        self.empty = EmptyState()
        self.empty.chosen.connect(self.opener_chosen)
        self.empty.hide()
        self.column.addWidget(self.empty, 1)  # all the height, when shown: its openers sit near the middle
        self.setWidget(inner)
        self.names = {"user": "You", "companion": "Anima"}
        theme.looks().changed.connect(self._restyle)
        QGuiApplication.clipboard().dataChanged.connect(self._copied)
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
        self._placing: Slices | None = None  # a page of history being placed (prepend)
        # Ids forgotten in this soul (they never come back): a message forgotten before its bubble learnt its ids,
        # while its reply was being prepared, still goes the moment they are known.
        self.forgotten: set[int] = set()

    def clear(self, keep=()) -> None:
        """Another soul is shown: nothing of the last one stays but `keep`, bubbles of messages still to be sent."""
        placing, self._placing = self._placing, None
        if placing is not None:  # a page of the last one, still being placed: no more of it
            placing.stop()
            self.loading_older = False
        self.withdraw([b for b in self.bubbles if b not in keep])
        self.all_loaded = False
        self.forgotten = set()
        self._show_empty()

    def set_names(self, name: str) -> None:
        """The companion's name, on its messages and in the empty state."""
        self.names["companion"] = name
        self.empty.set_name(name)
        for b in self.bubbles:
            if b.role == "companion":
                b.set_name(name)

    def room(self) -> int:
        """The width bubbles have: the viewport's, less the column's margins, at most COLUMN (centred)."""
        return max(0, min(COLUMN, self.viewport().width() - 2 * MARGIN))

    def resizeEvent(self, event) -> None:
        room = self.room()
        side = max(MARGIN, (self.viewport().width() - room) // 2)
        self.column.setContentsMargins(side, 8, side, 12)
        for b in self.bubbles:
            b.fit(room)
        super().resizeEvent(event)

    def _copied(self) -> None:
        """Text copied from a bubble loses the unseen breaks its long words were given (rich_text.BREAK_EVERY):
        what is pasted elsewhere is what was written."""
        clipboard = QGuiApplication.clipboard()
        text = clipboard.text()
        ours = clipboard.ownsClipboard() or any(b.label.hasSelectedText() for b in self.bubbles)
        if "\u200b" in text and ours:  # (another program's text is left as it is)
            clipboard.setText(text.replace("\u200b", ""))

    def _restyle(self, _theme) -> None:
        for b in self.bubbles:
            b.restyle()

    def _show_empty(self) -> None:
        """The empty state, while a conversation has no message and its whole history has been read."""
        empty = not self.bubbles and self.all_loaded
        if empty != self.empty.isVisibleTo(self):
            self.empty.setVisible(empty)
            self.column.setStretch(0, 0 if empty else 1)

    def add(
        self,
        role: str,
        text: str,
        message_id: int | None = None,
        at_top: bool = False,
        outside: Sequence[tuple[str, str]] = (),
        at: int | None = None,
        follow: bool = True,
        created_at: str | None = None,
    ) -> Bubble:
        """A bubble at the bottom, or at the top (older history), or before the `at`-th shown bubble. The view
        follows it to the bottom (`follow`, never for older history). `created_at`: when it was said (None: now)."""
        b = Bubble(role, text, message_id, outside=outside, created_at=created_at, name=self.names.get(role))
        b.fit(self.room())

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
        self._show_empty()
        if follow and not at_top:
            self._anchor = 0
            self._to_bottom()
        return b

    def _to_bottom(self) -> None:
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def _reanchor(self, _min: int, maximum: int) -> None:
        if self._anchor is not None:
            self.verticalScrollBar().setValue(maximum - self._anchor)

    def prepend(self, messages: list[dict], then: Callable[[], None] | None = None) -> None:
        """Older history, newest last, above what is shown; the view stays where the reader was.

        A message whose "outside" is its provenance (text from outside) joins the message it was sent with. With
        `then`, placed a few bubbles at a time (ui/slices.py: the window paints and takes input meanwhile), then
        `then()`, also when the transcript was cleared before all were placed."""
        bar = self.verticalScrollBar()
        self._anchor = bar.maximum() - bar.value()
        groups = list(reversed(self._grouped(messages)))

        def placed() -> None:
            self.all_loaded = not messages
            self.loading_older = False
            self._show_empty()

        if then is None:
            for m, sent_with in groups:
                self._place(m, sent_with, at_top=True)
            placed()
            return

        def ended() -> None:
            if self._placing is placing:
                self._placing = None
                placed()
            then()

        self.loading_older = True  # (no older page is asked for before this one is all placed)
        self._placing = placing = Slices(groups, lambda group: self._place(*group, at_top=True), ended, self)
        placing.start()

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
            created_at=first.get("created_at"),
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
        from anima.conversation.outward import safe_reply

        if self.streaming is not None:
            self.streaming.stream(safe_reply(self._pending) or "…")
            bar = self.verticalScrollBar()
            bar.setValue(bar.maximum())

    def end_reply(self, message_id: int | None, text: str | None = None) -> None:
        """The reply ended; `text` is the reply as the core stored it, which the bubble then shows (else what
        streamed), rendered whole."""
        from anima.conversation.outward import safe_reply

        self._flush.stop()
        if self.streaming is not None:
            self.streaming.set_text((text if text is not None else safe_reply(self._pending)) or "…")
            bar = self.verticalScrollBar()
            bar.setValue(bar.maximum())
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
        self._show_empty()

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

    def wheelEvent(self, event) -> None:
        self._anchor = None  # the reader is scrolling: stop pinning the view
        super().wheelEvent(event)

    def keyPressEvent(self, event) -> None:
        if event.key() in _SCROLL_KEYS:
            self._anchor = None
        super().keyPressEvent(event)

    def _scrolled(self, value: int) -> None:
        # The reader drags the bar (a wheel or a key: above). Not "the mouse is over it": a bubble growing after
        # it was laid out (its row of actions) moves the bar too, and the view then stayed short of the newest.
        if self.verticalScrollBar().isSliderDown():
            self._anchor = None
        if value == 0 and not self.loading_older and not self.all_loaded and self.oldest_id() is not None:
            self.loading_older = True
            self.wants_older.emit(self.oldest_id())
