"""The one message catalog (cardtable.i18n: en.json, de.json), shared by the terminal, the
server's event words and the browser: both languages complete, the same placeholders, messages
that parse as ICU MessageFormat, plural forms by the CLDR rules, and the browser's formatter
(web/static/js/messages.js, run with node) giving the same text as Python's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import i18n
from cardtable.i18n import MessageSyntaxError, catalog, format_message, placeholders, t

EN, DE = catalog("en"), catalog("de")


def test_both_languages_have_every_key():
    assert set(EN) - set(DE) == set(), "keys missing in de.json"
    assert set(DE) - set(EN) == set(), "keys missing in en.json"


@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders_and_well_formed(key):
    assert EN[key].strip() and DE[key].strip(), key
    assert placeholders(EN[key]) == placeholders(DE[key]), key


def test_no_quoted_braces():
    """Apostrophes are plain text in our subset; in ICU an apostrophe before a brace would
    quote it, so no message has one: the texts mean the same to any ICU library."""
    for lang, table in (("en", EN), ("de", DE)):
        for key, msg in table.items():
            assert "'{" not in msg and "'}" not in msg and "''" not in msg, (lang, key)


@pytest.mark.parametrize("lang,n,word", [("en", 1, "1 card"), ("en", 0, "0 cards"),
                                         ("en", 2, "2 cards"), ("de", 1, "1 Karte"),
                                         ("de", 0, "0 Karten"), ("de", 7, "7 Karten")])
def test_plural_forms(lang, n, word):
    assert t(lang, "ko.cards", n=n) == word


def test_an_empty_exact_branch_is_taken():
    """ICU: "=0 {}" is a branch that says nothing, not a missing one (the browser agreed)."""
    assert format_message("a{n, plural, =0 {} other {x}}b", "en", {"n": 0}) == "ab"
    assert format_message("a{n, plural, =0 {} one {} other {x}}b", "en", {"n": 1}) == "ab"


def test_plural_exact_and_select_and_nesting():
    msg = "{n, plural, =0 {none} one {# {what}} other {{kind, select, bot {# bots} other {# of {what}}}}}"
    assert format_message(msg, "en", {"n": 0, "what": "x", "kind": "bot"}) == "none"
    assert format_message(msg, "en", {"n": 1, "what": "x", "kind": "bot"}) == "1 x"
    assert format_message(msg, "en", {"n": 3, "what": "x", "kind": "bot"}) == "3 bots"
    assert format_message(msg, "de", {"n": 3, "what": "x", "kind": "p"}) == "3 of x"
    assert placeholders(msg) == {"n", "what", "kind"}


@pytest.mark.parametrize("bad", ["{n, plural, one {x}}", "{n, plural, one {x} other {y}",
                                 "a } b", "{n, plural, lots {x} other {y}}", "{a b}",
                                 "{n, number}"])
def test_malformed_messages_are_refused(bad):
    with pytest.raises(MessageSyntaxError):
        i18n.parse(bad)


def test_missing_parameter_is_an_error():
    with pytest.raises(KeyError):
        t("en", "ko.cards")


@given(st.text(alphabet=st.characters(blacklist_characters="{}#", blacklist_categories=["Cs"])))
@settings(max_examples=200)
def test_plain_text_formats_to_itself(text):
    assert format_message(text, "de", {}) == text


# -- the browser's formatter gives the same text --------------------------------------------------
JS = Path(i18n.__file__).parents[1] / "web" / "static" / "js" / "messages.js"


def _sample_params(msg: str) -> list[dict]:
    names = placeholders(msg)
    out = []
    for n in (0, 1, 2, 5, 21):
        out.append({k: (n if re.search(r"\{" + k + r", plural", msg) else
                        ("bot" if re.search(r"\{" + k + r", select", msg) else f"<{k}>"))
                    for k in names})
    return out


@pytest.mark.skipif(shutil.which("node") is None or not JS.exists(),
                    reason="node or messages.js missing")
def test_browser_formatter_matches_python(tmp_path):
    cases = []
    for lang, table in (("en", EN), ("de", DE)):
        for key, msg in table.items():
            for params in _sample_params(msg):
                cases.append({"lang": lang, "msg": msg, "params": params,
                              "want": format_message(msg, lang, params)})
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    script = tmp_path / "check.mjs"
    script.write_text(
        f"import {{ formatMessage }} from {json.dumps(JS.as_uri())};\n"
        "import fs from 'fs';\n"
        "const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));\n"
        "let bad = [];\n"
        "for (const c of cases) { const got = formatMessage(c.msg, c.lang, c.params);\n"
        "  if (got !== c.want) bad.push({msg: c.msg, got, want: c.want}); }\n"
        "console.log(JSON.stringify({n: cases.length, bad: bad.slice(0, 5)}));\n",
        encoding="utf-8")
    proc = subprocess.run(["node", str(script), str(tmp_path / "cases.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["n"] == len(cases) and result["n"] > 1000
    assert result["bad"] == []


# -- the engines' refusals ------------------------------------------------------------------------
SWEEP = ["", "play", "play 99", "play 7 8", "play 7 7 7 7 7 7 7 7 7", "play X X X X X X",
         "play 13", "play X", "shadow", "shadow 3", "shadow 13", "draw", "draw deck",
         "draw pool 5", "draw pool 1+1", "take", "take 1", "leave", "keep", "discard", "pass",
         "pass 1", "fly", "replace", "replace 0", "replace 9", "peek 0.1", "peek 1.1",
         "peek 9.1", "peek 1.9", "peek 0.1 0.1", "peek 0.1 1.1", "peek x.1", "peek 1",
         "swap", "swap 0.1", "swap 0.1 1.1", "snap 0.1", "snap", "give 1", "give",
         "hand-over", "penalty", "kombio", "skip", "take 9"]


@pytest.mark.parametrize("game,opts", [("abluxxen", {"variant": "basic", "players": 3}),
                                       ("abluxxen", {"variant": "duel", "players": 2}),
                                       ("kombio", {"players": 3})])
def test_every_refusal_has_a_code_worded_in_both_languages(game, opts):
    """IllegalDecision.code and .params (the server sends them; front ends word them):
    every refusal met in random games has a catalog message in English and German, the English
    one is the `reason`, and the German one is not the English text."""
    from cardtable import new_game
    from cardtable.core.checks import check_refusal
    from cardtable.core.errors import IllegalDecision
    from cardtable.core.rng import Rng

    codes = set()
    for seed in range(6):
        g = new_game(game, seed=seed, **opts)
        rng = Rng(seed)
        while not g.over:
            legal = set(g.legal())
            for text in SWEEP:
                if " ".join(text.split()).lower() in legal:
                    continue
                try:
                    g.copy().apply(text)
                except IllegalDecision as e:
                    check_refusal(e)
                    assert e.words("de") != e.words("en"), e.code
                    codes.add(e.code)
            moves = g.legal_decisions()
            g.apply(moves[rng.below(len(moves))])
    assert len(codes) >= 10, codes


# -- a number meets a noun: the plural forms everywhere (issue 31) --------------------------------
#: messages where a count stands before a counted word, rendered at 0, 1 and 2 in both languages
#: (what a player read before: "Deck: 1 cards", "nimm 1 Karten", "1 von 3 haben geantwortet")
COUNTED = [
    ("ab.supply", {"deck": "{n}", "discard": 2}, {"en": ("1 card ·", "0 cards", "2 cards ·"),
                                                 "de": ("1 Karte ·", "0 Karten", "2 Karten ·")}),
    ("ab.cards_n", {"n": "{n}"}, {"en": ("1 card", "0 cards", "2 cards"),
                                  "de": ("1 Karte", "0 Karten", "2 Karten")}),
    ("ab.why.shadow.you", {"set": "5 5", "size": "{n}", "value": 7},
     {"en": ("take 1 card ", "take 0 cards", "take 2 cards"),
      "de": ("nimm 1 Karte ", "nimm 0 Karten", "nimm 2 Karten")}),
    ("ab.log.shadow_rest", {"rest": "1×5", "n": "{n}"},
     {"en": ("stays there", "stay there", "stay there"),
      "de": ("bleibt dort", "bleiben dort", "bleiben dort")}),
    ("ko.window", {"top": 7, "k": "{n}", "n": 3},
     {"en": ("1 of 3 answered", "0 of 3 answered", "2 of 3 answered"),
      "de": ("1 von 3 hat geantwortet", "0 von 3 haben geantwortet", "2 von 3 haben geantwortet")}),
    ("ko.why.snap", {"top": 7, "name": "Ann", "k": "{n}", "n": 3},
     {"en": ("1 of 3 answered", "0 of 3 answered", "2 of 3 answered"),
      "de": ("1 von 3 hat geantwortet", "0 von 3 haben geantwortet", "2 von 3 haben geantwortet")}),
    ("cli.replay_head", {"game": "kombio", "players": 2, "seed": 1, "n": "{n}"},
     {"en": ("1 action", "0 actions", "2 actions"), "de": ("1 Zug", "0 Züge", "2 Züge")}),
]


@pytest.mark.parametrize("key,params,want", COUNTED, ids=[c[0] for c in COUNTED])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_counts_agree_with_their_words_at_0_1_2(key, params, want, lang):
    for n, expect in zip((1, 0, 2), want[lang]):
        p = {k: (n if v == "{n}" else v) for k, v in params.items()}
        text = t(lang, key, **p)
        assert expect in text, (lang, key, n, text)


#: a placeholder right before a counted noun outside a plural form; allowed only where the count
#: can never be 1 (a game has 2 players or more)
_BARE_COUNT = re.compile(r"\{(\w+)\}(?: | ?-)(cards?|Karten?|actions?|Züge?|Zug|games?|Spiel(?:e|en)?|"
                         r"rounds?|Runden?|jokers?|points?|Punkte?n?|times)\b")
_NEVER_ONE = {"players"}


def test_no_bare_count_before_a_noun():
    bad = []
    for lang, table in (("en", EN), ("de", DE)):
        for key, msg in table.items():
            for m in _BARE_COUNT.finditer(msg):
                if m.group(1) not in _NEVER_ONE:
                    bad.append((lang, key, m.group(0)))
    assert not bad, bad


@pytest.mark.parametrize("top,en,de", [(10, "not a 10", "keine 10"), (8, "not an 8", "keine 8")])
def test_a_wrong_snap_says_keine_not_nicht_eine(top, en, de):
    assert t("en", "ko.log.wrong", name="Ann", card="x", avalue="a 5", notop=en) .endswith(en)
    from cardtable.kombio.narration import _notcard
    assert _notcard("en", top) == en and _notcard("de", top) == de
