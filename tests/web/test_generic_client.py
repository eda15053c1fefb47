"""Issue 30: the generic client names no game. A game's texts and classes (its `ko.` catalog
keys, its `ko-` classes) belong to its own module, which table.js, replay.js and the lobby call
through the game-module interface (games.js); its styles are in css/<game>.css, not in app.css.
A static check, as test_js_modules.py (whose reader of string literals it uses)."""

from __future__ import annotations

import json
import re
from importlib import resources

from cardtable import i18n
from cardtable.core.registry import info
from test_js_modules import NAMING_ALLOWED, ROOT, game_names, modules, string_literals



CSS = ROOT / "web" / "static" / "css"


def game_prefixes() -> list[str]:
    """A game's own catalog keys and class names start with its prefix ("ko.rs.left",
    "ko-grid"), the one its refusals' codes carry (`err.ko.…`), read from its own catalog (its
    package's en.json), not guessed from its name."""
    prefixes = set()
    for g in game_names():
        own = json.loads(resources.files(info(g).catalog).joinpath("en.json").read_text("utf-8"))
        mine = {k.split(".")[1] for k in own if k.startswith("err.")}
        assert mine, g
        prefixes |= mine
    return sorted(prefixes)


def test_the_generic_modules_use_no_games_keys_or_classes():
    """Issue 30: a text or a class of one game (a `ko.` catalog key, a `ko-` class) is used by
    that game's module, which the generic ones call through the game-module interface
    (games.js), not by the table, the replay or the lobby."""
    own = re.compile(r"^(" + "|".join(map(re.escape, game_prefixes())) + r")[.-]\w")
    naming = {}
    for name, src in modules().items():
        hits = [f"{line}: {text!r}" for line, text in string_literals(src) if own.match(text)]
        if hits and name not in NAMING_ALLOWED and not name.startswith(tuple(game_names())):
            naming[name] = hits
    assert not naming, f"generic modules that use a game's keys or classes: {naming}"


def test_the_generic_styles_name_no_game():
    """Issue 30: app.css holds no game's styles (a `.ko-…` or `.card-kombio` selector): each
    game's are in its package's web/<game>.css, loaded with its module (games.js)."""
    games = game_names()
    word = re.compile(r"\b(" + "|".join(map(re.escape, games)) + r")\b", re.I)
    own = re.compile(r"\.(" + "|".join(map(re.escape, game_prefixes())) + r")-\w")
    for sheet in ("app.css", "replay.css"):
        css = re.sub(r"/\*.*?\*/", "", (CSS / sheet).read_text(encoding="utf-8"), flags=re.S)
        hits = [line for line in css.splitlines() if word.search(line) or own.search(line)]
        assert hits == [], f"{sheet} holds styles of a game: {hits[:5]}"
    for g in games:
        assert resources.files(info(g).web).joinpath(f"{g}.css").is_file(), g
