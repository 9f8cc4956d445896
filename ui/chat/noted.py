"""The quiet cue under a reply when the turn taught the companion something (issue 39, part 5): "Noted: has a cat
called Miso · Undo · Open", or "Waiting for your OK: ... · Open". Undo forgets what was learned (through the
Companion); Open shows it in the Open Mind. It sits beside the reply's bubble, never inside it.

What was learned is known only once learning from the turn is done (in the background): the cue is asked for off
the UI thread and placed when the answer comes.
"""

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel

from .. import errors, tasks


class NotedCue(QLabel):
    """The cue's words and its two links; `undo` and `open_item` say which was clicked."""

    undo = Signal()
    open_item = Signal()

    def __init__(self, items: list, parent=None):
        from anima.conversation.noted import cue  # a cue shows after a turn: the core is imported by then

        super().__init__(parent)
        self.items = items
        self.setObjectName("noted")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setStyleSheet("QLabel#noted { color: palette(placeholder-text); font-size: 11px; margin: 0 12px; }")
        links = ['<a href="open">Open</a>']
        if any(not n.waiting for n in items):
            links.insert(0, '<a href="undo">Undo</a>')
        self.setText(f"{escape(cue(items))} · {' · '.join(links)}")
        self.linkActivated.connect(lambda href: (self.undo if href == "undo" else self.open_item).emit())

    def undone(self) -> None:
        from anima.conversation.noted import cue

        self.items = [n for n in self.items if n.waiting]
        self.setText("Undone: forgotten." if not self.items else f"Undone. {escape(cue(self.items))}")


def follow(window, turn, bubble) -> None:
    """Ask, off the UI thread, what `turn` taught; place the cue under `bubble` (the reply) in the window's
    transcript when there is anything to say."""
    companion = window.companion
    if companion is None or turn.reply_id is None or bubble is None:
        return
    ids = list(turn.user_ids)
    tasks.run(
        lambda: companion.noted(ids),
        lambda items: _place(window, bubble, items),
        lambda e: errors.show(window, e),
        bubble,
    )


def _place(window, bubble, items: list) -> None:
    if not items:
        return
    column = window.transcript.column
    at = column.indexOf(bubble)
    if at < 0:
        return  # the reply left the transcript meanwhile (forgotten)
    shown = NotedCue(items)
    column.insertWidget(at + 1, shown)
    companion = window.companion

    def undo() -> None:
        learned = [n for n in shown.items if not n.waiting]

        def done(gone: list) -> None:
            shown.undone()
            for each in gone:
                window.forgotten(each)  # what went with it leaves the transcript too

        tasks.run(
            lambda: [companion.forget(n.kind, n.item_id) for n in learned],
            done,
            lambda e: errors.show(window, e),
            shown,
        )

    def open_item() -> None:
        if any(n.waiting for n in shown.items):
            window.show_proposals()
        elif window.mind is not None:
            window.mind.show()
            window.mind.open_view("Memories")

    shown.undo.connect(undo)
    shown.open_item.connect(open_item)
