"""The window's menus, declared once: each item's menu, title, shortcut and what it does.

An item runs a window method by its name, or a function of the window. A method the window does not have (yet:
other parts of the app add theirs) leaves its item out rather than showing one that does nothing. The shortcut
sheet (help.py) reads its keys from this same list, so it cannot say a key the menus do not have.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget


@dataclass(frozen=True)
class Item:
    title: str  # with its & accelerator
    run: "str | Callable[[QMainWindow], None]"  # a window method's name, or a function of the window
    shortcut: QKeySequence.StandardKey | str | None = None
    tip: str = ""
    args: tuple = ()  # passed to a window method
    group: str = ""  # items of one group are choices: one is checked
    submenu: str = ""  # shown in a menu of that title inside its menu

    @property
    def plain(self) -> str:
        """The title as read aloud and in the shortcut sheet: no accelerator mark, no trailing dots."""
        return self.title.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")

    def keys(self) -> str:
        """Its shortcut as this platform writes it ("Ctrl+N"), or ""."""
        if self.shortcut is None:
            return ""
        return QKeySequence(self.shortcut).toString(QKeySequence.SequenceFormat.NativeText)


SEPARATOR = None


def _card(name: str) -> Callable[[QMainWindow], None]:
    """A card command of dialogs/card_import.py, imported when first used (its module is not needed at start)."""

    def run(window: QMainWindow) -> None:
        from .dialogs import card_import

        getattr(card_import, name)(window)

    run.__name__ = name
    return run


def _companions(window: QMainWindow) -> None:
    """The companions in this data folder (dialogs/companions.py), imported when first used."""
    from .dialogs import companions

    companions.choose(window)


def _edit(slot: str) -> Callable[[QMainWindow], None]:
    """An Edit command, for the text field that has the focus (the message box, a field of the Open Mind)."""

    def run(window: QMainWindow) -> None:
        focused = window.focusWidget()  # the window's own, whether or not it is the active window just now
        if focused is not None and callable(getattr(focused, slot, None)):
            getattr(focused, slot)()

    run.__name__ = slot
    run.keys_of_focused = True  # type: ignore[attr-defined]
    return run


def _zoom(step: int) -> Callable[[QMainWindow], None]:
    def run(window: QMainWindow) -> None:
        zoom(window, step)

    run.__name__ = f"zoom{step:+d}"
    return run


ZOOM_STEPS = (-3, 6)  # the fewest and most points off the window's first font size


def zoom(window: QWidget, step: int) -> None:
    """The text a point larger (step 1), smaller (-1), or as declared (0), everywhere: the theme's type scale
    (theme.py), which every widget's size comes from."""
    from . import theme

    looks = theme.looks()
    low, high = ZOOM_STEPS
    looks.zoomed(0 if step == 0 else max(low, min(high, looks.zoom + step)))


Std = QKeySequence.StandardKey
MENUS: tuple[tuple[str, tuple[Item | None, ...]], ...] = (
    (
        "&File",
        (
            Item("&New conversation", "new_conversation", "Ctrl+N"),
            SEPARATOR,
            Item("&Import soul…", "import_", "Ctrl+I", "Replace this companion with one exported from Anima"),
            Item("Import character &card…", _card("import_card")),
            Item("Import &lorebook…", _card("import_lorebook")),
            SEPARATOR,
            Item("&Export soul…", "export", "Ctrl+E", "The whole soul in one encrypted file, to carry elsewhere"),
            Item("E&xport character card…", _card("export_card")),
            SEPARATOR,
            Item("Change &passphrase…", "passphrase"),
            Item("&Settings…", "open_settings", "Ctrl+,"),
            SEPARATOR,
            Item("&Quit", "quit_asked", "Ctrl+Q"),
        ),
    ),
    (
        "&Edit",
        (
            Item("&Undo", _edit("undo"), Std.Undo),
            Item("&Redo", _edit("redo"), Std.Redo),
            SEPARATOR,
            Item("Cu&t", _edit("cut"), Std.Cut),
            Item("&Copy", _edit("copy"), Std.Copy),
            Item("&Paste", _edit("paste"), Std.Paste),
            Item("Select &all", _edit("selectAll"), Std.SelectAll),
            SEPARATOR,
            Item("&Find in conversations…", "search_conversations", "Ctrl+K"),
        ),
    ),
    (
        "&View",
        (
            Item("Open &Mind", "toggle_mind", "Ctrl+M", "Read and correct everything your companion holds"),
            Item("&Search my mind…", "search_mind", "Ctrl+Shift+F", "Everything it holds, by words and by meaning"),
            Item("Conversations &sidebar", "toggle_sidebar", "Ctrl+B"),
            SEPARATOR,
            Item("&System", "set_theme", args=("system",), group="theme", submenu="&Theme"),
            Item("&Light", "set_theme", args=("light",), group="theme", submenu="&Theme"),
            Item("&Dark", "set_theme", args=("dark",), group="theme", submenu="&Theme"),
            SEPARATOR,
            Item("Zoom &in", _zoom(1), Std.ZoomIn),
            Item("Zoom &out", _zoom(-1), Std.ZoomOut),
            Item("&Actual size", _zoom(0), "Ctrl+0"),
        ),
    ),
    (
        "&Companion",
        (
            Item("&Reflect now", "reflect_now", None, "Go over what happened between you, now"),
            Item("E&volve my persona", "evolve", None, "Rewrite the persona from what was learned"),
            SEPARATOR,
            Item("Choose the mi&nd…", "choose_mind", None, "A real model instead of the tiny bundled one"),
            Item("&Companions…", _companions, None, "Switch to another companion, or make a new one"),
        ),
    ),
    ("&Help", (Item("&Keyboard shortcuts", "show_shortcuts", "Ctrl+/"), Item("&About Anima", "show_about"))),
)


def items() -> Iterator[tuple[str, Item]]:
    """Every declared item, with its menu's title."""
    for menu, entries in MENUS:
        for entry in entries:
            if entry is not None:
                yield menu, entry


def available(window: object, item: Item) -> bool:
    """Whether the window can do what the item does: a method it has, or a function of it."""
    return not isinstance(item.run, str) or callable(getattr(window, item.run, None))


def build(window: QMainWindow) -> dict[str, QAction]:
    """Fill the window's menu bar; returns its actions by the name of what each runs."""
    actions: dict[str, QAction] = {}
    groups: dict[str, QActionGroup] = {}
    for title, entries in MENUS:
        menu = window.menuBar().addMenu(title)
        menu.setObjectName(title.replace("&", "").lower())
        shown = [entry for entry in entries if entry is None or available(window, entry)]
        submenus: dict[str, QMenu] = {}
        for entry in _tidy(shown):
            if entry is None:
                menu.addSeparator()
                continue
            into = menu
            if entry.submenu:
                if entry.submenu not in submenus:
                    submenus[entry.submenu] = menu.addMenu(entry.submenu)
                into = submenus[entry.submenu]
            action = _action(window, into, entry)
            if entry.group:
                group = groups.setdefault(entry.group, QActionGroup(window))
                action.setCheckable(True)
                group.addAction(action)
            name = entry.run if isinstance(entry.run, str) else entry.run.__name__
            actions[name + "".join(f":{a}" for a in entry.args)] = action
    return actions


def _action(window: QMainWindow, menu: QMenu, item: Item) -> QAction:
    action = QAction(item.title, window)
    if item.shortcut is not None:
        action.setShortcut(QKeySequence(item.shortcut))
        if getattr(item.run, "keys_of_focused", False):
            # Ctrl+C, Ctrl+A...: the focused text widget's own keys (a bubble's copy leaves out its unseen
            # breaks). Shown in the menu; taken only while the menu itself has the focus, never from the widget.
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    if item.tip:
        action.setStatusTip(item.tip)
        action.setToolTip(item.tip)
    run = item.run
    if isinstance(run, str):
        method, args = getattr(window, run), item.args
        action.triggered.connect(lambda _=False: method(*args))
    else:
        action.triggered.connect(lambda _=False: run(window))
    menu.addAction(action)
    return action


def _tidy(entries: list[Item | None]) -> list[Item | None]:
    """No separator first, last, or next to another (the items between them may have been left out)."""
    out: list[Item | None] = []
    for entry in entries:
        if entry is None and (not out or out[-1] is None):
            continue
        out.append(entry)
    while out and out[-1] is None:
        out.pop()
    return out
