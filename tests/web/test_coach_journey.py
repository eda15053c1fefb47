"""The coach and the review in a real browser (issue 34; js/coach.js, js/replay-review.js): at a
table of one person and a bot the status bar's Coach button opens the coach, which lists every
option of the decision in words (the table log's, in the page's language) with its win chance
and play-outs (phone 375x740 and laptop 1366x657, de and en); at a table of two people there is
no Coach button and the server refuses the coach; a finished game's replay reviews a person's
seat (with its progress), marks the costly decisions on the list and on the board (the choice
and the better option in words), and "Next mistake" goes to the next marked step. The server of
this module spends few play-outs (--coach-budget, --review-budget) so that the journey is quick.
Screenshots go to the artifacts directory."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from a11y import assert_accessible
from helpers import ServerProc, plant_finished_game
from pages import page_factory
from playwright.sync_api import expect
from test_table_people import seat_page

from cardtable.bots.review import review
from cardtable.core.record import new_game
from cardtable.core.rng import Rng

PHONE = {"width": 375, "height": 740, "phone": True}
LAPTOP = {"width": 1366, "height": 657}
#: both languages and both sizes in `make test`; the crossed pairs in `make test-full`
SIZES = [("en", LAPTOP), ("de", PHONE), pytest.param("en", PHONE, marks=pytest.mark.full),
         pytest.param("de", LAPTOP, marks=pytest.mark.full)]
REVIEW_BUDGET = 8
WORDS = {"en": {"win": "Win chance", "next": "Next mistake", "play": "You play ", "you": "You "},
         "de": {"win": "Gewinn\u00adchance", "next": "Nächster Fehler", "play": "Du spielst ",
                "you": "Du "}}   # a soft hyphen


@pytest.fixture(scope="module")
def coach_server():
    tmp = tempfile.mkdtemp(prefix="cardtable-coach-")
    srv = ServerProc(f"{tmp}/coach.db", log_dir=Path(tmp),
                     args=("--coach-budget", "40", "--review-budget", str(REVIEW_BUDGET))).start()
    yield srv
    srv.stop()


@pytest.fixture
def pages(browser, coach_server):
    with page_factory(browser, coach_server.base) as make:
        yield make


@pytest.mark.parametrize("lang,size", SIZES)
def test_the_coach_answers_at_a_bot_table(pages, coach_server, artifacts, lang, size):
    out = coach_server.create(game="abluxxen", variant="duel", name="Ann", public=False,
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = out["table"]["code"]
    page = seat_page(pages, code, out["join"], "abluxxen", lang=lang, **size)
    expect(page.locator("#coach-panel")).to_be_hidden()            # off by default
    expect(page.locator("#turn-badge.turn-you")).to_be_visible()
    page.click("#coach-toggle")
    expect(page.locator("#coach-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#coach-panel")).to_be_visible()
    page.click("#coach-ask")
    rows = page.locator("#coach-table tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 2
    expect(page.locator("#coach-table thead")).to_contain_text(WORDS[lang]["win"])
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        # the option in the table log's words, in the page's language (its notation the title)
        assert cells.nth(1).inner_text().strip().startswith(WORDS[lang]["play"])
        assert cells.nth(1).locator(".coach-words").get_attribute("title").startswith("play ")
        assert not re.search(r"\b(AB|DU|CL|KO)-\d", cells.nth(1).inner_text())   # no clause ids
        win, n = cells.nth(2).inner_text().strip(), int(cells.nth(3).inner_text())
        assert n >= 1 and (win == "—" or win.endswith("%"))
    expect(page.locator("#coach-table .coach-own")).to_have_count(1)
    assert_accessible(page, f"coach open, {lang} {size['width']}")
    page.screenshot(path=str(artifacts / f"coach-{lang}-{size['width']}.png"))


def test_no_coach_at_a_table_of_two_people(pages, coach_server):
    out = coach_server.create(game="abluxxen", variant="duel", name="Ann", public=False,
                              seats=[{"kind": "human"}, {"kind": "human"}])
    code = out["table"]["code"]
    coach_server.join(code, "Bob")
    page = seat_page(pages, code, out["join"], "abluxxen", **LAPTOP)
    expect(page.locator("#turn-badge")).to_be_visible()
    expect(page.locator("#coach-toggle")).to_have_count(0)
    answer = page.evaluate("""async ([code, token]) => {
        const r = await fetch(`/api/tables/${code}/coach`, {method: "POST",
          headers: {"Content-Type": "application/json"}, body: JSON.stringify({token})});
        return [r.status, (await r.json()).error]; }""", [code, out["join"]["token"]])
    assert answer == [403, "coach_humans"]


# -- the review in the replay viewer -------------------------------------------------------------
def _finished_duel(seed: int) -> dict:
    s = new_game("abluxxen", variant="duel", seed=seed)
    r = Rng(seed)
    while not s.over:
        legal = s.legal_decisions()
        s.apply(legal[r.below(len(legal))])
    return s.record()


def _marked_game() -> tuple[dict, list[int]]:
    """A random duel whose seat 0 has marked decisions at the module's budget, and their
    steps (decision i is shown at step i + 1)."""
    for seed in range(1, 60):
        rec = _finished_duel(seed)
        marked = review(rec, seats=[0], rollouts=REVIEW_BUDGET)["seats"][0]["marked"]
        if len(marked) >= 2:
            return rec, [i + 1 for i in marked]
    raise AssertionError("no random duel with two marked decisions")


def _plant(db: str, code: str, rec: dict) -> None:
    """`rec` as the finished game of the waiting table `code` (its seats as they are)."""
    plant_finished_game(db, code, rec, bots=False)


@pytest.fixture(scope="module")
def reviewed_game(coach_server):
    rec, steps = _marked_game()
    out = coach_server.create(game="abluxxen", variant="duel", public=False,
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = out["table"]["code"]
    _plant(coach_server.database, code, rec)
    return code, steps


@pytest.mark.parametrize("lang,size", SIZES)
def test_the_replay_shows_the_review(pages, coach_server, reviewed_game, artifacts, lang, size):
    code, steps = reviewed_game
    page = pages(lang=lang, **size)
    page.goto(f"/replay/{code}")
    page.wait_for_selector("#replay-board")
    # while the server says the review runs, the viewer shows its progress (held here until
    # the test has seen it; then the server's own answers go through)
    hold = {"on": True}

    def running(route):
        if hold["on"]:
            route.fulfill(status=202, content_type="application/json",
                          body=json.dumps({"status": "running", "done": 3, "total": 10}))
        else:
            route.continue_()
    page.route("**/api/tables/*/review?*", running)
    page.click("#review-seat-0")
    expect(page.locator("#review-progress")).to_have_attribute("value", "3")
    expect(page.locator("#replay-review .review-running")).to_contain_text("3")
    expect(page.locator("#replay-review .review-running")).to_contain_text("10")
    hold["on"] = False
    expect(page.locator("#replay-review .review-acc")).to_be_visible()
    expect(page.locator("#review-progress")).to_have_count(0)
    marked = page.eval_on_selector_all(".replay-log-btn.is-marked",
                                       "bs => bs.map(b => +b.dataset.step)")
    assert marked == steps                     # the marks are the review's, on the right steps
    expect(page.locator("#review-next")).to_have_text(WORDS[lang]["next"])
    page.click("#review-next")
    expect(page.locator("#replay-board")).to_have_attribute("data-step", str(steps[0]))
    expect(page.locator("#review-mark")).to_be_visible()
    expect(page.locator("#replay-board")).to_have_class("replay-board is-marked")
    for part in ("chosen", "best"):           # the decisions in words, in the page's language
        expect(page.locator(f"#review-mark .review-{part} .review-words")).to_contain_text(
            WORDS[lang]["you"])
    # words, not the rules' clause ids (the step's own text links its rule)
    assert not re.search(r"\b(AB|DU|CL|KO)-\d", page.locator("#review-mark").inner_text())
    page.click("#review-next")
    expect(page.locator("#replay-board")).to_have_attribute("data-step", str(steps[1]))
    page.locator("#review-mark").scroll_into_view_if_needed()
    assert not re.search(r"\b(AB|DU|CL|KO)-\d", page.locator("#review-mark").inner_text())
    assert_accessible(page, f"replay review, {lang} {size['width']}")
    page.screenshot(path=str(artifacts / f"review-{lang}-{size['width']}.png"))
    page.locator("#replay-review").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"review-{lang}-{size['width']}-panel.png"))
