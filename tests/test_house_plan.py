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
#: the files outside the games' packages that name a game: the registry (BUILTIN, the one list
#: of the built-in games) and the migration that corrects stored duel tables (data of one game,
#: fixed once: a migration is history, not a place a new game would touch). The test fails when
#: one of them stops, so that the list is tightened as they go.
KNOWN_REMAINDER = {
    "core/registry.py",
    "server/store/migrations/versions/0003_duel_shadow_partial.py",
}
#: files under src/cardtable named after a game outside its package (none: a game's trained
#: policies are in its own package, GameInfo.policies)
NAMED_FILES_REMAINDER: set[str] = set()
#: a game's front-end modules (the fields of its declaration, each a module or subpackage of
#: the game's own package) and the layers each may import besides core and its own game
FRONT_ENDS = {"ui": {"cli", "narration", "i18n"}, "narration": {"narration", "i18n"},
              "codec": {"rl"}, "batch": {"rl"}, "analytics": {"sim", "bots"}}


def game_packages() -> dict[str, Path]:
    """The built-in games' packages (name -> folder): everything of a game is in it, as in a
    plugin's own package (a plugin is not under src/cardtable)."""
    return {g.name: SRC.joinpath(*g.engine.split(".")[1:]) for g in games()
            if g.engine.startswith("cardtable.")}


def _in_a_game(path: Path) -> bool:
    return any(path.is_relative_to(pkg) for pkg in game_packages().values())


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


def _naming_files() -> dict[str, list[str]]:
    """The Python files outside the games' packages that name a game."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        if not _in_a_game(path) and (hits := names_a_game(path)):
            out[path.relative_to(SRC).as_posix()] = hits
    return out


def test_a_game_is_named_only_in_its_own_package():
    """Every package outside the games reads the declarations (protocol validation, table
    settings, GET /api/games, the replay API, the words through narration, the terminal, the
    bots, rl, sim): what still names a game outside its package is this list, exactly, so a file
    that stops naming a game must leave it."""
    assert set(_naming_files()) == KNOWN_REMAINDER


def test_no_file_outside_a_game_is_named_after_it():
    """Every file of a game (its modules, terminal and browser front ends, codec, batched
    simulator, words, rules page, learned weights) is in its package: none elsewhere under
    src/cardtable is named after a game (but the known remainder)."""
    word = re.compile("|".join(re.escape(g) for g in game_packages()), re.I)
    named = {p.relative_to(SRC).as_posix() for p in SRC.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and not _in_a_game(p)
             and word.search(p.relative_to(SRC).as_posix())}
    assert named == NAMED_FILES_REMAINDER


def test_the_declarations_name_modules_of_their_own_package():
    """A built-in game declares its front ends in its own package, as a plugin does:
    `<package>.ui`, `.narration`, `.codec`, `.batch...`, `.analytics`, `.web`, `.values`."""
    for g in games():
        if not g.engine.startswith("cardtable."):
            continue
        for kind in (*FRONT_ENDS, "heuristics", "lessons", "web", "values"):
            dotted = getattr(g, kind)
            assert dotted is None or dotted.startswith(f"{g.engine}."), (g.name, kind, dotted)
        assert g.narration and g.web and g.ui, g.name


def test_the_counter_sees_a_name(tmp_path):
    """The counter is not blind: a literal naming a game is found (in any case, inside a
    longer text, in an f-string), a docstring is not; the games' packages are where the
    declarations are."""
    code = tmp_path / "m.py"
    code.write_text('"""Kombio and abluxxen in a docstring."""\n'
                    'A = {"kombio": 1}\nB = f"see {A} Abluxxen rules"\nC = "abluxxes"\n')
    assert names_a_game(code) == ["kombio", " Abluxxen rules"]
    assert game_packages() == {"abluxxen": SRC / "abluxxen", "kombio": SRC / "kombio"}
    assert _in_a_game(SRC / "kombio" / "batch" / "env.py")
    assert not _in_a_game(SRC / "rl" / "batch" / "jit.py")


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


def _package_of(module: str) -> str:
    """The package of cardtable a module is in ("cardtable.rl.batch.jit" -> "rl")."""
    return module.split(".")[1] if module.count(".") else ""


def test_a_games_engine_imports_only_core_and_its_front_ends_their_layer(graph):
    """A game's engine modules (rules, state, heuristics, lessons, ...) import only core; each
    front end may import besides the layer it serves: the terminal picture (ui) cli, the words
    narration and i18n, the codec and the batched simulator rl, the statistics sim and bots.
    As for a plugin, whose package imports cardtable the same way."""
    wrong = []
    for name, pkg in game_packages().items():
        top = f"cardtable.{name}"
        for module in sorted(graph.find_descendants(top) | {top}):
            kind = module.removeprefix(top + ".").split(".")[0] if module != top else ""
            allowed = {"core", name} | FRONT_ENDS.get(kind, set())
            for imported in graph.find_modules_directly_imported_by(module):
                if _package_of(imported) not in allowed:
                    wrong.append(f"{module} imports {imported}")
    assert wrong == []


def test_no_shared_package_imports_a_game(graph):
    """The packages outside the games reach a game only through its declaration (the
    registry's dotted names, imported on use), never by an import statement."""
    own = {f"cardtable.{name}" for name in game_packages()}
    wrong = [f"{m} imports {i}" for m in sorted(graph.modules)
             if m.startswith("cardtable.") and ".".join(m.split(".")[:2]) not in own
             for i in graph.find_modules_directly_imported_by(m)
             if ".".join(i.split(".")[:2]) in own]
    assert wrong == []


def test_the_layer_checks_see_arrows(graph):
    """Those two checks are not blind: a front end's import of its layer and the registry's
    dotted names are where the tests expect them."""
    assert graph.direct_import_exists(importer="cardtable.abluxxen.ui",
                                      imported="cardtable.cli.games")
    assert graph.direct_import_exists(importer="cardtable.kombio.batch.env",
                                      imported="cardtable.rl.batch.common")
    assert "cardtable.kombio.batch.kernels" in graph.find_descendants("cardtable.kombio")


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


def test_the_wheel_ships_every_file_that_is_not_python():
    """An installed wheel (not only a source tree) has every game's data: the package-data
    globs of pyproject.toml (setuptools expands them as pathlib does) cover every file under
    src/cardtable that is not Python: each game's rules page, browser module and styles,
    learned weights; the catalogs, the client, the migrations. Nothing is built."""
    import tomllib

    project = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]
    covered = {p for pattern in data["cardtable"] for p in SRC.glob(pattern) if p.is_file()}
    files = [p for p in SRC.rglob("*") if p.is_file() and "__pycache__" not in p.parts
             and p.suffix not in (".py", ".pyc")]
    assert any(_in_a_game(p) and p.suffix == ".js" for p in files)
    assert sorted(p.relative_to(SRC).as_posix() for p in files if p not in covered) == []


def test_no_module_imports_another_modules_private_names():
    """What one module shares with another is public: no `from cardtable.x import _y` anywhere
    under src/cardtable (a plugin game builds on the same public names)."""
    taken = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cardtable"):
                taken += [f"{path.relative_to(SRC)}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert taken == []
