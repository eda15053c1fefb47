"""The catalog's words against the rulebooks' words: one German word for Kombio's snap (the book's
"klopfen"), "Feld" for a slot of a Kombio grid ("Platz" is a seat), no "Summe" for a score in
the lessons, "Zug" only for a turn (never for one card drawn), one wording for whose turn it
is ("dran", never "am Zug"), and what the duel lesson says
about shadowluxxing (DU-4: compulsory, and only numbers that lie often enough)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardtable.i18n import catalog

EN, DE = catalog("en"), catalog("de")

KOMBIO = ("ko.", "web.ko.", "err.ko.", "learn.ko.", "learn.free.kombio.", "lobby.snap",
          "err.api.bad_snap")
PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")


def words(msg: str) -> str:
    """A message without its simple placeholders ("{seat}" is not the word "seat")."""
    return PLACEHOLDER.sub(" ", msg)


def test_german_says_klopfen_never_schnappen():
    """The Kombio book: "klopf schnell auf den Ablagestapel"; the table and the rules page say
    Klopfen and Klopf-Fenster, so no German text says schnappen or Schnappfenster."""
    bad = {k: v for k, v in DE.items() if "schnapp" in v.lower()}
    assert not bad, bad


@pytest.mark.parametrize("key", sorted(k for k in DE if k.startswith(KOMBIO)))
def test_a_kombio_slot_is_a_feld_and_platz_is_a_seat(key):
    """German "Platz" is a seat (as "seat" in English); a slot of a grid is a "Feld" (the
    terminal's "Platz P, Feld S"). So a German Kombio text has no more Platz/Plätze than its
    English text has seat/seats."""
    platz = len(re.findall(r"\bPl(?:a|ä)tz(?:e|es|en)?\b", words(DE[key])))
    seats = len(re.findall(r"\bseats?\b", words(EN[key]), re.IGNORECASE))
    assert platz <= seats, (key, DE[key], EN[key])


def test_the_lessons_never_call_points_summe():
    """The Kombio book counts "Punkte" (a round's and the game's); "Summe" is not its word."""
    bad = {k: v for k, v in DE.items() if k.startswith("learn.") and "Summe" in v}
    assert not bad, bad


@pytest.mark.parametrize("key", sorted(k for k in DE if k.startswith("learn.")))
def test_zug_in_a_lesson_is_a_turn(key):
    """"Du hast noch einen Zug" reads as one more turn: in the lessons "Zug" stands only where
    the English says "turn", never for a card drawn ("draw")."""
    zug = len(re.findall(r"\bZ(?:u|ü)g(?:e|en|es)?\b", words(DE[key])))
    turns = len(re.findall(r"\bturns?\b", words(EN[key]), re.IGNORECASE))
    assert zug <= turns, (key, DE[key], EN[key])


@pytest.mark.parametrize("lang,must", [("en", "must"), ("de", "musst")])
def test_the_duel_lesson_says_the_shadowluxx_is_compulsory(lang, must):
    """DU-4: if a number of the shadow display can be taken, one must be; the lesson's words
    say so and never "may be taken" / "darfst du nehmen"."""
    table = catalog(lang)
    assert must in table["learn.ab.duel.play.done"]
    for key, msg in table.items():
        if key.startswith("learn.ab.duel."):
            assert "may be taken" not in msg and "darfst du nehmen" not in msg, key


@pytest.mark.parametrize("lang,often", [("en", "at least twice"), ("de", "mindestens zweimal")])
def test_the_duel_lesson_offers_only_numbers_that_lie_often_enough(lang, often):
    """At the step with `play 12 12` four of the shadow's nine numbers lie twice: the words
    must not offer every number below 12."""
    assert often in catalog(lang)["learn.ab.duel.abluxx.done"]


RULES = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "kombio" / "web"


def test_the_german_kombio_rules_page_says_feld_for_a_slot():
    """The same words on the rules page: per clause (and in its glossary and lead) no more
    Platz/Plätze in German than seat/seats in English, and no "Summe" for a game's total."""
    de, en = (json.loads((RULES / f"rules.{lang}.json").read_text()) for lang in ("de", "en"))
    pairs = [(g["md"], e["md"]) for g, e in zip(de["glossary"], en["glossary"])]
    pairs += list(zip(de["lead"], en["lead"]))
    en_clauses = {c["id"]: c["md"] for s in en["sections"] for c in s["clauses"]}
    pairs += [(c["md"], en_clauses[c["id"]]) for s in de["sections"] for c in s["clauses"]]
    for g, e in pairs:
        platz = len(re.findall(r"\bPl(?:a|ä)tz(?:e|es|en)?\b", g))
        seats = len(re.findall(r"\bseats?\b", e, re.IGNORECASE))
        assert platz <= seats, (g, e)
    for cid in ("KO-4", "KO-16"):
        assert "Summe" not in next(c["md"] for s in de["sections"] for c in s["clauses"]
                                   if c["id"] == cid), cid


def test_german_says_dran_for_whose_turn():
    """Whose turn it is has one German wording: "du bist dran", "Ann ist dran"; no German text
    (the catalogs and both games' rules pages) says "am Zug" or "an der Reihe"."""
    pages = {str(p): p.read_text(encoding="utf-8") for p in RULES.parents[1].glob("*/web/rules.de.json")}
    assert len(pages) >= 2, pages
    bad = {k: v for k, v in {**DE, **pages}.items() if re.search(r"\bam Zuge?\b|\ban der Reihe\b", v)}
    assert not bad, bad
    assert DE["table.turn_you"] == "Du bist dran"


CLAUSE = r"(?:AB|DU|CL|KO)-\d+(?:\.\d+)?"
#: the clause references the browser turns into links (web/static/js/seats.js, REF_RE)
REF = re.compile(rf"\s*\(({CLAUSE})(?:\.\.{CLAUSE})?\)|, ({CLAUSE})(?:\.\.{CLAUSE})?\)")
TERMINAL_ONLY = ("cli.", "help.")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_clause_id_a_player_can_see_is_a_reference_the_browser_links(lang):
    """A clause id in a text the browser may show stands only in the reference form the
    browser makes into a link ("… (KO-8).", "(KO-8..KO-10)", "(…, KO-8)"): never inside a
    sentence, where it would be printed as jargon. (The terminal's own texts may name one.)"""
    bad = {k: v for k, v in catalog(lang).items()
           if not k.startswith(TERMINAL_ONLY) and re.search(CLAUSE, REF.sub("", v))}
    assert not bad, bad


@pytest.mark.parametrize("cat", [EN, DE], ids=["en", "de"])
def test_the_pace_has_one_name_in_both_of_the_lobbys_forms(cat):
    """"Play now" names the two paces as the new table's form and the join page do (English
    said "Live" beside "Real-time")."""
    assert cat["queue.live"] == cat["pace.live"]
    assert cat["queue.turn"] == cat["pace.turn"]
    assert cat["table.join_pace_live"].lower().endswith(cat["pace.live"].lower())
