"""The window and the terminal talk to the companion and to the few rooms it hands out on purpose (the annotations
on Companion), never past them: no `companion.soul.forgets()`, no `companion.reflector.deep`, no `companion.chat`
handed on to something else. And every signature in ui/ that takes a companion says so (`Companion`).

Read from the source (ast), so a reach in code that a test never runs is found too."""

import ast
from pathlib import Path

from anima.companion import Companion

ROOT = Path(__file__).resolve().parents[2]


def sources() -> list[Path]:
    return sorted([*ROOT.glob("ui/**/*.py"), *ROOT.glob("anima/cli*.py")])


def rooms() -> set[str]:
    """What Companion hands out on purpose: declared with an annotation on the class."""
    return set(Companion.__annotations__)


def methods() -> set[str]:
    """Its own methods and properties."""
    return {name for name in vars(Companion) if not name.startswith("_")}


def _is_companion(node: ast.AST, aliases: set[str]) -> bool:
    """`companion`, `x.companion`, `getattr(x, "companion", ...)`, `x.companion()` (the window's callable that
    gives the one shown), or a name bound to one of those."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
        return len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "companion"
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func
    if isinstance(node, ast.Name):
        return node.id == "companion" or node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr == "companion"


def _attribute(node: ast.AST) -> tuple[ast.AST, str] | None:
    """(what, name) for `what.name` and for `getattr(what, "name", ...)`."""
    if isinstance(node, ast.Attribute):
        return node.value, node.attr
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[0], node.args[1].value
    return None


def reaches(source: str) -> list[tuple[int, str]]:
    """Each reach past the companion: (line, what), e.g. (12, "companion.soul.forgets")."""
    tree = ast.parse(source)
    aliases: set[str] = set()
    while True:  # names bound to the companion (`c = self.companion`), and to those names in turn
        bound = {
            t.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and _is_companion(node.value, aliases)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        if bound <= aliases:
            break
        aliases |= bound
    allowed, handed = methods() | rooms(), rooms()
    found = []
    for node in ast.walk(tree):
        outer = _attribute(node)
        if outer is None:
            continue
        what, name = outer
        if _is_companion(what, aliases) and name not in allowed:
            found.append((node.lineno, f"companion.{name}"))
        inner = _attribute(what)
        if inner is not None and _is_companion(inner[0], aliases) and inner[1] in allowed - handed:
            found.append((node.lineno, f"companion.{inner[1]}.{name}"))
    return sorted(set(found))


def unannotated(source: str) -> list[tuple[int, str]]:
    """Each function in the source with a `companion` parameter not annotated as a Companion."""
    return [
        (node.lineno, node.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if a.arg == "companion" and (a.annotation is None or "Companion" not in ast.unparse(a.annotation))
    ]


def test_the_window_and_the_terminal_reach_nothing_past_the_companion_and_its_rooms():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in sources()
        for line, what in reaches(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "Ask a method of Companion, or one of the rooms it hands out (annotated on the class: "
        + ", ".join(sorted(rooms()))
        + "), instead of:\n"
        + "\n".join(found)
    )


def test_every_signature_in_ui_that_takes_a_companion_says_so():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sources()
        if path.is_relative_to(ROOT / "ui")
        for line, name in unannotated(path.read_text(encoding="utf-8"))
    ]
    assert not found, 'Annotate `companion: "Companion"` (imported under TYPE_CHECKING) in:\n' + "\n".join(found)


def test_the_check_sees_each_way_past_the_companion():
    """The test of the test: planted reaches are named; what goes through the companion and its rooms is not."""
    planted = """
class View:
    def __init__(self, companion, parent=None):
        self.companion = companion

    def load(self):
        c = self.companion
        old = c
        return (self.companion.soul.forgets(), c.reflector.deep, old.chat, getattr(self.companion, "gate", None),
                self.companion.memories.all(), self.companion.forgets(), self.companion.name.upper(),
                self.window.companion.conversation.said_elsewhere(1, 2), self.companion().indexer_thread)
"""
    assert {what for _, what in reaches(planted)} == {
        "companion.soul",
        "companion.reflector",
        "companion.chat",
        "companion.gate",
        "companion.name.upper",
        "companion.conversation",
        "companion.indexer_thread",
    }
    assert unannotated(planted) == [(3, "__init__")]
    assert not unannotated("def f(companion: 'Companion | None'): pass\ndef g(x, *, companion: Companion): pass")
