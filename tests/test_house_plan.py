"""Issue 30, "one house plan": a game is declared once (core/registry.py), and the packages
outside the games read the declaration instead of naming games; the import arrows between the
packages go one way (ast over src/, no install or plugin needed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from cardtable.core.registry import games

SRC = Path(__file__).resolve().parents[1] / "src" / "cardtable"
#: the packages the registry work owns: zero files there may name a game
OWNED = ("core", "bots", "sim", "rl", "cli", "i18n")
#: the lead's later work (the server onto the registry): the files that name a game today;
#: the test fails when one of them stops, so the list is tightened as they go
KNOWN_REMAINDER = {
    "server/__init__.py", "server/app.py", "server/protocol.py", "server/runtime.py",
    "server/views.py", "server/migrations/versions/0003_duel_shadow_partial.py",
    "web/replay_api.py",
}


def _own_modules() -> set[Path]:
    """The game packages and every module a game declares as its own (front end, codec,
    analytics, heuristics): these are the places that may name their game."""
    out: set[Path] = {SRC / "core" / "registry.py"}     # BUILTIN: the one list of the games
    for g in games():
        for dotted in (g.engine, g.ui, g.heuristics, g.codec, g.analytics):
            if dotted is None:
                continue
            rel = dotted.partition(":")[0].split(".")[1:]
            pkg = SRC.joinpath(*rel)
            if g.engine.partition(":")[0].split(".")[1:] == rel:      # the whole package
                out.update(pkg.rglob("*.py"))
            else:
                out.add(pkg.with_suffix(".py"))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def names_a_game(path: Path) -> list[str]:
    """The string literals of `path` (docstrings aside) that name a game as a word."""
    pattern = re.compile(r"\b(" + "|".join(re.escape(g.name) for g in games()) + r")\b", re.I)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs and pattern.search(n.value)]


def _naming_files(packages) -> dict[str, list[str]]:
    own = _own_modules()
    out = {}
    for pkg in packages:
        for path in sorted((SRC / pkg).rglob("*.py")):
            if path in own:
                continue
            hits = names_a_game(path)
            if hits:
                out[path.relative_to(SRC).as_posix()] = hits
    return out


def test_the_owned_packages_name_no_game():
    assert _naming_files(OWNED) == {}


def test_the_server_remainder_is_the_known_list():
    """The server and web still name games (the lead moves them onto the registry): the list
    is exact, so a file that stops naming a game must leave it."""
    assert set(_naming_files(("server", "web"))) == KNOWN_REMAINDER


def test_the_counter_sees_a_name():
    """The counter is not blind: a literal naming a game is found, a docstring is not."""
    code = SRC / "sim" / "tournament.py"
    assert names_a_game(code) == []
    assert _own_modules() >= {SRC / "cli" / "kombio_ui.py", SRC / "abluxxen" / "state.py"}


# -- import arrows ----------------------------------------------------------------------------
def _imports() -> dict[str, set[str]]:
    """package -> the cardtable packages its modules import (at any depth of the module, so a
    deferred import counts as well)."""
    out: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).parts
        if len(rel) < 2:
            continue
        pkg = rel[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                mods = [node.module]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            else:
                continue
            for m in mods:
                parts = m.split(".")
                if parts[0] == "cardtable" and len(parts) > 1 and parts[1] != pkg:
                    out.setdefault(pkg, set()).add(parts[1])
    return out


def test_no_arrow_against_the_layers():
    imports = _imports()
    assert "cli" not in imports.get("rl", set()), "rl imports cli"
    assert "rl" not in imports.get("bots", set()), "bots import rl"
    assert "core" not in imports.get("i18n", set()), "i18n imports core"


def test_no_cycle_between_core_and_i18n():
    imports = _imports()
    assert not ("i18n" in imports.get("core", set()) and "core" in imports.get("i18n", set()))
