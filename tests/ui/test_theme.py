"""Both themes read: every text colour on every background it is used on is at least WCAG AA (4.5:1), in the
declared colours, in the QPalette the application is given, and in the code colours a message shows."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from anima.settings import Settings
from ui import theme
from ui.chat.rich_text import render

AA = 4.5
CODE = {
    "python": (
        'import os\n\n@cached\ndef f(x: int = 2) -> str:\n    """Doc."""\n    # note\n    return f"{x!r}" + 0x1F\n'
    ),
    "javascript": "const a = /re+/g; let b = `t${a}`; // c\nclass K extends Error { constructor() { super(1.5e3) } }",
    "bash": 'for f in *.txt; do echo "$f" >> out.log; done # loop',
    "json": '{"a": [1, true, null], "b": "text"}',
    "html": "<!-- c --><div class=\"x\" id='y'>&amp; text</div>",
    "diff": "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new",
    "sql": "SELECT id, COUNT(*) FROM t WHERE name LIKE 'a%' GROUP BY id; -- c",
    "rust": 'fn main() { let v: Vec<u8> = vec![1]; println!("{:?}", v); } // c',
}


@pytest.fixture(autouse=True)
def system_theme_after(qapp):
    yield
    theme.use("system")


@pytest.mark.parametrize("t", [theme.LIGHT, theme.DARK], ids=lambda t: t.name)
def test_every_declared_text_colour_reads_on_its_background(t):
    low = {what: round(theme.contrast(fg, bg), 2) for what, (fg, bg) in theme.text_pairs(t).items()}
    assert {what: ratio for what, ratio in low.items() if ratio < AA} == {}
    assert len(low) > 30  # text, muted, links, errors ... on every ground


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_applied_palette_reads_in_every_role_pair(qapp, choice):
    theme.use(choice)
    p = QApplication.palette()
    R = QPalette.ColorRole
    pairs = {
        "window text": (R.WindowText, R.Window),
        "text": (R.Text, R.Base),
        "text on alternate rows": (R.Text, R.AlternateBase),
        "placeholder": (R.PlaceholderText, R.Base),
        "placeholder on window": (R.PlaceholderText, R.Window),
        "link": (R.Link, R.Base),
        "visited link": (R.LinkVisited, R.Base),
        "link on window": (R.Link, R.Window),
        "button text": (R.ButtonText, R.Button),
        "selected text": (R.HighlightedText, R.Highlight),
        "tool tip": (R.ToolTipText, R.ToolTipBase),
        "bright text on accent": (R.BrightText, R.Accent),
    }
    ratios = {what: theme.contrast(p.color(a).name(), p.color(b).name()) for what, (a, b) in pairs.items()}
    assert {what: round(r, 2) for what, r in ratios.items() if r < AA} == {}
    assert p.color(R.Window).name() == theme.THEMES[choice].window  # what was declared is what is shown
    assert p.color(QPalette.ColorGroup.Disabled, R.Text) != p.color(R.Text)  # disabled text looks disabled


@pytest.mark.parametrize("t", [theme.LIGHT, theme.DARK], ids=lambda t: t.name)
def test_highlighted_code_reads_on_the_code_background(qapp, t):
    for language, code in CODE.items():
        rendered = render(f"```{language}\n{code}\n```", t)
        colours = set(re.findall(r"color:(#[0-9a-f]{6})", rendered.html))
        assert len(colours) >= 3, language  # highlighted: more than the text and the label colours
        low = {c: round(theme.contrast(c, t.code_background), 2) for c in colours if c != t.link}
        assert {c: r for c, r in low.items() if r < AA} == {}, language
        assert rendered.code == (code,)


def test_system_follows_the_desktops_scheme_live(qapp):
    """The desktop switching to dark and back (as Qt tells it: offscreen has no desktop to switch)."""
    changed = QGuiApplication.styleHints().colorSchemeChanged
    theme.use("system")
    changed.emit(Qt.ColorScheme.Dark)
    assert theme.current() is theme.DARK
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
    changed.emit(Qt.ColorScheme.Light)
    assert theme.current() is theme.LIGHT
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() == theme.LIGHT.window
    theme.use("dark")  # a choice made stays, whatever the desktop does
    changed.emit(Qt.ColorScheme.Light)
    assert theme.current() is theme.DARK


def test_a_theme_setting_is_kept_and_a_wrong_one_refused():
    Settings(theme="dark").save()
    assert Settings.load().theme == "dark"
    from anima.errors import KnownError

    with pytest.raises(KnownError, match="theme"):
        Settings(theme="purple").save()


def test_a_toned_label_reads_in_each_theme_and_follows_a_change(qtbot):
    from PySide6.QtWidgets import QLabel

    label = QLabel("The soul could not be read.")
    qtbot.addWidget(label)
    theme.tone(label, "error")
    label.show()
    for t in (theme.DARK, theme.LIGHT):
        theme.use(t.name)
        label.ensurePolished()
        assert label.palette().color(QPalette.ColorRole.WindowText).name() == t.error
        assert theme.contrast(t.error, t.window) >= AA


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_dialog_buttons_are_words_without_the_desktops_stock_icons(qtbot, choice):
    """Save and Cancel as every app of today draws them: a floppy disk and a red cross came with Fusion on Linux."""
    theme.use(choice)
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(box)
    box.show()
    assert [b.text().replace("&", "") for b in box.buttons()] and all(b.icon().isNull() for b in box.buttons())
