"""SQL stays with the owners of the records (DESIGN.md): the store, and the rooms that own a kind of record.

Every .py under anima/ and ui/ is read as Python: a string that is an SQL statement (or holds one), outside the
owners, fails the test with its file and line. Prose is not SQL: docstrings and comments are not read, and a
statement's keywords are SQL's own spelling (upper case) in a statement's shape, so "Select a rule" is no SELECT.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = ("anima", "ui")
# The store, and the rooms that own a kind of record: knowledge (messages, memories, world cards, episodes, rules),
# parts (parts, predictions, bids), self (the self-model, growth, signals), trust (the gate's proposals).
OWNERS = ("anima/store/", "anima/knowledge/", "anima/parts/", "anima/self/", "anima/trust/")

_NAME = r"[\w.{}]+"  # a table, or one put in by an f-string
# A statement as it begins a string.
_BEGINS = re.compile(
    r"\s*(SELECT\s+\S|INSERT\s+(OR\s+\w+\s+)?INTO\s|REPLACE\s+INTO\s|UPDATE\s+" + _NAME + r"\s+SET\s"
    r"|DELETE\s+FROM\s|CREATE\s+(TEMP\s+|TEMPORARY\s+|UNIQUE\s+|VIRTUAL\s+)?(TABLE|INDEX|VIEW|TRIGGER)\s"
    r"|DROP\s+(TABLE|INDEX|VIEW|TRIGGER)\s|ALTER\s+TABLE\s|PRAGMA\s+\w|WITH\s+(RECURSIVE\s+)?\w+\s+AS\s*\("
    r"|(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|VACUUM|ANALYZE|REINDEX|ATTACH|DETACH)\b(?!\s+[a-z]))"
)
# A statement anywhere in a string (a subquery, a fragment joined to others).
_INSIDE = re.compile(
    r"\bSELECT\s+.+?\s+FROM\s+"
    + _NAME
    + r"|\bINSERT\s+(OR\s+\w+\s+)?INTO\s+"
    + _NAME
    + r"|\bDELETE\s+FROM\s+"
    + _NAME
    + r"|\bUPDATE\s+"
    + _NAME
    + r"\s+SET\s+\w+\s*=",
    re.S,
)


def _text(node: ast.AST) -> str | None:
    """A string literal's text (an f-string's with {} for what it puts in); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def is_sql(text: str) -> bool:
    return bool(_BEGINS.match(text) or _INSIDE.search(text))


def statements(source: str) -> list[tuple[int, str]]:
    """(line, first line of the text) of each string in `source` that is SQL; docstrings and other strings that
    stand alone as statements are prose, and are not read."""
    tree = ast.parse(source)
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and _text(n.value) is not None}
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in ast.walk(n) if v is not n}
    found = []
    for node in ast.walk(tree):
        if id(node) in prose or id(node) in inner:
            continue
        text = _text(node)
        if text is not None and is_sql(text):
            found.append((node.lineno, text.strip().splitlines()[0][:80]))
    return sorted(found)


def outside_owners(root: Path) -> list[str]:
    """ "path:line: text" of every SQL statement under root's anima/ and ui/ that is not in an owner's file."""
    found = []
    for folder in READ:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if name.startswith(OWNERS):
                continue
            found += [f"{name}:{line}: {text}" for line, text in statements(path.read_text(encoding="utf-8"))]
    return found


def test_no_sql_outside_the_owners_of_the_records():
    assert outside_owners(ROOT) == [], (
        "SQL outside the store and the rooms that own a kind of record: ask the owner (a typed method there) instead"
    )


PLANTED = '''\
"""Reads what was said. `PRAGMA data_version` moves when another program commits; SELECT id FROM messages."""


def said(soul, after):
    # SELECT id FROM messages WHERE id > ?: a comment is prose too
    label = "Select a rule to see the messages it was learned from."
    begin = "Begin with an update from the person, then delete from the list what went."
    return soul.query("SELECT id FROM messages "
                      f"WHERE id > ? AND session != {'?'}", (after,))


def kept(con, table):
    con.execute(f"UPDATE {table} SET avatar = ? WHERE id = ?", (b"", 1))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return "(SELECT source FROM provenance WHERE item_kind = 'message')"
'''


def test_a_planted_statement_is_found_with_its_file_and_line_and_prose_is_not(tmp_path):
    for owner, stranger in (
        ("anima/store/planted.py", "anima/conversation/planted.py"),
        ("anima/knowledge/planted.py", "ui/chat/planted.py"),
    ):
        for name in (owner, stranger):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(PLANTED, encoding="utf-8")
    found = outside_owners(tmp_path)
    assert found == [
        f"{name}:{line}: {text}"
        for name in ("anima/conversation/planted.py", "ui/chat/planted.py")
        for line, text in (
            (8, "SELECT id FROM messages WHERE id > ? AND session != {}"),
            (13, "UPDATE {} SET avatar = ? WHERE id = ?"),
            (14, "PRAGMA wal_checkpoint(TRUNCATE)"),
            (15, "(SELECT source FROM provenance WHERE item_kind = 'message')"),
        )
    ]


def test_what_reads_like_sql_in_prose_is_not_taken_for_it():
    for prose in (
        "Select a rule to see the messages it was learned from.",
        "SELECT",
        "Update the part, then set it",
        "`PRAGMA data_version` changes only when another connection commits",
        "BEGIN again",
        "Commit early",
        "the rows it SELECTs from the feed",
        "WITH care",
    ):
        assert not is_sql(prose), prose
    for sql in (
        "SELECT 1",
        "  DELETE FROM vector_feed WHERE seq <= ?",
        "INSERT OR IGNORE INTO meta VALUES (?, ?)",
        "BEGIN IMMEDIATE",
        "COMMIT",
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.x USING fts5vocab(main, 'x')",
        "WITH s AS (SELECT id FROM messages) SELECT max(id) FROM s",
        "AND id NOT IN (SELECT item_id FROM t)",
    ):
        assert is_sql(sql), sql
