"""The window's look, declared once: a light and a dark theme (named colours), a type scale, and how they are
applied (a QPalette with every role, and one application stylesheet).

The setting `theme` (anima/settings.py) chooses "light", "dark" or "system"; "system" follows the desktop's
colour scheme (QStyleHints.colorScheme), live. Widgets that draw from these colours themselves (the transcript's
Markdown, whose code colours are baked into its HTML) listen to `looks().changed`.
"""

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget


@dataclass(frozen=True)
class Theme:
    name: str  # "light" or "dark"
    window: str  # behind everything: the transcript's background
    surface: str  # fields, lists, dialogs' panes, the companion's bubble
    sidebar: str  # side panes (the Open Mind, a conversations list)
    person_bubble: str  # the person's messages
    companion_bubble: str  # the companion's messages
    text: str
    muted: str  # names, times, hints, placeholders
    accent: str  # the default button, focus rings, the avatar
    on_accent: str  # text on the accent
    link: str
    link_visited: str
    border: str
    code_background: str
    code_text: str
    highlight: str  # selected text's background
    on_highlight: str
    error: str
    warning: str
    success: str
    pygments_style: str  # code colours: a Pygments style that reads on code_background (tests/ui/test_theme.py)


LIGHT = Theme(
    name="light",
    window="#f6f7f9",
    surface="#ffffff",
    sidebar="#eef1f5",
    person_bubble="#dde8fb",
    companion_bubble="#ffffff",
    text="#1c2026",
    muted="#5a6270",
    accent="#2457c5",
    on_accent="#ffffff",
    link="#1f56c2",
    link_visited="#6b3fb3",
    border="#d8dde5",
    code_background="#f3f5f8",
    code_text="#1c2026",
    highlight="#2f62d0",
    on_highlight="#ffffff",
    error="#b3261e",
    warning="#8a5300",
    success="#176b33",
    pygments_style="default",
)

DARK = Theme(
    name="dark",
    window="#16181c",
    surface="#1f2228",
    sidebar="#1a1c21",
    person_bubble="#22385c",
    companion_bubble="#23262d",
    text="#e7e9ee",
    muted="#a0a8b5",
    accent="#8ab4f8",
    on_accent="#0d1b33",
    link="#8fb8ff",
    link_visited="#c5a6ff",
    border="#343944",
    code_background="#111317",
    code_text="#e7e9ee",
    highlight="#3a67c4",
    on_highlight="#ffffff",
    error="#ff8e86",
    warning="#f2c46b",
    success="#7fd99f",
    pygments_style="github-dark",
)

THEMES = {t.name: t for t in (LIGHT, DARK)}

# The type scale, in points: every size the window uses is one of these.
TYPE = {"caption": 8.5, "body": 10.5, "subtitle": 12.0, "title": 13.5, "display": 20.0}
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def resolve(choice: str) -> Theme:
    """The theme a setting means: "light", "dark", or the system's scheme ("system", or anything unknown)."""
    if choice in THEMES:
        return THEMES[choice]
    dark = QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark
    return DARK if dark else LIGHT


def contrast(foreground: str, background: str) -> float:
    """The WCAG 2.x contrast ratio of two colours (1 to 21)."""

    def luminance(colour: str) -> float:
        c = QColor(colour)
        channels = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            channels.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
        r, g, b = channels
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_pairs(t: Theme) -> dict[str, tuple[str, str]]:
    """Every text colour the theme puts on a background, by what it is: each must read (WCAG AA, 4.5:1)."""
    pairs = {
        "text on window": (t.text, t.window),
        "text on surface": (t.text, t.surface),
        "text on sidebar": (t.text, t.sidebar),
        "text on the person's bubble": (t.text, t.person_bubble),
        "text on the companion's bubble": (t.text, t.companion_bubble),
        "code": (t.code_text, t.code_background),
        "text on accent": (t.on_accent, t.accent),
        "selected text": (t.on_highlight, t.highlight),
    }
    for name in ("muted", "link", "link_visited", "error", "warning", "success", "accent"):
        for ground in ("window", "surface", "sidebar", "person_bubble", "companion_bubble"):
            pairs[f"{name} on {ground}"] = (getattr(t, name), getattr(t, ground))
    for ground in ("person_bubble", "companion_bubble", "surface", "window"):
        pairs[f"code on {ground}"] = (t.code_text, t.code_background)
    pairs["muted on code"] = (t.muted, t.code_background)
    pairs["link on code"] = (t.link, t.code_background)
    return pairs


def palette(t: Theme) -> QPalette:
    """A QPalette with every role set, for the active, inactive and disabled groups."""
    R = QPalette.ColorRole
    roles = {
        R.Window: t.window,
        R.WindowText: t.text,
        R.Base: t.surface,
        R.AlternateBase: t.sidebar,
        R.Text: t.text,
        R.PlaceholderText: t.muted,
        R.Button: t.surface,
        R.ButtonText: t.text,
        R.BrightText: t.on_accent,
        R.ToolTipBase: t.text,
        R.ToolTipText: t.surface,
        R.Highlight: t.highlight,
        R.HighlightedText: t.on_highlight,
        R.Link: t.link,
        R.LinkVisited: t.link_visited,
        R.Light: t.surface,
        R.Midlight: t.border,
        R.Mid: t.border,
        R.Dark: t.muted,
        R.Shadow: "#000000",
        R.Accent: t.accent,
    }
    p = QPalette()
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (R.WindowText, R.Text, R.ButtonText, R.HighlightedText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(t.muted))
    p.setColor(QPalette.ColorGroup.Disabled, R.Highlight, QColor(t.border))
    p.setColor(QPalette.ColorGroup.Disabled, R.Button, QColor(t.window))
    p.setColor(QPalette.ColorGroup.Disabled, R.Base, QColor(t.window))
    return p


def stylesheet(t: Theme, zoom: float = 0.0) -> str:
    """The one application stylesheet: rounded fields and buttons, slim scroll bars, the transcript's bubbles."""
    return f"""
QMainWindow, QDialog {{ background: {t.window}; }}
QToolTip {{ background: {t.text}; color: {t.surface}; border: none; padding: 4px 6px; }}
QDialogButtonBox {{ dialogbuttonbox-buttons-have-icons: 0; }}
QPushButton {{
    background: {t.surface}; color: {t.text}; border: 1px solid {t.border}; border-radius: 8px;
    padding: 5px 12px; min-height: 18px;
}}
QPushButton:hover {{ border-color: {t.accent}; }}
QPushButton:pressed {{ background: {t.sidebar}; }}
QPushButton:disabled {{ color: {t.muted}; background: {t.window}; }}
QPushButton:default {{ background: {t.accent}; color: {t.on_accent}; border-color: {t.accent}; }}
QPushButton:flat {{ border: none; background: transparent; color: {t.link}; padding: 2px 6px; }}
QPushButton:flat:hover {{ text-decoration: underline; }}
QLineEdit, QPlainTextEdit, QTextEdit {{
    background: {t.surface}; color: {t.text}; border: 1px solid {t.border}; border-radius: 8px; padding: 4px 6px;
    selection-background-color: {t.highlight}; selection-color: {t.on_highlight};
}}
QLineEdit:focus, QPlainTextEdit:focus, QTextEdit:focus {{
    border-color: {t.accent};
}}
QPlainTextEdit#message-box {{ border-radius: 12px; padding: 8px 10px; }}
QListWidget, QTableView, QTreeView {{
    background: {t.surface}; alternate-background-color: {t.sidebar}; border: 1px solid {t.border};
    border-radius: 8px;
}}
QListWidget#conversations {{ background: {t.sidebar}; border: none; padding: 2px; }}
QListWidget#conversations::item {{ padding: 5px 8px; border-radius: 6px; }}
QListWidget#conversations::item:selected {{ background: {t.highlight}; color: {t.on_highlight}; }}
QTabWidget::pane {{ border: 1px solid {t.border}; border-radius: 8px; background: {t.sidebar}; }}
QTabBar::tab {{ padding: 5px 10px; color: {t.muted}; background: transparent; border: none; }}
QTabBar::tab:selected {{ color: {t.text}; border-bottom: 2px solid {t.accent}; }}
QSplitter::handle {{ background: {t.border}; width: 1px; }}
QStatusBar {{ background: {t.window}; color: {t.muted}; }}
QMenuBar {{ background: {t.window}; color: {t.text}; }}
QScrollArea#transcript, QWidget#transcript-column {{ background: {t.window}; border: none; }}
QScrollBar:vertical {{ background: transparent; width: 10px; margin: 2px; }}
QScrollBar::handle:vertical {{ background: {t.border}; border-radius: 4px; min-height: 32px; }}
QScrollBar::handle:vertical:hover {{ background: {t.muted}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ height: 0; width: 0; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: none; }}
QFrame#bubble-body {{ border-radius: 14px; border: 1px solid {t.border}; background: {t.companion_bubble}; }}
QFrame#bubble-body[role="user"] {{ background: {t.person_bubble}; border-color: {t.person_bubble}; }}
QFrame#bubble-body QLabel {{ background: transparent; border: none; }}
QFrame#outside-text {{ border: 1px dashed {t.muted}; border-radius: 8px; background: {t.surface}; }}
QLabel#bubble-meta {{ color: {t.muted}; font-size: {TYPE["caption"] + zoom:g}pt; }}
QLabel#avatar {{
    background: {t.accent}; color: {t.on_accent}; border-radius: 13px; font-weight: bold;
    font-size: {TYPE["caption"] + zoom:g}pt;
}}
QLabel#unsaved {{ color: {t.error}; font-style: italic; }}
QLabel[tone="error"] {{ color: {t.error}; }}
QLabel[tone="warning"] {{ color: {t.warning}; }}
QLabel[tone="success"] {{ color: {t.success}; }}
QLabel[tone="muted"] {{ color: {t.muted}; }}
QPushButton#why {{ color: {t.link}; font-size: {TYPE["caption"] + zoom:g}pt; padding: 0 4px; }}
QLabel#empty-title {{ font-size: {TYPE["display"] + zoom:g}pt; font-weight: 600; color: {t.text}; }}
QLabel#form-heading {{ font-size: {TYPE["subtitle"] + zoom:g}pt; font-weight: 600; color: {t.text}; }}
QLabel#empty-line {{ color: {t.muted}; font-size: {TYPE["body"] + zoom:g}pt; }}
QLabel#empty-avatar {{
    background: {t.accent}; color: {t.on_accent}; border-radius: 28px; font-size: {TYPE["title"] + zoom:g}pt;
    font-weight: bold;
}}
QPushButton#opener {{
    background: {t.surface}; border: 1px solid {t.border}; border-radius: 12px; padding: 10px 14px;
    text-align: left; color: {t.text};
}}
QPushButton#opener:hover {{ border-color: {t.accent}; }}
"""


def tone(widget: QWidget, name: str) -> None:
    """Colour a label's text by what it says ("error", "warning", "success", "muted"), in the theme in use and
    in the next one: a colour written into a widget's own stylesheet would not follow the theme."""
    widget.setProperty("tone", name)
    widget.style().unpolish(widget)
    widget.style().polish(widget)


class Looks(QObject):
    """The one owner of the theme in use: what the setting chose, and the colours that means now."""

    changed = Signal(object)  # the Theme now in use

    def __init__(self, app: QApplication):
        super().__init__(app)
        self.app = app
        self.choice = "system"
        self.theme = resolve("system")
        self.zoom = 0.0  # points added to every size of the type scale (View ▸ Zoom)
        app.styleHints().colorSchemeChanged.connect(self._system_changed)

    def use(self, choice: str) -> None:
        """Apply a setting's choice ("system", "light", "dark") to the whole application, live."""
        self.choice = choice
        self._apply(resolve(choice))

    def zoomed(self, points: float) -> None:
        """Every size of the type scale `points` larger than declared (0: as declared), live. The stylesheet
        sets sizes, which keeps a widget from taking its parent's font: zooming is done here, not per widget."""
        self.zoom = points
        self._apply(self.theme)

    def _system_changed(self, scheme: Qt.ColorScheme) -> None:
        """The desktop switched between light and dark: followed, when the setting says "system"."""
        if self.choice not in THEMES:
            self._apply(DARK if scheme == Qt.ColorScheme.Dark else LIGHT)

    def _apply(self, t: Theme) -> None:
        self.theme = t
        self.app.setStyle(QStyleFactory.create("Fusion"))
        font = QFont(self.app.font())
        font.setPointSizeF(TYPE["body"] + self.zoom)
        self.app.setFont(font)
        self.app.setPalette(palette(t))
        self.app.setStyleSheet(stylesheet(t, self.zoom))
        self.changed.emit(t)


_looks: Looks | None = None


def looks() -> Looks:
    """The application's Looks (made on first use, for the QApplication that exists)."""
    global _looks
    app = QApplication.instance()
    assert isinstance(app, QApplication), "a QApplication comes first"
    if _looks is None or _looks.app is not app:
        _looks = Looks(app)
    return _looks


def current() -> Theme:
    """The theme in use: the application's, or the system's before one was applied (or with no application)."""
    if _looks is not None:
        return _looks.theme
    return resolve("system") if QGuiApplication.instance() is not None else LIGHT


def use(choice: str) -> None:
    looks().use(choice)
