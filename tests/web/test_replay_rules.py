"""The replay viewer (/replay/CODE) and the rules pages (/rules/GAME) in a real browser.

A live server (`cardtable serve`, bots without delay) plays a game of four `easy` bots; the
browser (Playwright, Debian's /usr/bin/chromium, headless) replays it: buttons, keys, the slider,
the seat selector, and what a seat's view shows, checked against the record replayed in Python
(`load_record`). The rules pages must show every clause id of the project's rules, docs/rules.md
(the same clause ids as the specification, and the same interpretations marked), as an anchor in
both languages, and their English texts must be its words.

The live server, the browser (/usr/bin/chromium), the pages and the screenshot directory
($CARDTABLE_ARTIFACTS, default tests/web/artifacts/) are the fixtures of tests/web/conftest.py."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import httpx
import pytest

from helpers import watch_to_the_end

from cardtable.core.record import load_record

ROOT = Path(__file__).resolve().parents[2]
DOCS_RULES = ROOT / "docs" / "rules.md"
GAME_PREFIXES = {"abluxxen": ("AB", "DU", "CL"), "kombio": ("KO",)}

import playwright.sync_api as playwright_api  # noqa: E402  (a dev dependency: never skipped)


# -- fixtures: `server`, `browser`, `new_page` and `artifacts` come from tests/web/conftest.py ------
@pytest.fixture(scope="module")
def rr_server(server) -> str:
    return server.base


def _finished_table(base: str, game: str, **extra) -> tuple[str, dict]:
    body = {"game": game, "players": 4, "seats": [{"kind": "bot", "bot": "easy"}] * 4, **extra}
    r = httpx.post(base + "/api/tables", json=body, trust_env=False, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    watch_to_the_end(base.replace("http", "ws", 1), code)      # (bots play while watched)
    rec = httpx.get(f"{base}/api/tables/{code}/record", trust_env=False).json()
    return code, rec


@pytest.fixture(scope="module")
def rr_ab_game(rr_server):
    return _finished_table(rr_server, "abluxxen")


@pytest.fixture(scope="module")
def rr_ko_game(rr_server):
    return _finished_table(rr_server, "kombio", target=30)


@pytest.fixture
def rr_page(new_page):
    return new_page("en")


# -- helpers ------------------------------------------------------------------------------------------
def counter_text(page) -> str:
    return page.locator(".replay-counter").inner_text()


def at_step(page, i: int, n: int) -> None:
    playwright_api.expect(page.locator(".replay-counter")).to_have_text(f"Step {i} of {n}")


def face_up(page) -> Counter:
    """The face-up cards drawn on the board (cards.js puts the value in data-value)."""
    vals = page.eval_on_selector_all("#replay-board .card[data-value]", "els => els.map(e => e.dataset.value)")
    return Counter(vals)


def cards_of(values) -> Counter:
    return Counter("X" if v == "X" else str(v) for v in values)


def visible_ab(view: dict) -> Counter:
    """Every card value a view shows (hands given as lists, displays, pool, shadow, pending)."""
    c = Counter()
    for h in view["hands"]:
        if isinstance(h, list):
            c += cards_of(h)
    for layers in view["displays"]:
        for layer in layers:
            c += cards_of(layer)
    for item in view["pool"]:
        c += cards_of(item)
    for stack in view.get("shadow") or []:
        c += cards_of(stack)
    if view.get("pending"):
        c += cards_of(view["pending"]["cards"])
    return c


def visible_ko(view: dict) -> Counter:
    c = Counter()
    for g in view["grids"]:
        c += cards_of(v for v in g if v is not None and v != "?")
    for k in ("top", "drawn"):
        if view.get(k) is not None:
            c += cards_of([view[k]])
    if view.get("last_round"):
        # the round's summary: the grids revealed at its end (KO-15), part of the view
        for g in view["last_round"]["grids"]:
            c += cards_of(v for v in g if v is not None)
    return c


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 1, f"the page scrolls sideways: {scroll} > {width}"


# -- the replay viewer ----------------------------------------------------------------------------------
def test_replay_steps_with_buttons_keys_and_slider(rr_server, rr_ab_game, rr_page, artifacts):
    code, rec = rr_ab_game
    n = len(rec["actions"])
    page = rr_page
    page.goto(f"{rr_server}/replay/{code}")
    page.wait_for_selector(".replay-controls")
    at_step(page, 0, n)
    assert page.locator(".replay-first").is_disabled() and page.locator(".replay-back").is_disabled()

    page.click(".replay-forward")
    at_step(page, 1, n)
    # the decision and who made it, in words and in notation
    final = load_record(dict(rec, actions=[]))
    actor = final.to_move
    final.apply(rec["actions"][0])
    info = page.locator("#replay-info").inner_text()
    assert f"Bot {actor + 1}" in info                                   # seats counted from 1
    # the notation, folded away (the words are in test_replay_words.py)
    assert page.locator(".replay-notation code").text_content() == final.history[0]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at_step(page, 3, n)
    page.keyboard.press("ArrowLeft")
    at_step(page, 2, n)
    page.click(".replay-back")
    at_step(page, 1, n)
    page.keyboard.press("End")
    at_step(page, n, n)
    assert page.locator(".replay-forward").is_disabled() and page.locator(".replay-last").is_disabled()
    # the final scores, with the winners marked in words (not by colour alone)
    result = page.locator(".replay-result")
    assert result.get_attribute("open") is not None
    scores = load_record(rec).scores()
    rows = result.locator("tbody tr")
    assert rows.count() == 4
    for s in range(4):
        assert rows.nth(s).locator(".replay-score").inner_text() == str(scores[s])
    assert result.inner_text().count("★ Winner") == len(load_record(rec).winners())
    page.screenshot(path=str(artifacts / "replay-abluxxen-end.png"), full_page=True)
    page.keyboard.press("Home")
    at_step(page, 0, n)
    page.keyboard.press("PageDown")
    at_step(page, min(10, n), n)
    # the slider (a native range input: keyboard on it moves one step, no double steps)
    page.locator(".replay-slider").fill(str(min(20, n)))
    at_step(page, min(20, n), n)
    page.focus(".replay-slider")
    page.keyboard.press("ArrowRight")
    at_step(page, min(21, n), n)
    # a step from the list of decisions; the current one is marked with aria-current
    page.click('.replay-log-btn[data-step="5"]')
    at_step(page, 5, n)
    assert page.locator('.replay-log-btn[aria-current="step"]').get_attribute("data-step") == "5"
    # every control has a name for screen readers
    for b in page.locator(".replay-page button").all():
        assert (b.get_attribute("aria-label") or b.inner_text()).strip()
    assert page.locator("#replay-info").get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_a_seat_view_shows_only_that_seats_cards(rr_server, rr_ab_game, rr_ko_game, rr_page,
                                                 artifacts, game):
    code, rec = rr_ab_game if game == "abluxxen" else rr_ko_game
    visible = visible_ab if game == "abluxxen" else visible_ko
    page = rr_page
    replies = []
    page.on("response", lambda r: replies.append(r) if f"/api/tables/{code}/replay?" in r.url
            else None)
    page.goto(f"{rr_server}/replay/{code}")
    page.wait_for_selector(".replay-controls")
    n = len(rec["actions"])
    probe = [1, 7, n // 2, n]
    for seat in (None, 1, 3):
        page.select_option("#replay-seat", "full" if seat is None else str(seat))
        playwright_api.expect(page.locator("#replay-board")).to_have_attribute(
            "data-seat", "full" if seat is None else str(seat))
        for i in probe:
            page.locator(".replay-slider").fill(str(i))
            at_step(page, i, n)
            view = json.loads(json.dumps(load_record(rec, upto=i).view(seat)))
            shown = face_up(page)
            may = visible(view)
            assert not shown - may, f"seat {seat}, step {i}: cards shown that the view hides: {shown - may}"
            if game == "abluxxen":
                own = [view["hands"][s] for s in range(4) if isinstance(view["hands"][s], list)]
                assert len(own) == (4 if seat is None else 1)
                for h in own:   # the hands that may be seen are drawn
                    assert not cards_of(h) - shown, f"seat {seat}, step {i}: a hand is missing"
            else:
                for g in view["grids"]:
                    assert not cards_of(v for v in g if v not in (None, "?")) - shown
        page.screenshot(path=str(artifacts / f"replay-{game}-{'full' if seat is None else seat}.png"),
                        full_page=True)
    # what the page was sent is exactly the engine's view of each seat
    bodies = [r.json() for r in replies if r.status == 200]
    assert {b["seat"] for b in bodies} == {None, 1, 3}
    for b in bodies:
        for step in b["steps"]:
            i = step["index"]
            if i in (0, 1, n // 2, n):
                assert step["view"] == json.loads(json.dumps(load_record(rec, upto=i).view(b["seat"])))


def test_replay_in_german_on_a_phone(rr_server, rr_ab_game, new_page, artifacts):
    code, rec = rr_ab_game
    page = new_page("de", width=375, height=740)
    page.goto(f"{rr_server}/replay/{code}")
    page.wait_for_selector(".replay-controls")
    playwright_api.expect(page.locator(".replay-counter")).to_have_text(
        f"Schritt 0 von {len(rec['actions'])}")
    assert page.locator(".replay-forward").get_attribute("aria-label") == "Einen Schritt vor"
    page.locator(".replay-forward").click()
    playwright_api.expect(page.locator(".replay-counter")).to_have_text(
        f"Schritt 1 von {len(rec['actions'])}")
    no_horizontal_scroll(page)
    for sel in (".replay-forward", ".replay-back", ".replay-first", ".replay-last", "#replay-seat"):
        box = page.locator(sel).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 40, (sel, box)
    page.screenshot(path=str(artifacts / "replay-abluxxen-375-de.png"), full_page=True)
    # switching the language re-draws the page in place, at the same step
    page.click("button[data-lang=en]")
    playwright_api.expect(page.locator(".replay-counter")).to_have_text(
        f"Step 1 of {len(rec['actions'])}")


def test_replay_of_a_game_not_over_or_unknown(rr_server, rr_page):
    r = httpx.post(rr_server + "/api/tables", json={"game": "kombio", "players": 2}, trust_env=False)
    code = r.json()["table"]["code"]
    rr_page.goto(f"{rr_server}/replay/{code}")
    playwright_api.expect(rr_page.locator(".replay-error")).to_contain_text("still being played")
    rr_page.goto(f"{rr_server}/replay/NOSUCH99")
    playwright_api.expect(rr_page.locator(".replay-error")).to_contain_text("There is no table")


# -- the rules pages ------------------------------------------------------------------------------------
def rules_ids(game: str) -> list[str]:
    ids = re.findall(r"^- \*\*((?:AB|DU|CL|KO)-\d+)", DOCS_RULES.read_text(), re.MULTILINE)
    assert len(ids) == len(set(ids))
    for prefix in ("AB", "DU", "CL", "KO"):        # every clause once: numbered 1..n, no gap
        nums = sorted(int(i.split("-")[1]) for i in ids if i.startswith(prefix + "-"))
        assert nums == list(range(1, len(nums) + 1)), (prefix, nums)
    return [i for i in ids if i.split("-")[0] in GAME_PREFIXES[game]]


def clause_texts(path: Path = DOCS_RULES) -> dict[str, str]:
    """clause id -> its Markdown (the lines after the id, indentation removed)."""
    out, cur = {}, None
    for line in path.read_text().splitlines():
        m = re.match(r"- \*\*((?:AB|DU|CL|KO)-\d+)(?: [^*]+)?\*\*\s?(.*)$", line)
        if m:
            cur = m.group(1)
            out[cur] = m.group(2)
        elif cur and line.startswith("  "):
            out[cur] += "\n" + line[2:]
        else:
            cur = None
    return out


@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_rules_texts_match_the_docs(game):
    """No browser: the English page is docs/rules.md word for word; both languages have every
    clause of docs/rules.md once, and mark the same clauses as interpretations."""
    docs = clause_texts()
    spec = rules_ids(game)
    data = {lang: json.loads((ROOT / "src" / "cardtable" / game / "web" / f"rules.{lang}.json").read_text())
            for lang in ("en", "de")}
    for lang, d in data.items():
        ids = [c["id"] for s in d["sections"] for c in s["clauses"]]
        assert sorted(ids) == sorted(spec), lang
    for c in (c for s in data["en"]["sections"] for c in s["clauses"]):
        assert c["md"] == docs[c["id"]], c["id"]
    de = {c["id"]: c["md"] for s in data["de"]["sections"] for c in s["clauses"]}
    for c in (c for s in data["en"]["sections"] for c in s["clauses"]):
        assert ("*Interpretation" in c["md"]) == ("*Auslegung" in de[c["id"]]), c["id"]
        assert c["md"].count("\n- ") == de[c["id"]].count("\n- "), c["id"]
        # the clause ids a text refers to are the same in both languages
        refs = lambda md: sorted(set(re.findall(r"\b(?:AB|DU|CL|KO)-\d+", md)))
        assert refs(c["md"]) == refs(de[c["id"]]), c["id"]


@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_rules_page_has_every_clause_as_an_anchor(rr_server, rr_page, artifacts, game):
    page = rr_page
    spec = rules_ids(game)
    texts = clause_texts()
    interp = [i for i in spec if "*Interpretation" in texts[i]]
    for lang in ("en", "de"):
        page.goto(f"{rr_server}/rules/{game}")
        page.evaluate(f"localStorage.setItem('cardtable.lang', '{lang}')")
        page.reload()
        page.wait_for_selector(f".rules-page[lang={lang}]")
        for cid in spec:
            art = page.locator(f"article.rules-clause[id='{cid}']")
            assert art.count() == 1, (lang, cid)
            label = art.locator(".rules-clause-id")
            assert label.inner_text().strip().endswith(cid) and label.is_visible()
            assert label.get_attribute("href") == f"/rules/{game}#{cid}"
            assert page.locator(f".rules-toc a[href='#{cid}']").count() == 1
        # interpretations are marked in words (and boxed), in the clauses docs/rules.md marks
        word = "Interpretation" if lang == "en" else "Auslegung"
        marked = page.eval_on_selector_all(
            ".rules-clause", "els => els.filter(e => e.querySelector('.rules-interp-tag'))"
                             ".map(e => e.id)")
        assert sorted(marked) == sorted(interp), lang
        assert all(word in t for t in page.locator(".rules-clause .rules-interp-tag").all_inner_texts())
        # the key point: same number of cards vs. same number on the cards
        callout = page.locator(".rules-callout").inner_text()
        if game == "abluxxen":
            assert ("same number of cards" in callout.lower() if lang == "en"
                    else "dieselbe anzahl" in callout.lower())
    # a link to a clause lands on it
    last = spec[-1]
    page.goto(f"{rr_server}/rules/{game}#{last}")
    target = page.locator(f"article[id='{last}']")
    playwright_api.expect(target).to_have_class(re.compile("is-target"))
    playwright_api.expect(target).to_be_in_viewport()
    page.screenshot(path=str(artifacts / f"rules-{game}-de-{last}.png"))
    # a reference inside a text jumps to the clause it names
    ref = page.locator(".rules-clause-body a.rules-ref").first
    href = ref.get_attribute("href")
    ref.click()
    playwright_api.expect(page.locator(f"article[id='{href[1:]}']")).to_have_class(re.compile("is-target"))


INTERP_MARK = re.compile(r"\*(?:Interpretation|Auslegung)\b")


@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_interpretation_is_a_marked_box(rr_server, new_page, artifacts, game, lang):
    """Each interpretation a clause's text marks ("*Interpretation...*" / "*Auslegung...*", on
    its own line or in parentheses) is drawn as a labelled box: a box (.rules-interp, or
    .rules-interp-inline inside a sentence) holding the tag with the word, as many as the text
    marks. Never a mark rendered as mere italics inside the rule."""
    data = json.loads((ROOT / "src" / "cardtable" / game / "web" / f"rules.{lang}.json").read_text())
    marks = {c["id"]: len(INTERP_MARK.findall(c["md"])) for s in data["sections"] for c in s["clauses"]}
    page = new_page(lang)
    page.goto(f"{rr_server}/rules/{game}")
    page.wait_for_selector(f".rules-page[lang={lang}]")
    word = "Interpretation" if lang == "en" else "Auslegung"
    shown = page.eval_on_selector_all(".rules-clause", """(els, word) => els.map(e => ({
        id: e.id,
        boxes: [...e.querySelectorAll('.rules-interp, .rules-interp-inline')].filter(b =>
          b.querySelector(':scope > .rules-interp-tag, :scope > p > .rules-interp-tag')
          && b.querySelector('.rules-interp-tag').textContent.includes(word)).length,
        italics: [...e.querySelectorAll('.rules-clause-body em')].map(x => x.textContent)
          .filter(x => /^(Interpretation|Auslegung)/.test(x.trim())),
      }))""", word)
    assert {x["id"] for x in shown} == set(marks)
    for x in shown:
        assert x["boxes"] == marks[x["id"]], (lang, x, marks[x["id"]])
        assert not x["italics"], (lang, x)
    if (game, lang) == ("kombio", "de"):          # KO-15's two interpretations, phone and laptop
        for w, h in ((375, 740), (1366, 657)):
            page.set_viewport_size({"width": w, "height": h})
            page.goto(f"{rr_server}/rules/{game}#KO-15")
            playwright_api.expect(page.locator("article[id='KO-15']")).to_have_class(re.compile("is-target"))
            no_horizontal_scroll(page)
            page.screenshot(path=str(artifacts / f"rules-kombio-de-KO-15-{w}x{h}.png"))


def test_rules_on_a_phone_and_language_switch(rr_server, new_page, artifacts):
    page = new_page("en", width=375, height=740)
    page.goto(f"{rr_server}/rules/abluxxen#AB-8")
    page.wait_for_selector(".rules-page[lang=en]")
    no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "rules-abluxxen-375-en.png"))
    page.click("button[data-lang=de]")
    page.wait_for_selector(".rules-page[lang=de]")
    assert "abluxxen" in page.locator("article[id='AB-8']").inner_text().lower()
    assert "Spielregeln Abluxxen" in page.locator("h1").inner_text()
    no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts / "rules-abluxxen-375-de.png"))
