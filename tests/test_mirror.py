"""Tests mirror the tree: every module has the test file that mirrors it, or a line in tests/mirror.toml naming
the tests that cover it; every line there names files that exist.

The mirror of a module is tests/<its folders>/test_<its name>.py, with anima/'s own folder left out (the core's
rooms sit at the top of tests/): anima/store/keys.py -> tests/store/test_keys.py, anima/cli.py ->
tests/test_cli.py, ui/chat/why.py -> tests/ui/chat/test_why.py, bench/scale.py -> tests/bench/test_scale.py. A
package's __init__.py or __main__.py has no mirror: one that does more than import and name what it exports
needs a line in the map.
"""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "tests" / "mirror.toml"
TREES = ("anima", "ui", "bench", "packaging")
UNMIRRORED = ("__init__.py", "__main__.py")


def modules() -> list[str]:
    """Every module of the source trees, as a path from the repository's root."""
    found = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            if path.name in UNMIRRORED and only_imports(path):
                continue
            found.append(path.relative_to(ROOT).as_posix())
    return found


def only_imports(path: Path) -> bool:
    """A file of a docstring, imports and __all__: nothing of its own to test."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            continue
        return False
    return True


def mirror(module: str) -> str | None:
    """The test file that mirrors `module`, or None for a package's __init__.py and __main__.py."""
    parts = module.split("/")
    if parts[-1] in UNMIRRORED:
        return None
    folders = parts[1:-1] if parts[0] == "anima" else parts[:-1]
    return "/".join(["tests", *folders, "test_" + parts[-1]])


def covered() -> dict[str, list[str]]:
    """The map's lines: module -> the tests that cover it."""
    lines = tomllib.loads(MAP.read_text(encoding="utf-8"))
    return {module: [tests] if isinstance(tests, str) else list(tests) for module, tests in lines.items()}


def test_every_module_has_its_mirrored_test_or_a_line_in_the_map():
    lines = covered()
    missing = []
    for module in modules():
        own = mirror(module)
        if own is not None and (ROOT / own).is_file():
            continue
        if module not in lines:
            missing.append(module)
    said = []
    for module in missing:
        own = mirror(module)
        write = f"write {own}, or add" if own else "add"
        said.append(
            f"{module}: {write} this line to tests/mirror.toml, naming the tests that cover it:\n"
            f'    "{module}" = ["tests/...py"]  # why those, where it is not plain'
        )
    assert not missing, f"{len(missing)} module(s) with no test that mirrors them:\n" + "\n".join(said)


def test_every_line_of_the_map_names_a_module_and_tests_that_exist():
    known = set(modules())
    wrong = []
    for module, tests in covered().items():
        if not (ROOT / module).is_file():
            wrong.append(f'"{module}": no such module (moved or removed?): move its line to the new path, or remove it')
        elif module not in known:
            wrong.append(f'"{module}": only imports what it exports, and needs no line: remove it')
        elif (own := mirror(module)) is not None and (ROOT / own).is_file():
            wrong.append(f'"{module}": {own} mirrors it now: remove its line')
        if not tests:
            wrong.append(f'"{module}": names no test')
        for test in tests:
            if not (ROOT / test).is_file():
                wrong.append(f'"{module}": {test} does not exist (moved or removed?): name the test that covers it')
    assert not wrong, "tests/mirror.toml:\n" + "\n".join(wrong)


def test_a_mirror_keeps_the_folders_of_its_module_but_anima():
    assert mirror("anima/store/keys.py") == "tests/store/test_keys.py"
    assert mirror("anima/cli.py") == "tests/test_cli.py"
    assert mirror("ui/chat/why.py") == "tests/ui/chat/test_why.py"
    assert mirror("bench/scale.py") == "tests/bench/test_scale.py"
    assert mirror("anima/models/__init__.py") is None
