"""The floors of the core: a room of anima/ imports only rooms on floors below its own, never one beside or above
it (DESIGN.md: "upper rooms import lower ones, never the reverse"). A room is a package of anima/ or one of its
top-level modules. Rooms on one floor do not import each other either: the order among them is then free.

A new room takes its floor here; an import that goes up names the file and line, and the two ways out: move the
code it needs down, or tell it through a callback (the core tells the window and the reflector things that way)."""

import ast
from pathlib import Path

ANIMA = Path(__file__).resolve().parent.parent / "anima"

FLOORS = (  # from the top down
    {"__main__"},
    {"cli"},
    {"cli_cards", "cli_companions"},
    {"cli_open", "selftest"},
    {"companion"},
    {"reflect", "interchange"},  # learning and reflection; files of other apps (a card's greeting opens the chat)
    {"conversation"},
    {"workspace"},
    {"self"},
    {"knowledge", "parts"},
    {"trust"},  # the gate and the checks that only read text
    {"retrieval", "settings"},
    {"models"},
    {"store"},
    {"files", "paths", "bench", "spelling"},
    {"errors"},
    {"__init__"},  # the package's face: its version
)
FLOOR = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}


def room_of(module: list[str]) -> str:
    """The room of a module named from anima's root (["store", "soul"] -> "store"; [] -> the package's face)."""
    if not module:
        return "__init__"
    return module[0] if (ANIMA / module[0]).is_dir() or (ANIMA / f"{module[0]}.py").exists() else "__init__"


def imports(path: Path) -> list[tuple[int, list[str]]]:
    """Each (line, module under anima/) that `path` imports, relative imports resolved."""
    here = list(path.relative_to(ANIMA).with_suffix("").parts)
    package = here[:-1]  # the package a module (or an __init__) sits in
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            if node.module:  # from ..store.soul import Soul
                found.append((node.lineno, base + node.module.split(".")))
            else:  # from . import secrets, readable: each a module
                found += [(node.lineno, [*base, a.name]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "anima":
            found.append((node.lineno, node.module.split(".")[1:]))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == "anima"]
    return found


def upward_imports() -> list[str]:
    wrong = []
    for path in sorted(ANIMA.rglob("*.py")):
        rel = path.relative_to(ANIMA)
        room = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        assert room in FLOOR, f"anima/{rel}: the room {room!r} has no floor in tests/test_layers.py FLOORS: add it"
        for line, module in imports(path):
            other = room_of(module)
            if other != room and FLOOR[other] <= FLOOR[room]:
                where = "beside" if FLOOR[other] == FLOOR[room] else "above"
                wrong.append(f"anima/{rel}:{line} imports {'.'.join(['anima', *module])}, a room {where} {room}")
    return wrong


def test_every_room_imports_only_rooms_below_it():
    assert upward_imports() == []


def test_an_import_up_is_found(tmp_path, monkeypatch):
    """The test of the test: a store module that imports the conversation is named, file and line."""
    fake = tmp_path / "anima"
    (fake / "store").mkdir(parents=True)
    (fake / "conversation").mkdir()
    (fake / "conversation" / "live.py").write_text("")
    (fake / "store" / "soul.py").write_text("import os\n\nfrom ..conversation import live\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ANIMA"]), "ANIMA", fake)
    assert upward_imports() == ["anima/store/soul.py:3 imports anima.conversation, a room above store"]
