"""The menus where a person looks for them (File, Edit, View, Help), each item with its declared shortcut."""

from PySide6.QtGui import QKeySequence

from ui import menus


def menu_of(window, title: str):
    return next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == title)


def titles(menu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def test_every_declared_item_the_window_can_do_is_in_its_menu_with_its_shortcut(window):
    assert [a.text().replace("&", "") for a in window.menuBar().actions()][:3] == ["File", "Edit", "View"]
    assert window.menuBar().actions()[-1].text() == "&Help"
    declared = 0
    for menu_title, item in menus.items():
        menu = menu_of(window, menu_title.replace("&", ""))
        if item.submenu:  # inside a menu of its own, there when one of its items is
            inner = [a.menu() for a in menu.actions() if a.text() == item.submenu]
            menu = inner[0] if inner else menu
        found = [a for a in menu.actions() if a.text() == item.title]
        if not menus.available(window, item):
            assert found == [], f"{item.title}: shown, but the window cannot do it"
            continue
        declared += 1
        assert len(found) == 1, f"{item.title} is missing from {menu_title}"
        assert found[0].shortcut() == QKeySequence(item.shortcut or "")
    assert declared >= 20
    file_menu = titles(menu_of(window, "File"))
    for wanted in ("&Import soul…", "&Export soul…", "Import character &card…", "&Quit"):
        assert wanted in file_menu
    assert file_menu[-1] == "&Quit"
    assert "&Settings…" in file_menu and "Change &passphrase…" in file_menu


def test_an_item_whose_method_the_window_lacks_is_left_out_with_no_stray_separator(qtbot, monkeypatch):
    from anima.settings import Settings
    from ui.window import MainWindow

    monkeypatch.setattr(
        menus,
        "MENUS",
        (
            (
                "&Odd",
                (
                    menus.SEPARATOR,
                    menus.Item("&Nowhere", "no_such_method"),
                    menus.SEPARATOR,
                    menus.Item("&Quit", "quit_asked"),
                ),
            ),
        ),
    )
    monkeypatch.setattr(MainWindow, "_menu", lambda self: setattr(self, "actions_by_name", menus.build(self)))
    w = MainWindow(None, Settings())
    qtbot.addWidget(w)
    odd = menu_of(w, "Odd")
    assert [a.text() for a in odd.actions()] == ["&Quit"]


def test_edit_acts_on_the_focused_text_field(window):
    window.input.setPlainText("hello there")
    window.input.setFocus()
    window.actions_by_name["selectAll"].trigger()
    assert window.input.textCursor().selectedText() == "hello there"
    window.actions_by_name["cut"].trigger()
    assert window.input.toPlainText() == ""
    window.actions_by_name["undo"].trigger()
    assert window.input.toPlainText() == "hello there"


def test_quit_from_the_file_menu_closes_the_window(qtbot, window):
    window.actions_by_name["quit_asked"].trigger()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)


def test_zoom_makes_the_text_larger_and_actual_size_brings_it_back(window):
    first = window.input.font().pointSizeF()
    window.actions_by_name["zoom+1"].trigger()
    window.actions_by_name["zoom+1"].trigger()
    assert window.input.font().pointSizeF() == first + 2
    window.actions_by_name["zoom-1"].trigger()
    assert window.input.font().pointSizeF() == first + 1
    window.actions_by_name["zoom+0"].trigger()
    assert window.input.font().pointSizeF() == first


def test_choices_go_in_a_menu_of_their_own_and_one_is_checked(qtbot, monkeypatch):
    """The theme's choices: a Theme menu inside View once the window can set a theme, one of them checked."""
    from anima.settings import Settings
    from ui.window import MainWindow

    chosen = []
    monkeypatch.setattr(MainWindow, "set_theme", lambda self, name: chosen.append(name), raising=False)
    w = MainWindow(None, Settings())
    qtbot.addWidget(w)
    [theme] = [a.menu() for a in menu_of(w, "View").actions() if a.text() == "&Theme"]
    assert titles(theme) == ["&System", "&Light", "&Dark"]
    w.actions_by_name["set_theme:dark"].trigger()
    assert chosen == ["dark"] and w.actions_by_name["set_theme:dark"].isChecked()
    w.actions_by_name["set_theme:light"].trigger()
    assert not w.actions_by_name["set_theme:dark"].isChecked()
