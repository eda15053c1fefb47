"""Issue 30, "one house plan": a game is declared once (core/registry.py), and the packages
outside the games read the declaration instead of naming games; the import arrows between the
packages go one way (ast over src/, no install or plugin needed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

from cardtable.core.registry import games

SRC = Path(__file__).resolve().parents[1] / "src" / "cardtable"
#: the packages the registry work owns: zero files there may name a game
OWNED = ("core", "bots", "sim", "rl", "cli", "i18n")
#: the server's files that still name a game: the migration that corrects stored duel tables
#: (data of one game, fixed once: a migration is history, not a place a new game would touch).
#: The test fails when one of them stops, so that the list is tightened as they go.
KNOWN_REMAINDER = {
    "server/store/migrations/versions/0003_duel_shadow_partial.py",
}


def _own_modules() -> set[Path]:
    """The game packages and every module a game declares as its own (front end, codec,
    analytics, heuristics, batched simulator): these are the places that may name their game."""
    out: set[Path] = {SRC / "core" / "registry.py"}     # BUILTIN: the one list of the games
    for g in games():
        for dotted in (g.engine, g.ui, g.heuristics, g.codec, g.analytics, g.batch):
            if dotted is None or not dotted.startswith("cardtable."):   # a plugin's own package
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
    """The server and web read the declarations (protocol validation, table settings, GET
    /api/games, the replay API, the words through narration): what still names a game is this
    list, exactly, so a file that stops naming a game must leave it."""
    assert set(_naming_files(("server", "web"))) == KNOWN_REMAINDER


def test_the_counter_sees_a_name(tmp_path):
    """The counter is not blind: a literal naming a game is found (in any case, inside a
    longer text, in an f-string), a docstring is not; the exempt modules are the declared."""
    code = tmp_path / "m.py"
    code.write_text('"""Kombio and abluxxen in a docstring."""\n'
                    'A = {"kombio": 1}\nB = f"see {A} Abluxxen rules"\nC = "abluxxes"\n')
    assert names_a_game(code) == ["kombio", " Abluxxen rules"]
    assert _own_modules() >= {SRC / "cli" / "kombio_ui.py", SRC / "abluxxen" / "state.py",
                              SRC / "rl" / "kombio_codec.py", SRC / "sim" / "abluxxen_analytics.py"}


# -- import arrows ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def graph():
    """The import graph of cardtable (grimp, import-linter's engine: every import statement of
    every module, deferred ones inside functions too)."""
    return grimp.build_graph("cardtable", cache_dir=None)


@pytest.mark.parametrize("importer,imported", [("rl", "cli"), ("bots", "rl"), ("i18n", "core"),
                                               ("server", "cli"), ("web", "server"),
                                               ("server", "rl")])
def test_no_arrow_against_the_layers(graph, importer, imported):
    """Not directly and not through another package: rl draws no picture through the terminal
    front end, bots know no rl class, the catalog sits below core (core words its errors from
    it), so core and i18n form no cycle; the server takes its words from narration, not from
    the terminal front end, and the browser client (web: its pages and static files) is
    served by the server without importing it (the HTTP APIs, replays too, are the server's)."""
    chain = graph.find_shortest_chain(importer=f"cardtable.{importer}",
                                      imported=f"cardtable.{imported}", as_packages=True)
    assert chain is None, f"{importer} reaches {imported}: {' -> '.join(chain)}"
    # nor by a dotted name in a string, imported on first use ("cardtable.rl.policy:PolicyBot")
    named = [(p.name, n.value) for p in (SRC / importer).rglob("*.py")
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n.value.startswith(f"cardtable.{imported}.")]
    assert named == [], f"{importer} names {imported} modules: {named}"


def test_the_graph_sees_arrows(graph):
    """The check is not blind: arrows that are meant to exist are found."""
    assert graph.direct_import_exists(importer="cardtable.core", imported="cardtable.i18n",
                                      as_packages=True)
    assert graph.direct_import_exists(importer="cardtable.rl", imported="cardtable.core",
                                      as_packages=True)


PACKAGES = ("core", "abluxxen", "kombio", "i18n", "narration", "bots", "sim", "rl", "cli",
            "server", "web")


def test_no_cycle_between_packages(graph):
    """Issue 30: no two packages reach each other, directly or through others."""
    cycles = [(a, b) for i, a in enumerate(PACKAGES) for b in PACKAGES[i + 1:]
              if graph.find_shortest_chain(importer=f"cardtable.{a}", imported=f"cardtable.{b}",
                                           as_packages=True)
              and graph.find_shortest_chain(importer=f"cardtable.{b}", imported=f"cardtable.{a}",
                                            as_packages=True)]
    assert cycles == []


def test_every_python_file_is_one_concern_sized():
    """Issue 30: no Python file over 600 lines but the engines' state.py (a game's rules in
    one place); the browser's modules have their own test (tests/web/test_js_modules.py)."""
    big = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
           and p.name != "state.py"}
    assert big == {}


def test_the_tests_mirror_the_source_tree():
    """Issue 30: every package of src/cardtable has its tests in the folder of the same name
    under tests/ (the top of tests/ keeps only the tests of the project as a whole)."""
    tests = SRC.parents[1] / "tests"
    packages = sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").exists())
    assert {"core", "server", "web"} <= set(packages)
    missing = [p for p in packages if not any((tests / p).glob("test_*.py"))]
    assert missing == []
    top = sorted(p.name for p in tests.glob("test_*.py"))
    assert top == ["test_house_plan.py", "test_make.py", "test_plugin_game.py", "test_readme.py"]


def test_no_comment_points_at_a_tracker_issue():
    """Docstrings and comments say what a module is, not which tracker issue made it: a number
    of an issue means nothing to a reader of the code."""
    refs = [f"{p.relative_to(SRC)}:{i}" for p in SRC.rglob("*")
            if p.suffix in (".py", ".js", ".css")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"\b[Ii]ssues? #?\d+", line)]
    assert refs == []
