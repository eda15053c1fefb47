"""The one message catalog of cardtable: every text a player reads, in English and German.

    t(lang, key, **params)  ->  the message `key` of `lang`, formatted with `params`

The catalog is one JSON file per language beside this module (en.json, de.json): a flat
object, key -> message. Both front ends use the same files: the terminal (cardtable.cli) and
the server's event words through this module, the browser by loading the JSON as a static file
(no build step) and formatting it with the same rules (web/static/js/i18n.js). A test checks
that both languages hold the same keys with the same placeholders.

Messages are written in ICU MessageFormat, the subset both sides implement:
    {name}                                   a placeholder
    {n, plural, one {# card} other {# cards}}  plural forms (CLDR categories: zero, one, two,
                                             few, many, other, or an exact =N); # is the number
    {kind, select, bot {...} other {...}}    a choice by a word
A branch may hold placeholders and further plural/select parts. The plural category comes from
the CLDR rules of the language: Babel here, Intl.PluralRules in the browser. Apostrophes are
plain text: no message quotes a brace (the catalog test checks it), so the messages mean the
same to any ICU MessageFormat library.

A clause of the rules is named in one form only, a reference at the end of a sentence or of a
parenthesis: "… (AB-11).", "(KO-8..KO-10)", "(…, KO-16)". The terminal prints it as it stands;
the browser makes it a small link to the rules page, or leaves it out where no link can stand
(web/static/js/seats.js: withRefs, plainText), so it never prints a bare clause id.

Keys are grouped by prefix: `cli.*` the terminal's frame (main.py), `help.*` command-line help,
`err.*` the engines' refusals by IllegalDecision.code (their `params` are the placeholders),
`bot.*`/`seat.*` names of seats, `level.*` bot levels. A game's own words (its events, errors,
lessons, rule options, `game.<id>`) are in its package's `en.json`/`de.json`, under the first
two letters of its id (`ab.*`, `err.ab.*`, `learn.ab.*`).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from typing import Any

LANGS = ("en", "de")
DEFAULT = "en"

_PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


# -- the catalog ----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The messages of `lang` (key -> ICU message text): the house's, stored in `<lang>.json`
    beside this module, and those of every built-in game (a package of cardtable with its own
    `<lang>.json` beside its `__init__`), so a game's words are there before its declaration
    is read. A plugin's are joined when it is registered (`add`, from core/registry.py)."""
    if lang not in LANGS:
        raise KeyError(f"no catalog for language {lang!r}")
    here = resources.files(__name__)
    table = json.loads(here.joinpath(f"{lang}.json").read_text(encoding="utf-8"))
    for pkg in sorted(resources.files("cardtable").iterdir(), key=lambda p: p.name):
        own = pkg.joinpath(f"{lang}.json")
        if pkg.name != here.name and pkg.joinpath("__init__.py").is_file() and own.is_file():
            for key, msg in json.loads(own.read_text(encoding="utf-8")).items():
                table.setdefault(key, msg)
    return table


def add(lang: str, messages: dict[str, str]) -> None:
    """Join a game's own messages to the catalog of `lang` (core/registry.py does, for a game
    that brings its words): a key the catalog has already keeps its text."""
    table = catalog(lang)
    for key, msg in messages.items():
        table.setdefault(key, msg)


def has(key: str) -> bool:
    return key in catalog(DEFAULT)


def t(lang: str, key: str, /, **params: Any) -> str:
    """The message `key` in `lang` (unknown language: English), formatted with `params`.
    A key missing from `lang` falls back to English (the catalog test keeps both complete);
    a key missing from English is a KeyError."""
    table = catalog(lang if lang in LANGS else DEFAULT)
    msg = table.get(key)
    if msg is None:
        msg = catalog(DEFAULT)[key]
    return format_message(msg, lang if lang in LANGS else DEFAULT, params)


# -- ICU MessageFormat (the subset in the module docstring) ---------------------------------------
class MessageSyntaxError(ValueError):
    """A catalog message that is not well-formed ICU MessageFormat (of our subset)."""


def _parse(msg: str, i: int = 0, depth: int = 0, in_plural: bool = False) -> tuple[list, int]:
    """Parse `msg` from `i` up to an unmatched '}' (or the end): a list of parts, the end index.
    A part is a str, ("arg", name), ("pound",), ("plural", name, {sel: parts}) or
    ("select", name, {sel: parts})."""
    parts: list = []
    buf: list[str] = []
    n = len(msg)
    while i < n:
        c = msg[i]
        if c == "}":
            if depth == 0:
                raise MessageSyntaxError(f"unmatched '}}' at {i} in {msg!r}")
            break
        if c == "#" and in_plural:
            if buf:
                parts.append("".join(buf))
                buf = []
            parts.append(("pound",))
            i += 1
            continue
        if c != "{":
            buf.append(c)
            i += 1
            continue
        if buf:
            parts.append("".join(buf))
            buf = []
        close = i + 1
        while close < n and msg[close] not in "{},":
            close += 1
        name = msg[i + 1:close].strip()
        if not name.isidentifier():
            raise MessageSyntaxError(f"bad placeholder name {name!r} in {msg!r}")
        if close < n and msg[close] == "}":
            parts.append(("arg", name))
            i = close + 1
            continue
        if close >= n or msg[close] != ",":
            raise MessageSyntaxError(f"unclosed placeholder in {msg!r}")
        kind_end = msg.index(",", close + 1) if "," in msg[close + 1:] else -1
        if kind_end < 0:
            raise MessageSyntaxError(f"bad plural/select in {msg!r}")
        kind = msg[close + 1:kind_end].strip()
        if kind not in ("plural", "select"):
            raise MessageSyntaxError(f"unknown argument type {kind!r} in {msg!r}")
        j = kind_end + 1
        branches: dict[str, list] = {}
        while True:
            while j < n and msg[j].isspace():
                j += 1
            if j < n and msg[j] == "}":
                j += 1
                break
            k = j
            while k < n and not msg[k].isspace() and msg[k] != "{":
                k += 1
            selector = msg[j:k]
            while k < n and msg[k].isspace():
                k += 1
            if not selector or k >= n or msg[k] != "{":
                raise MessageSyntaxError(f"bad {kind} branch near {j} in {msg!r}")
            if kind == "plural" and not (selector in _PLURAL_CATEGORIES
                                         or (selector.startswith("=")
                                             and selector[1:].isdigit())):
                raise MessageSyntaxError(f"unknown plural category {selector!r} in {msg!r}")
            body, k = _parse(msg, k + 1, depth + 1, in_plural=(kind == "plural") or in_plural)
            if k >= n or msg[k] != "}":
                raise MessageSyntaxError(f"unclosed {kind} branch in {msg!r}")
            branches[selector] = body
            j = k + 1
        if "other" not in branches:
            raise MessageSyntaxError(f"a {kind} without 'other' in {msg!r}")
        parts.append((kind, name, branches))
        i = j
    if buf:
        parts.append("".join(buf))
    if depth > 0 and (i >= n or msg[i] != "}"):
        raise MessageSyntaxError(f"unclosed branch in {msg!r}")
    return parts, i


@lru_cache(maxsize=4096)
def parse(msg: str) -> tuple:
    """The parts of `msg` (cached). MessageSyntaxError if it is malformed."""
    parts, _ = _parse(msg)
    return tuple(parts)


def plural_category(lang: str, n) -> str:
    """The CLDR plural category of the number `n` in `lang` ('one', 'other', ...)."""
    return _locale(lang).plural_form(abs(n))


@lru_cache(maxsize=None)
def _locale(lang: str):
    from babel import Locale

    return Locale.parse(lang)


def _render(parts, lang: str, params: dict, number=None) -> str:
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif p[0] == "arg":
            if p[1] not in params:
                raise KeyError(f"message needs the parameter {p[1]!r}")
            out.append(str(params[p[1]]))
        elif p[0] == "pound":
            out.append(str(number))
        else:
            kind, name, branches = p
            if name not in params:
                raise KeyError(f"message needs the parameter {name!r}")
            value = params[name]
            if kind == "plural":
                exact = f"={value}"
                body = branches.get(exact)          # an exact match, even an empty branch
                if body is None:
                    body = branches.get(plural_category(lang, value), branches["other"])
                out.append(_render(body, lang, params, value))
            else:
                body = branches.get(str(value), branches["other"])
                out.append(_render(body, lang, params, number))
    return "".join(out)


def format_message(msg: str, lang: str, params: dict) -> str:
    """`msg` (ICU MessageFormat) with `params` filled in, plural forms chosen for `lang`."""
    return _render(parse(msg), lang, params)


def placeholders(msg: str) -> set[str]:
    """The names of every placeholder, plural and select argument in `msg`."""
    names: set[str] = set()

    def walk(parts):
        for p in parts:
            if isinstance(p, tuple) and p[0] in ("arg", "plural", "select"):
                names.add(p[1])
                if p[0] != "arg":
                    for body in p[2].values():
                        walk(body)

    walk(parse(msg))
    return names


# -- the player's language ------------------------------------------------------------------------
def default_lang(env: dict | None = None) -> str:
    """de if the locale (LC_ALL, LC_MESSAGES, LANG: the first one set) starts with 'de'."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def join(items: list[str], lang: str) -> str:
    """'A', 'A and B', 'A, B and C' in `lang`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + t(lang, "list.and") + items[-1]


def level(lang: str, bot: str) -> str:
    """A bot's name or level in `lang` ('easy' -> 'leicht'); an unknown name as it is."""
    return t(lang, "level." + bot) if has("level." + bot) else bot


def rule_set(lang: str, game: str, variant: str | None = None) -> str:
    """A rule set's display name in `lang`: "Abluxxen", "Abluxxen, Duell (2 Spieler)" (a
    variant the catalog names; an unknown game or variant id as it is)."""
    name = t(lang, "game." + game) if has("game." + game) else game
    if variant and has("variant." + variant):
        return t(lang, "list.rule_set", game=name, variant=t(lang, "variant." + variant))
    return f"{name} {variant}" if variant else name


def foreign_words(lang: str, other: str, min_words: int = 3) -> set[str]:
    """Pieces of `lang`'s messages (at least `min_words` words, cut at punctuation) that no
    message of `other` contains: if one shows up in what a player of `other` reads, a text of the
    wrong language reached them (the one-language tests look for these)."""
    import re

    theirs = " ".join(catalog(other).values())
    found: set[str] = set()

    def literals(parts):
        for p in parts:
            if isinstance(p, str):
                yield p
            elif p[0] in ("plural", "select"):
                for body in p[2].values():
                    yield from literals(body)

    for msg in catalog(lang).values():
        for piece in literals(parse(msg)):
            for chunk in re.split(r"[`'\"„“”()\[\]{}:;,.!?·—–/|]", piece):
                chunk = " ".join(chunk.split())
                if len(re.findall(r"[A-Za-zÄÖÜäöüß]{2,}", chunk)) >= min_words \
                        and chunk not in theirs:
                    found.add(chunk)
    return found
