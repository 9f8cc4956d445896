"""No two files of anima/ and ui/ import each other, at the top or inside a function (issue 41: "no circle").

A circle of two is the smallest knot: neither file can be read, tested or moved without the other, and whichever
is imported first sees the other half-made. What both need goes into a third module below them, or one hands the
other a callback.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in [*root.glob("anima/**/*.py"), *root.glob("ui/**/*.py")]:
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of anima/ and ui/ that the file imports: `from .x import y` counts y when y is a module, else x."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return (out & known.keys()) - {name}


def test_no_two_files_import_each_other():
    known = modules()
    edges = {name: imported(name, path, known) for name, path in known.items()}
    circles = sorted(f"{a} <-> {b}" for a in edges for b in edges[a] if a < b and a in edges[b])
    assert not circles, "These files import each other; move what both need below them:\n" + "\n".join(circles)


def test_the_check_sees_a_circle(tmp_path):
    """The test of the test: two planted files that import each other are named."""
    for a, b in (("one", "two"), ("two", "one")):
        (tmp_path / "anima" / "planted").mkdir(parents=True, exist_ok=True)
        (tmp_path / "anima" / "planted" / f"{a}.py").write_text(f"def f():\n    from . import {b}\n")
    known = modules(tmp_path)
    assert imported("anima.planted.one", known["anima.planted.one"], known) == {"anima.planted.two"}
    assert imported("anima.planted.two", known["anima.planted.two"], known) == {"anima.planted.one"}
