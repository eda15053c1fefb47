"""The browser client's modules (src/cardtable/web/static/js, and each built-in game's own in
its package, src/cardtable/<game>/web, served at /games/<game>/), read as text: one concern per
file (none over 500 lines), every module another one imports exists and exports what is
imported from it, and only the games' own modules name a game by a string literal (the client
learns the games from GET /api/games). A static check: no browser, no server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.core.registry import games

ROOT = Path(__file__).resolve().parents[2] / "src" / "cardtable"
JS = ROOT / "web" / "static" / "js"
INDEX = ROOT / "web" / "static" / "index.html"
MAX_LINES = 500
#: the built-in games' own modules, each in its game's package (GameInfo.web)
GAME_JS = sorted(ROOT.glob("*/web/*.js"))
#: the files that may name a game: the games' own modules
NAMING_ALLOWED = {p.name for p in GAME_JS}


def paths() -> dict[str, Path]:
    """Every module by its file name (the client's and the built-in games' own)."""
    out = {p.name: p for p in sorted(JS.glob("*.js"))}
    for p in GAME_JS:
        assert p.name not in out, f"two modules named {p.name}"
        out[p.name] = p
    return out


def modules() -> dict[str, str]:
    return {name: p.read_text(encoding="utf-8") for name, p in paths().items()}


def resolve(importer: Path, spec: str) -> Path:
    """The file an import specifier of `importer` names: relative (./x.js), the client's
    (/static/js/x.js) or a game's (/games/<game>/x.js)."""
    if spec.startswith("/static/js/"):
        return JS / spec.removeprefix("/static/js/")
    if spec.startswith("/games/"):
        game, _, name = spec.removeprefix("/games/").partition("/")
        return ROOT / game / "web" / name
    return importer.parent / spec.removeprefix("./")


def game_names() -> list[str]:
    """The games the registry has now (the built-in ones, and a plugin while it is installed),
    not as this test would guess."""
    names = [g.name for g in games()]
    assert names, names
    return names


# -- a small JavaScript tokenizer: string literals (and template literals) apart from comments --
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}
_REGEX_KEYWORDS = {"return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await"}


def string_literals(src: str) -> list[tuple[int, str]]:
    """(line, text) of every '…', "…" and `…` literal in `src` (a template literal's text
    without its ${…} parts, whose own literals count on their own); comments and regular
    expression literals are skipped (a quote in a comment or a regex is not a string)."""
    out: list[tuple[int, str]] = []          # (index in src, text)
    n = len(src)

    def line_at(i: int) -> int:
        return src.count("\n", 0, i) + 1

    def code(i: int, in_braces: bool) -> int:
        """Scan code from i; in ${…} up to its closing brace (returns the index after it)."""
        prev, depth = "", 0
        while i < n:
            c = src[i]
            if c.isspace():
                i += 1
                continue
            if src.startswith("//", i):
                j = src.find("\n", i)
                i = n if j < 0 else j
                continue
            if src.startswith("/*", i):
                i = src.index("*/", i + 2) + 2
                continue
            if in_braces and c == "}" and depth == 0:
                return i + 1
            if c in "'\"":
                j, buf = i + 1, []
                while src[j] != c:
                    if src[j] == "\\":
                        buf.append(src[j:j + 2])
                        j += 2
                        continue
                    buf.append(src[j])
                    j += 1
                out.append((i, "".join(buf)))
                i, prev = j + 1, c
                continue
            if c == "`":
                i, prev = template(i), c
                continue
            if c == "/" and (prev in _REGEX_BEFORE or prev in _REGEX_KEYWORDS):
                j, in_class = i + 1, False
                while True:
                    d = src[j]
                    if d == "\\":
                        j += 2
                        continue
                    if d == "[":
                        in_class = True
                    elif d == "]":
                        in_class = False
                    elif d == "/" and not in_class:
                        break
                    j += 1
                i = j + 1
                while i < n and src[i].isalpha():
                    i += 1
                prev = "/"
                continue
            m = re.match(r"[A-Za-z_$][\w$]*", src[i:i + 200])
            if m:
                prev = m.group(0)
                i += len(prev)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            prev = c
            i += 1
        return i

    def template(i: int) -> int:
        j, buf = i + 1, []
        while src[j] != "`":
            if src[j] == "\\":
                buf.append(src[j:j + 2])
                j += 2
            elif src.startswith("${", j):
                buf.append("${}")
                j = code(j + 2, True)
            else:
                buf.append(src[j])
                j += 1
        out.append((i, "".join(buf)))
        return j + 1

    code(0, False)
    return [(line_at(i), text) for i, text in sorted(out)]


def test_tokenizer_finds_strings_not_comments():
    src = ('// "kombio" in a comment\n/* \'abluxxen\' */ const a = "x", b = /["\']/g;\n'
           'const c = `t ${a ? `in ${"kombio"}` : {}.k}`; const d = 1 / 2; const e = \'kombio\';\n')
    assert [s for _, s in string_literals(src)] == ["x", "t ${}", "in ${}", "kombio", "kombio"]


# -- the checks ---------------------------------------------------------------------------------
def test_no_module_over_500_lines():
    long = {name: src.count("\n") + (not src.endswith("\n")) for name, src in modules().items()}
    long = {name: n for name, n in long.items() if n > MAX_LINES}
    assert not long, f"JavaScript modules over {MAX_LINES} lines: {long}"


_SPEC = r"(?:\./|/static/js/|/games/[\w-]+/)"
_IMPORT_FROM = re.compile(r"\b(import|export)\s*(\{[^}]*\}|\*\s+as\s+\w+|\w+)?\s*(?:,\s*\{[^}]*\})?\s*from\s*[\"'](" + _SPEC + r"[^\"']+)[\"']")
_BARE_IMPORT = re.compile(r"\bimport\s*\(?\s*[\"'](" + _SPEC + r"[^\"']+)[\"']")
_MODULE_PATH = re.compile(r"[\"'](" + _SPEC + r"[\w.-]+\.(?:js|css))[\"']")


def exported_names(src: str) -> set[str]:
    names = set(re.findall(r"\bexport\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)", src))
    for group in re.findall(r"\bexport\s*\{([^}]*)\}", src):
        for part in group.split(","):
            part = part.strip()
            if part:
                names.add(part.split(" as ")[-1].strip())
    return names


def imported_names(clause: str) -> list[str]:
    """The names a `{ a, b as c }` clause takes from the other module (a, b)."""
    if not clause.startswith("{"):
        return []
    return [p.strip().split(" as ")[0].strip() for p in clause.strip("{}").split(",") if p.strip()]


def test_every_imported_module_exists_and_exports_what_is_imported():
    mods, files = modules(), paths()
    assert "app.js" in mods and "games.js" in mods
    assert {"abluxxen.js", "kombio.js"} <= set(mods)
    problems = []
    for name, src in mods.items():
        specs = {m.group(3) for m in _IMPORT_FROM.finditer(src)} | set(_BARE_IMPORT.findall(src))
        specs |= set(_MODULE_PATH.findall(src))    # a module or style named for a dynamic import
        for path in sorted(specs):
            if not resolve(files[name], path).is_file():
                problems.append(f"{name} imports {path}: no such module")
        for m in _IMPORT_FROM.finditer(src):
            target = resolve(files[name], m.group(3))
            if not target.is_file() or not m.group(2):
                continue
            missing = set(imported_names(m.group(2))) - exported_names(target.read_text(encoding="utf-8"))
            if missing:
                problems.append(f"{name} imports {sorted(missing)} from {m.group(3)}: not exported there")
    assert not problems, "\n".join(problems)


def test_the_page_loads_the_entry_module_of_this_origin():
    html = INDEX.read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts, "index.html loads no script"
    for attrs, body in scripts:
        assert not body.strip(), "an inline script (the CSP allows scripts of this origin only)"
        src = re.search(r'src="/static/js/([\w.-]+)"', attrs)
        assert src and 'type="module"' in attrs, attrs
        assert (JS / src.group(1)).is_file(), src.group(1)


def test_only_the_games_table_and_the_games_modules_name_a_game():
    games = game_names()
    word = re.compile(r"\b(" + "|".join(map(re.escape, games)) + r")\b", re.I)
    naming = {}
    for name, src in modules().items():
        hits = [f"{line}: {text!r}" for line, text in string_literals(src) if word.search(text)]
        if hits and name not in NAMING_ALLOWED:
            naming[name] = hits
    assert not naming, f"modules that name a game ({', '.join(games)}) by a string literal: {naming}"


@pytest.mark.parametrize("name", sorted(NAMING_ALLOWED))
def test_the_allowed_files_exist(name):
    """The allowance is not for files that are gone (a renamed module would hide here)."""
    assert name in paths() and paths()[name].is_file()


# -- no module reads the notation (issue 30: decisions travel as JSON) ----------------------------
NOTATION = ROOT.parents[1] / "docs" / "notation.md"
#: a method that takes a text apart, called on a decision text or a list of them
_TEXT_APART = re.compile(
    r"\b(?:decision|legal)\b(?:\s*\|\|\s*(?:\"\"|''|\[\])\s*\))?(?:\.\w+\(\))*"
    r"\.(?:split|slice|substring|substr|startsWith|endsWith|match|matchAll|replace|trim)\s*\(")


def decision_words() -> set[str]:
    """The first words of the decisions, as docs/notation.md's tables of decisions list them
    (`play 7 7 7 X`, `hand-over`, ...), not as this test would guess."""
    words = set()
    for line in NOTATION.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if line.startswith("| `") and len(cells) > 2:
            words |= {w.split()[0] for w in re.findall(r"`([^`]+)`", cells[1])}
    assert {"play", "draw", "shadow", "peek", "snap", "hand-over"} <= words, words
    return words


def test_no_module_parses_or_writes_the_notation():
    """Every decision reaches the browser as JSON (state `decisions`, event and replay `move`:
    text, kind, args); a module reads kind and args and sends the text as given. So no module
    has a literal that starts a decision's text ("play ", `draw pool ${key}`), takes a
    decision text apart (`ev.decision.split(...)`, `legal.filter(d => ...).slice`), or parses
    the list of legal texts (`parseLegal`)."""
    starts = re.compile(r"^(" + "|".join(map(re.escape, sorted(decision_words()))) + r") ")
    problems = []
    for name, src in modules().items():
        problems += [f"{name}:{line}: the literal {text!r} starts a decision's text"
                     for line, text in string_literals(src) if starts.match(text)]
        for m in _TEXT_APART.finditer(src):
            problems.append(f"{name}:{src.count(chr(10), 0, m.start()) + 1}: "
                            f"{m.group(0)!r} takes a decision text apart")
        if re.search(r"\bparseLegal\b", src):
            problems.append(f"{name}: parseLegal")
    assert not problems, "\n".join(problems)


#: the catalog keys of the "whose turn and why" line: the server's (narration `web_why`)
WHY_KEYS = re.compile(r"^(web\.)?(ab|ko)\.why\.")


def test_no_module_writes_the_why_line_itself():
    """The "whose turn and why" line has one implementation, narration's `web_why` in
    Python (issue 30): the server sends it with each state and replay step, and the game
    modules show it as sent. No module has a `whyText` of its own or words the line with the
    catalog's why keys."""
    own = {}
    for name, src in modules().items():
        hits = [f"{line}: {text!r}" for line, text in string_literals(src) if WHY_KEYS.match(text)]
        hits += [f"defines {m}" for m in re.findall(r"\bfunction\s+(\w*[wW]hy\w*)\s*\(", src)]
        if hits:
            own[name] = hits
    assert not own, f"modules that word the why line themselves: {own}"
    # the game modules show the server's line
    for name in ("abluxxen.js", "kombio.js"):
        assert "opts.why" in modules()[name], name
