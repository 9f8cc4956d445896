"""A message's Markdown as its bubble shows it: lines kept, code highlighted with exactly its text to copy, long
words breakable, nothing that could fetch or run."""

import html
import re

from ui import theme
from ui.chat.rich_text import BREAK_EVERY, COPY, _breakable, growing, legible, render

ZWSP = "\u200b"


def visible(shown: str) -> str:
    """The text a person reads in rendered HTML."""
    return html.unescape(re.sub(r"<[^>]+>", "", shown)).replace(ZWSP, "")


def test_single_line_breaks_are_kept_in_both_directions():
    shown = render("first line\nsecond line\n\nnext paragraph", theme.LIGHT).html
    assert "first line<br />" in shown and "second line</p>" in shown and "next paragraph" in shown


def test_a_fenced_block_is_highlighted_with_a_copy_link_that_copies_exactly_its_code():
    code = 'def f(x):\n    return x < 2  # "a" & b'
    rendered = render(f"Here:\n\n```python\n{code}\n```\n\nand a second:\n\n```\nplain {{}}\n```", theme.DARK)
    assert rendered.code == (code, "plain {}")
    assert f'href="{COPY}0"' in rendered.html and f'href="{COPY}1"' in rendered.html
    assert f'bgcolor="{theme.DARK.code_background}"' in rendered.html
    assert "white-space:pre-wrap" in rendered.html  # wraps inside its block
    assert 'return x < 2  # "a" & b' in visible(rendered.html)  # escaped: read as written, not as markup
    assert rendered.html.count('<span style="color:') > 4  # highlighted


def test_raw_markup_is_text_and_an_image_is_never_an_image():
    shown = render('<img src="http://x/y.png"><script>alert(1)</script> ![alt](http://x/z.png)', theme.LIGHT).html
    assert "<img" not in shown and "<script" not in shown
    assert '<img src="http://x/y.png"><script>alert(1)</script>' in visible(shown)  # shown as the text it is


def test_a_long_word_gets_break_opportunities_and_short_words_none():
    shown = render("short words only " + "x" * 100, theme.LIGHT).html
    assert shown.count(ZWSP) == 100 // BREAK_EVERY
    assert "short words only" in shown
    assert ZWSP not in render("A normal sentence with ordinary words in it.", theme.LIGHT).html


def test_breaks_keep_tags_and_entities_whole():
    body = "<p>" + "&amp;" * 60 + '<a href="' + "h" * 80 + '">' + "y" * 30 + "</a></p>"
    broken = _breakable(body)
    assert broken.replace(ZWSP, "") == body
    assert ZWSP not in broken.split('<a href="')[1].split('">')[0]  # never inside a tag
    assert "&am" + ZWSP not in broken and "&" + ZWSP + "amp;" not in broken


def test_plain_text_renders_as_the_markdown_parser_renders_it():
    from ui.chat.rich_text import _MARKUP, _md, _plain

    plain = [
        "Hello there",
        "first line\nsecond line",
        "  indented a little  \n  and again\n\n\nthird paragraph",
        'He said "hi", it\'s fine! Really? Yes.',
        "trailing spaces   \nhard break before",
        "\n\nblank lines around\n\n",
        "numbers 1. inside 2) a line, and 3 + 4 - 5 = 2: at 10:30",
        "",
    ]
    for text in plain:
        assert not _MARKUP.search(text), text  # takes the fast path
        assert _plain(text) == _md.render(text, {"code": [], "theme": theme.LIGHT}), text
    for text in ("1. a list", "- a list", "> quote", "a *b*", "`c`", "&amp;", "x <b>", "    code", "Title\n==="):
        assert _MARKUP.search(text), text  # the parser reads these


def test_legible_moves_a_faint_colour_until_it_reads():
    moved = legible("#dddddd", "#ffffff", "#111111")
    assert theme.contrast(moved, "#ffffff") >= 4.5
    assert legible("#000000", "#ffffff", "#111111") == "#000000"  # one that reads is left as it is


def test_the_same_text_renders_once_per_theme():
    text = "```python\nx = 1\n```"
    assert render(text, theme.LIGHT) is render(text, theme.LIGHT)
    assert render(text, theme.LIGHT).html != render(text, theme.DARK).html


def test_a_growing_reply_renders_its_finished_paragraphs_and_shows_the_one_being_written_as_it_is():
    text = "A **bold** start.\n\n- one\n- two\n\nStill *writ"
    done, writing = growing(text, theme.LIGHT)
    assert done is render("A **bold** start.\n\n- one\n- two\n\n", theme.LIGHT)  # rendered once, then cached
    assert "<strong>bold</strong>" in done.html and "<li>" in done.html
    assert visible(writing.html) == "Still *writ" and "<em>" not in writing.html  # its markup is not whole yet
    assert growing("No paragraph ended yet", theme.LIGHT)[0].html == ""


def test_a_blank_line_inside_an_open_code_block_ends_no_paragraph():
    text = "Look:\n\n```python\nx = 1\n\ny = 2"
    done, writing = growing(text, theme.LIGHT)
    assert visible(done.html).strip() == "Look:" and not done.code
    assert visible(writing.html).startswith("```python") and "y = 2" in visible(writing.html)
    closed, after = growing(text + "\n```\n\nAnd", theme.LIGHT)
    assert closed.code == ("x = 1\n\ny = 2",) and visible(after.html) == "And"
