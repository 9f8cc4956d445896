"""A message's Markdown as the HTML a bubble's label shows: line breaks kept, code in a highlighted block with a
Copy link, and long words that can break anywhere, so that no line is wider than its bubble.

Nothing here fetches anything: raw HTML in a message is shown as text, an image is shown as a link to it (never
loaded), and the label that shows this HTML has no resource loader that reaches a network. The text itself is what
the core stored (conversation/outward.py already took remote images and links carrying data out of a reply).
"""

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.styles import get_style_by_name
from pygments.token import Token
from pygments.util import ClassNotFound

from ..theme import MONO, TYPE, Theme, contrast

COPY = "copy:"  # a code block's Copy link: copy:<its index in Rendered.code>
BREAK_EVERY = 24  # a run of this many characters with no space gets a break opportunity (a URL, a long line)
_ZWSP = "\u200b"  # where a line may break, unseen

_md = MarkdownIt("commonmark", {"breaks": True, "html": False}).enable(["table", "strikethrough"]).disable("image")


@dataclass(frozen=True)
class Rendered:
    html: str
    code: tuple[str, ...]  # each code block's text, exactly as written: what its Copy link copies


def warm() -> None:
    """Load what rendering needs the first time (the parser's rules, a lexer's patterns: ~100 ms), so that the
    thread that calls this pays it and not the first page of bubbles. Cheap once done."""
    for language in ("python", "bash"):
        lexer = _lexer(language)
        if lexer is not None:
            list(lexer.get_tokens("x = 1"))
    _md.render("*warm*")


def render(markdown: str, theme: Theme) -> Rendered:
    """The label's HTML for a message's Markdown, in a theme's colours (the same text renders once per theme:
    a reply re-rendered as it streams, or laid out again, costs nothing)."""
    return _render(markdown, theme)


@lru_cache(maxsize=1024)
def _render(markdown: str, theme: Theme) -> Rendered:
    env: dict = {"code": [], "theme": theme}
    body = _md.render(markdown, env) if _MARKUP.search(markdown) else _plain(markdown)
    return Rendered(_breakable(_styled(body, theme)), tuple(env["code"]))


def growing(markdown: str, theme: Theme) -> tuple[Rendered, Rendered]:
    """A reply still being written, in two: its finished paragraphs (up to its last blank line outside a code
    block) rendered as Markdown, and the paragraph being written as plain text, whose markup is not whole yet. The
    first changes only when a paragraph ends (and renders once then: cached), so a bubble that shows the two in two
    labels lays out again, at each frame, only the paragraph that grows (transcript.Bubble.stream)."""
    cut = _settled(markdown)
    tail = markdown[cut:]
    return _render(markdown[:cut], theme), Rendered(_breakable(_styled(_plain(tail), theme)), ())


_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.M)


def _settled(markdown: str) -> int:
    """Where a reply's finished paragraphs end: after its last blank line outside a code block (0: none yet)."""
    at = len(markdown)
    while (at := markdown.rfind("\n\n", 0, at)) >= 0:
        if len(_FENCE.findall(markdown, 0, at)) % 2 == 0:
            return at + 2
    return 0


# Anything Markdown could read as markup: most chat messages have none, and are rendered without the parser
# (a tenth of the time; tests/ui/chat/test_rich_text.py checks both give the same HTML).
_MARKUP = re.compile(r"[\\`*_\[\]#<>|~&]|^ {0,3}([-+*>=]|\d{1,9}[.)])|^ {4}|^\s*\t", re.M)


def _plain(text: str) -> str:
    """Text with no markup as markdown-it renders it: paragraphs at blank lines, a <br /> at each line break."""
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", text.strip("\n")) if p.strip()]
    return "".join(
        "<p>" + "<br />\n".join(_escape(line.strip()) for line in p.strip().split("\n")) + "</p>\n" for p in paragraphs
    )


def _escape(text: str) -> str:
    return html.escape(text, quote=False).replace('"', "&quot;")


def _fence(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    return _code_block(token.content, token.info.strip().split(" ")[0] if token.info else "", env)


def _indented(self, tokens, idx, options, env) -> str:
    return _code_block(tokens[idx].content, "", env)


_md.add_render_rule("fence", _fence)
_md.add_render_rule("code_block", _indented)


def _code_block(content: str, language: str, env: dict) -> str:
    """A table of one cell (what Qt's rich text gives a background and padding), headed by its language and a
    Copy link; its text wraps inside it (pre-wrap), never widening the bubble."""
    t: Theme = env["theme"]
    code = content[:-1] if content.endswith("\n") else content
    index = len(env["code"])
    env["code"].append(code)
    return (
        f'<table width="100%" cellspacing="0" cellpadding="0" bgcolor="{t.code_background}" '
        f'style="margin-top:6px; margin-bottom:6px;">'
        f'<tr><td style="color:{t.muted}; font-size:small; padding:6px 10px 2px 10px;">'
        f"{html.escape(language or 'code')}</td>"
        f'<td align="right" style="font-size:small; padding:6px 10px 2px 10px;">'
        f'<a href="{COPY}{index}" style="color:{t.link};">Copy</a></td></tr>'
        f'<tr><td colspan="2" style="white-space:pre-wrap; font-family:{MONO}; color:{t.code_text}; '
        f'padding:2px 10px 8px 10px;">'
        f"{_highlighted(code, language, t)}</td></tr></table>"
    )


def _highlighted(code: str, language: str, t: Theme) -> str:
    lexer = _lexer(language)
    if lexer is None:
        return html.escape(code)
    out = []
    for kind, value in lexer.get_tokens(code):
        style = _token_style(kind, t)
        text = html.escape(value)
        out.append(f'<span style="{style}">{text}</span>' if style else text)
    return "".join(out).rstrip("\n")


@lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer | None:
    if not language:
        return None
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@lru_cache(maxsize=2048)
def _token_style(kind, t: Theme) -> str:
    """A token's inline style in a theme: its Pygments colour made legible on the code background."""
    if kind in Token.Text.Whitespace:
        return ""
    found = get_style_by_name(t.pygments_style).style_for_token(kind)
    parts = []
    if found["color"]:
        parts.append(f"color:{legible('#' + found['color'], t.code_background, t.code_text)};")
    if found["bold"]:
        parts.append("font-weight:600;")
    if found["italic"]:
        parts.append("font-style:italic;")
    return " ".join(parts)


def legible(colour: str, background: str, towards: str, least: float = 4.5) -> str:
    """`colour`, moved step by step towards `towards` (the plain text colour) until it reads on `background`."""
    from PySide6.QtGui import QColor

    a, b = QColor(colour), QColor(towards)
    for step in range(11):
        f = step / 10
        mixed = QColor.fromRgbF(
            a.redF() + (b.redF() - a.redF()) * f,
            a.greenF() + (b.greenF() - a.greenF()) * f,
            a.blueF() + (b.blueF() - a.blueF()) * f,
        ).name()
        if contrast(mixed, background) >= least:
            return mixed
    return towards


# Qt's rich text puts wide margins around paragraphs, lists and headings: a chat's are tighter.
_TIGHT = {
    "<p>": '<p style="margin-top:0; margin-bottom:6px;">',
    "<ul>": '<ul style="margin-top:0; margin-bottom:6px;">',
    "<ol>": '<ol style="margin-top:0; margin-bottom:6px;">',
}
# A heading in a message is a heading in a chat, not on a page: the type scale's, not Qt's xx-large.
_HEADINGS = {1: TYPE["title"], 2: TYPE["subtitle"], 3: TYPE["body"], 4: TYPE["body"], 5: TYPE["body"], 6: TYPE["body"]}


def _styled(body: str, t: Theme) -> str:
    for tag, styled in _TIGHT.items():
        body = body.replace(tag, styled)
    body = re.sub(
        r"<h([1-6])>",
        lambda m: f'<h{m[1]} style="margin-top:4px; margin-bottom:4px; font-size:{_HEADINGS[int(m[1])]}pt;">',
        body,
    )
    body = body.replace(
        "<blockquote>",
        f'<blockquote style="margin-left:12px; margin-top:0; margin-bottom:6px; color:{t.muted}; font-style:italic;">',
    )
    body = body.replace("<code>", f'<code style="font-family:{MONO}; background-color:{t.code_background};">')
    body = body.replace(
        "<table>",
        f'<table cellspacing="0" cellpadding="6" border="1" style="border-color:{t.border}; margin-bottom:6px;">',
    )
    return body.strip()


_PIECES = re.compile(r"(<[^>]*>)|(&#?\w+;)|(\s)|([^<&\s]+)|(.)", re.S)


def _breakable(body: str, every: int = BREAK_EVERY) -> str:
    """`body` with an unseen break opportunity in each run of `every` characters without a space (tags and
    entities kept whole): Qt's label wraps only at spaces, and a long URL or line of code would widen the whole
    transcript past its window."""
    out, run = [], 0
    for tag, entity, space, word, other in _PIECES.findall(body):
        if tag:
            out.append(tag)
            if tag.startswith(("<br", "<p", "</p", "<td", "</td", "<li", "</li", "<tr")):
                run = 0
        elif space:
            out.append(space)
            run = 0
        elif entity or other:
            if run >= every:
                out.append(_ZWSP)
                run = 0
            out.append(entity or other)
            run += 1
        else:
            i = 0
            while i < len(word):
                if run >= every:
                    out.append(_ZWSP)
                    run = 0
                piece = word[i : i + every - run]
                out.append(piece)
                run += len(piece)
                i += len(piece)
    return "".join(out)
