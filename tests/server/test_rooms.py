"""The game server's rooms (docs/architecture.md, "The server's rooms"): its subpackages and
the few modules directly in `server/`, the table of which may import which (the import graph
as grimp sees it: every import statement, deferred ones inside functions and those under
TYPE_CHECKING too), no cycle between rooms nor between any two modules, and no module
reaching for another module's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server"
PKG = "cardtable.server"

#: room -> the rooms it may import. A room is a subpackage of server/ or a module directly in
#: it ("server" is the package's __init__: the `cardtable-server` command line).
ALLOWED: dict[str, set[str]] = {
    "guard": set(),                      # sizes, rates, addresses, connections, log-in attempts
    "clock": set(),                      # the time every table and the store read
    "observe": {"guard"},                # metrics, log lines, the access log
    "config": {"guard"},                 # Settings (with guard's Limits), database URLs
    "options": {"config", "guard"},      # the table of settings: flags, environment, file
    "errors": {"guard"},                 # the HTTP API's errors
    "protocol": {"guard"},               # the messages and bodies (pydantic)
    "store": {"clock", "config"},        # the database, transactions, migrations
    "mail": {"config"},                  # sending e-mail through the operator's SMTP server
    "people": {"clock", "config", "errors", "guard", "protocol", "store"},
    "mod": {"config", "guard", "people", "store"},   # roles, audit log, bans, blocks, reports
    "tables": {"clock", "config", "errors", "guard", "observe", "people", "protocol",
               "store"},
    "talk": {"clock", "config", "errors", "guard", "protocol", "store", "tables"},
    "games": {"config", "errors", "guard", "protocol", "tables"},
    "ws": {"clock", "config", "errors", "guard", "mod", "observe", "people", "protocol",
           "store", "tables", "talk"},
    "http": {"clock", "config", "errors", "games", "guard", "mail", "mod", "observe", "people",
             "protocol", "store", "tables", "talk"},
    "app": {"clock", "config", "errors", "games", "guard", "http", "mail", "mod", "observe", "people",
            "protocol", "store", "tables", "talk", "ws"},
    "server": {"app", "config", "guard", "options", "people", "store", "talk"},   # store: budget.py
    "__main__": {"server"},
}
MAX_TOP_MODULES = 12


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else "server"


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("cardtable", cache_dir=None)


def server_modules(graph) -> list[str]:
    return sorted(m for m in graph.modules if m == PKG or m.startswith(PKG + "."))


def room_arrows(graph) -> dict[tuple[str, str], list[str]]:
    """(importer room, imported room) -> the module imports that make the arrow."""
    out: dict[tuple[str, str], list[str]] = {}
    for m in server_modules(graph):
        for imported in graph.find_modules_directly_imported_by(m):
            if imported == PKG or imported.startswith(PKG + "."):
                a, b = room_of(m), room_of(imported)
                if a != b:
                    out.setdefault((a, b), []).append(f"{m} -> {imported}")
    return out


def outside_the_table(arrows, allowed) -> list[str]:
    return sorted(f"{a} -> {b}: {why[0]}" for (a, b), why in arrows.items()
                  if b not in allowed.get(a, set()))


def test_every_room_is_in_the_table(graph):
    assert {room_of(m) for m in server_modules(graph)} == set(ALLOWED)


def test_the_rooms_import_only_what_the_table_allows(graph):
    assert outside_the_table(room_arrows(graph), ALLOWED) == []


def test_the_table_sees_a_forbidden_arrow(graph):
    """The check is not blind: with one allowed arrow taken out of the table, it is found."""
    narrower = dict(ALLOWED, tables=ALLOWED["tables"] - {"store"})
    assert any(line.startswith("tables -> store: ")
               for line in outside_the_table(room_arrows(graph), narrower))


def _cycles(edges: dict[str, set[str]]) -> list[str]:
    """The nodes that reach themselves (depth-first over `edges`)."""
    def reaches(start, goal):
        seen, todo = set(), list(edges.get(start, ()))
        while todo:
            n = todo.pop()
            if n == goal:
                return True
            if n not in seen:
                seen.add(n)
                todo.extend(edges.get(n, ()))
        return False
    return sorted(n for n in edges if reaches(n, n))


def test_no_cycle_between_rooms(graph):
    assert _cycles(ALLOWED) == []
    actual: dict[str, set[str]] = {}
    for a, b in room_arrows(graph):
        actual.setdefault(a, set()).add(b)
    assert _cycles(actual) == []


def test_no_cycle_between_two_server_modules(graph):
    """Not directly (db <-> tx, hub <-> runtime were such) and not through others."""
    cycles = []
    for m in server_modules(graph):
        for imported in graph.find_modules_directly_imported_by(m):
            if imported.startswith(PKG + ".") and imported != m:
                back = graph.find_shortest_chain(importer=imported, imported=m)
                if back:
                    cycles.append(" -> ".join((m, *back)))
    assert cycles == []


def test_few_modules_directly_in_server():
    top = sorted(p.name for p in SERVER.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


# -- private names ----------------------------------------------------------------------------
def private_uses(path: Path) -> list[str]:
    """`from <server module> import _name` and `<server module alias>._name` in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()           # the local names bound to server modules
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(PKG)):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    out.append(f"{path.name}:{node.lineno} imports {a.name}")
                else:
                    modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(PKG):
                    modules.add(a.asname or a.name.split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                and node.value.id in modules):
            out.append(f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}")
    return sorted(out)


def test_no_module_takes_another_modules_private_names():
    found = [u for p in sorted(SERVER.rglob("*.py")) for u in private_uses(p)]
    assert found == []


def test_the_private_check_sees_them(tmp_path):
    code = tmp_path / "m.py"
    code.write_text("from cardtable.server.store.schema import _hidden, row_dict\n"
                    "from cardtable.server.people import accounts as A\n"
                    "import cardtable.server.tables.hub\n"
                    "x = A._marks + A.public + row_dict._ok\n"
                    "y = cardtable._z\n"
                    "class C:\n    def f(self):\n        return self._own\n")
    assert private_uses(code) == ["m.py:1 imports _hidden", "m.py:4 uses A._marks",
                                  "m.py:4 uses row_dict._ok", "m.py:5 uses cardtable._z"]
