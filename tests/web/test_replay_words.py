"""The replay viewer's decisions in words (issue 28, item 6): the list of all decisions and the
step's text are the table log's words in the page's language, with the players' names as the
table shows them (seats counted from 1), never the record's notation ("Bot 3: draw",
"snap 0.3") or a seat counted from 0; nothing hidden reaches the page of a game being played.

Live server and Chromium: tests/web/conftest.py. Each finished game is one of Ann (a human who
never comes: after the 1 s turn timer a stand-in bot plays her seat) and three `easy` bots."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import expect

from cardtable.i18n import t
from pages import as_shown, plain_text

#: the record's notation of a Kombio position ("0.3") or a whole decision in notation
NOTATION = re.compile(r"\b\d\.\d\b|^[^:\n]+: (?:snap|pass|draw|replace|take|peek|swap|give|"
                      r"hand-over|penalty|kombio|skip|keep|play|leave|discard|shadow)"
                      r"(?: (?:deck|pool|[\dX.+]+))*$", re.MULTILINE)
ZERO_SEAT = re.compile(r"\b(?:Bot|Seat|Platz) 0\b")
NAMES = ["Ann", "Bot 2", "Bot 3", "Bot 4"]


def _table(base: str, game: str, finish: bool = True, **extra) -> str:
    body = {"game": game, "players": 4, "name": "Ann",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3, **extra}
    if finish:
        body["turn_seconds"] = 1
    r = httpx.post(base + "/api/tables", json=body, trust_env=False, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    if finish:
        guard = time.time() + 600          # only a guard against a hang, not a time budget
        while httpx.get(f"{base}/api/tables/{code}", trust_env=False).json()["status"] != "over":
            assert time.time() < guard, "the game did not finish"
            time.sleep(0.2)
    return code


@pytest.fixture(scope="module")
def games(server) -> dict[str, str]:
    return {"abluxxen": _table(server.base, "abluxxen"),
            "kombio": _table(server.base, "kombio", target=30, snap_seconds=0.2)}


def log_texts(page) -> list[str]:
    """The list of decisions once every step has its words (step 0 is the deal)."""
    page.wait_for_selector(".replay-log-btn")
    page.wait_for_function("() => [...document.querySelectorAll('.replay-log-btn')]"
                           ".every(b => b.textContent.trim())")
    return page.eval_on_selector_all(".replay-log-btn", "bs => bs.map(b => b.textContent)")


WORDS = {  # words of each game's log that a game of a few rounds surely has, per language
    ("abluxxen", "de"): ["spielt", "aus dem Vorrat"], ("abluxxen", "en"): ["plays", "from the pool"],
    ("kombio", "de"): ["zieht", "klopft"], ("kombio", "en"): ["draws", "snaps"],
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_the_decisions_are_listed_in_words(server, games, new_page, game, lang):
    code = games[game]
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay", trust_env=False).json()
    page = new_page(lang)
    page.goto(f"/replay/{code}")
    texts = log_texts(page)
    assert len(texts) == rep["actions"] + 1
    assert texts[0] == t(lang, "replay.start_short")
    for i, text in enumerate(texts[1:], start=1):
        step = rep["steps"][i]
        assert not NOTATION.search(text), f"step {i}: notation in the list: {text!r}"
        assert not ZERO_SEAT.search(text), f"step {i}: a seat counted from 0: {text!r}"
        # the words of the table's log, in the page's language, first line (a round's end is long)
        assert text == plain_text(step["text"][lang]).split("\n")[0], (i, text, step["text"][lang])
    joined = "\n".join(texts)
    for w in WORDS[(game, lang)]:
        assert w in joined, f"no {w!r} in the {lang} list"
    for name in NAMES:                 # every player by the name the table gives them
        assert name in joined
    # the step shown: the same words, with the names, and no notation in what the page shows
    for i in (1, 2, min(12, rep["actions"])):
        page.click(f'.replay-log-btn[data-step="{i}"]')
        expect(page.locator(".replay-step-text")).to_contain_text(
            as_shown(rep["steps"][i]["text"][lang].split("\n")[0], lang))
        # whose turn and why: the server's line of the step (narration), as sent, in the
        # page's language (its clause ids are links: the words before them)
        expect(page.locator("#why")).to_contain_text(rep["steps"][i]["why"][lang].split(" (")[0])
        shown = page.locator(".replay-page").inner_text()
        assert not ZERO_SEAT.search(shown), shown
        assert not re.search(r"\b(?:snap|peek|swap|replace|take|give) \d", shown), shown
    # the record's own line is there for those who want it, folded away
    note = page.locator(".replay-notation")
    assert note.get_attribute("open") is None
    assert note.locator("code").text_content() == rep["steps"][min(12, rep["actions"])]["decision"]
    # the language switch re-words the list in place
    other = "en" if lang == "de" else "de"
    page.click(f"button[data-lang={other}]")
    expect(page.locator('.replay-log-btn[data-step="1"]')).to_have_text(
        plain_text(rep["steps"][1]["text"][other]).split("\n")[0])
    assert log_texts(page)[1:] == [plain_text(s["text"][other]).split("\n")[0]
                                   for s in rep["steps"][1:]]
    expect(page.locator("#why")).to_contain_text(
        rep["steps"][min(12, rep["actions"])]["why"][other].split(" (")[0])


def test_a_seat_view_words_only_what_the_seat_saw(server, games, new_page):
    """Seat 2's view (Bot 2): another player's answer in an open snap window is only 'answered'."""
    code = games["kombio"]
    full = httpx.get(f"{server.base}/api/tables/{code}/replay", trust_env=False).json()
    mine = httpx.get(f"{server.base}/api/tables/{code}/replay?seat=1", trust_env=False).json()
    hidden = 0
    for a, b in zip(full["steps"][1:], mine["steps"][1:]):
        for lang in ("de", "en"):
            assert b["text"][lang], b
            assert not ZERO_SEAT.search(b["text"][lang])
        if b["text"]["en"] == t("en", "ko.log.answered", name=NAMES[b["seat"]]):
            hidden += 1
            assert b["seat"] != 1 and a["text"]["en"] != b["text"]["en"]
            assert b["text"]["de"] == t("de", "ko.log.answered", name=NAMES[b["seat"]])
    assert hidden > 0
    page = new_page("de")
    page.goto(f"/replay/{code}")
    log_texts(page)
    page.select_option("#replay-seat", "1")
    expect(page.locator("#replay-board")).to_have_attribute("data-seat", "1")
    texts = log_texts(page)
    assert any(plain_text(t("de", "ko.log.answered", name=n)) in texts
               for n in ("Bot 3", "Bot 4", "Ann"))         # (a button: its clause id left out)
    assert any(x.startswith("Du ") for x in texts)      # Bot 2's own decisions, as at the table


def test_a_game_being_played_has_no_replay(server, new_page):
    code = _table(server.base, "kombio", finish=False)        # Ann never comes: it waits for her
    guard = time.time() + 60
    while httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()["status"] != "playing":
        assert time.time() < guard
        time.sleep(0.1)
    for path in (f"/api/tables/{code}/replay", f"/api/tables/{code}/replay?seat=0",
                 f"/api/tables/{code}/record"):
        r = httpx.get(server.base + path, trust_env=False)
        assert r.status_code == 409, (path, r.text)
        assert "steps" not in r.text and "deal" not in r.text
    page = new_page("de")
    page.goto(f"/replay/{code}")
    expect(page.locator(".replay-error")).to_be_visible()
    assert page.locator(".card, .replay-log-btn").count() == 0


def test_the_rule_chip_on_the_felt_is_visible(server, games, new_page):
    """The "why" line on the replay's felt links its rule by a chip ("Regel") that takes the
    line's light colour, as at the table (before, the replay's link colour, dark green on the
    green felt, hid it)."""
    page = new_page(lang="de", width=1366, height=657)
    page.goto(f"/replay/{games['kombio']}")
    chip = page.locator(".replay-board .why a.rule-ref").first
    for i in range(1, 40):                     # the first step whose "why" line names a rule
        page.click(f'.replay-log-btn[data-step="{i}"]')
        expect(page.locator(".replay-board")).to_have_attribute("data-step", str(i))
        if chip.count():
            break
    expect(chip).to_have_text("Regel")
    colours = chip.evaluate("""(a) => { const why = a.closest('.why');
      return [getComputedStyle(a).color, why.classList.contains('why-you') ? 'rgb(59, 42, 0)' : getComputedStyle(why).color]; }""")
    assert colours[0] == colours[1], colours
