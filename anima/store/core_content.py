"""A core's content read as it inflates: table by table, its rows a few hundred at a time.

The content is the JSON `{"tables": {name: {"columns": [...], "rows": [[...], ...]}, ...}}` (core.py writes it
a thousand rows at a time). Parsed whole, a 100,000-message soul's 154 MB core held its inflated text, then the
objects made from it, then those checked: 1.5 GB at its peak. Read here a value at a time, what is held is one
inflate step of text and one batch of rows.

Only the outer shape is walked by hand; each value (a table's name, its columns, one row, anything else) is
read by the json module itself, so what is accepted is JSON as json.loads reads it. A value may end past the
text read so far: it is read again once more text is there (at least twice as much, so a long value costs a
few reads, not one per step), and a number that ends exactly where the text does is read again too, as more
digits may follow. A table's columns come before its rows, and no name twice, as Anima writes them; keys
beside "tables", "columns" and "rows" are read and let be, as json.loads let them be.
"""

import codecs
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
ROWS_AT_ONCE = 500  # one executemany: a few hundred kilobytes of rows at most
_NUMBER_GOES_ON = re.compile(r"[0-9.eE+-]*\Z")
_CUT = 8  # how near the end of the text read an error may lie and be a value cut short ("\u12" of "\u1234")


class NotContent(ValueError):
    """Text that is not a core's content (as json.loads raised ValueError for it)."""


class _Text:
    """The content's text as it inflates, read from `pos` on."""

    def __init__(self, pieces: Iterator[bytes]):
        self._pieces, self._utf8 = pieces, codecs.getincrementaldecoder("utf-8")("strict")
        self.buf, self.pos, self.done = "", 0, False

    def more(self, wanted: int = 0) -> bool:
        """Read on past the text read (an inflate step, or until `wanted` characters are unread); False once the
        content has ended. The unread text and what is read are joined once: a value longer than the text read
        so far is held twice only while it is joined."""
        if self.done:
            return False
        pieces, unread, read = [self.buf[self.pos :]], len(self.buf) - self.pos, False
        self.buf, self.pos = "", 0
        for piece in self._pieces:
            pieces.append(self._utf8.decode(piece))
            unread, read = unread + len(pieces[-1]), True
            if unread >= wanted:
                break
        else:
            self.done = True
            pieces.append(self._utf8.decode(b"", final=True))
        self.buf = "".join(pieces)
        return read

    def next_char(self) -> str:
        """The next character past white space ('' at the end), not taken."""
        while True:
            space = _WS.match(self.buf, self.pos)
            assert space is not None  # white space or none: it matches anywhere
            self.pos = space.end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def take(self, char: str) -> None:
        if self.next_char() != char:
            raise NotContent(f"expected {char!r} at character {self.pos}, found {self._here()}")
        self.pos += 1

    def value(self) -> Any:
        """The next JSON value, read by json itself once the text read holds all of it."""
        self.next_char()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
                # A number may go on past the text read ("1." of "1.5"): only what follows it shows where it ends.
                if self.done or not isinstance(value, (int, float)) or not _NUMBER_GOES_ON.match(self.buf, end):
                    self.pos = end
                    return value
            except json.JSONDecodeError as e:
                # Text that is wrong where it is read stays wrong, whatever follows: refused at once, not after
                # reading on to the content's end. Only a value cut short (an error at the end of the text read,
                # or a string that runs to it) may be whole with more.
                if self.done or (e.pos < len(self.buf) - _CUT and not e.msg.startswith("Unterminated string")):
                    raise
            # More text is needed (or may be: a number at the end of the text read): twice what is there now.
            self.more(2 * (len(self.buf) - self.pos))

    def _here(self) -> str:
        return shown(self.buf[self.pos : self.pos + 20]) if self.pos < len(self.buf) else "the end"

    def end_or(self, separator: str, closing: str) -> bool:
        """True past a `separator` (another item follows), False past `closing`."""
        char = self.next_char()
        if char not in (separator, closing):
            raise NotContent(f"expected {separator!r} or {closing!r} at character {self.pos}, found {self._here()}")
        self.pos += 1
        return char == separator


def shown(name: object) -> str:
    """A name or text from the file, as one short line (it may be anything: long, a number, control characters)."""
    text = repr(name)
    return text if len(text) <= 40 else text[:37] + "..."


Table = tuple[str, list[str], list[list[Any]]]  # (name, columns, a batch of rows): a first batch may hold no rows
# fit_columns(name, columns) raises for what no soul has; fit_row(row, width, name) gives the row as it is stored.
FitColumns = Callable[[str, list[Any]], None]
FitRow = Callable[[Any, int, str], list[Any]]


def tables(pieces: Iterator[bytes], fit_columns: FitColumns, fit_row: FitRow) -> Iterator[Table]:
    """Each table of the content as (name, columns, rows), its rows a batch at a time. `fit_columns(name,
    columns)` raises for a table or columns no soul of the core's schema has; `fit_row(row, width, name)` gives
    the row as it is stored, or raises. NotContent (or the json module's ValueError, or UnicodeDecodeError)
    for text that is not a core's content; the content is read to its end only as the last batch is taken."""
    text = _Text(pieces)
    text.take("{")
    seen_tables = False
    for key in _members(text):
        if key != "tables":
            text.value()
            continue
        if seen_tables:
            raise NotContent('it holds "tables" twice')
        seen_tables = True
        yield from _tables(text, fit_columns, fit_row)
    if text.next_char() != "":
        raise NotContent(f"extra text at character {text.pos}")
    if not seen_tables:
        raise KeyError("tables")


def _members(text: _Text) -> Iterator[str]:
    """The names of an object's members as they come, its "{" taken already: the caller reads each one's value
    before asking for the next."""
    if text.next_char() == "}":
        text.pos += 1
        return
    while True:
        yield _key(text)
        if not text.end_or(",", "}"):
            return


def _key(text: _Text) -> str:
    if text.next_char() != '"':
        raise NotContent(f"expected a name in double quotes at character {text.pos}")
    key: str = text.value()  # a JSON string: it opens with '"'
    text.take(":")
    return key


def _tables(text: _Text, fit_columns: FitColumns, fit_row: FitRow) -> Iterator[Table]:
    if text.next_char() != "{":
        raise TypeError("its tables are not named")
    text.pos += 1
    names: set[str] = set()
    for name in _members(text):
        if name in names:
            raise NotContent(f"it names a table {shown(name)} twice")
        names.add(name)
        yield from _table(text, name, fit_columns, fit_row)


def _table(text: _Text, name: str, fit_columns: FitColumns, fit_row: FitRow) -> Iterator[Table]:
    shape = TypeError(f"table {shown(name)} is not columns and rows")
    if text.next_char() != "{":
        raise shape
    text.pos += 1
    columns: list[str] | None = None
    rows_read = False
    for key in _members(text):
        if key == "columns":
            if columns is not None or rows_read:
                raise NotContent(f"table {shown(name)} gives its columns twice or after its rows")
            columns = text.value()
            if type(columns) is not list:
                raise shape
            fit_columns(name, columns)
        elif key == "rows":
            if columns is None or rows_read:
                raise NotContent(f"table {shown(name)} gives its rows before its columns, or twice")
            rows_read = True
            yield from _rows(text, name, columns, fit_row)
        else:
            text.value()
    if not rows_read:
        raise shape


def _rows(text: _Text, name: str, columns: list[str], fit_row: FitRow) -> Iterator[Table]:
    if text.next_char() != "[":
        raise TypeError(f"table {shown(name)} is not columns and rows")
    text.pos += 1
    batch: list[list[Any]] = []
    width, given = len(columns), False
    if text.next_char() == "]":
        text.pos += 1
    else:
        while True:
            batch.append(fit_row(text.value(), width, name))
            if len(batch) >= ROWS_AT_ONCE:
                yield name, columns, batch
                batch, given = [], True
            if not text.end_or(",", "]"):
                break
    if batch or not given:
        yield name, columns, batch
