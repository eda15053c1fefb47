"""No bare clause id in what a player reads in the browser: a catalog text's clause reference
("… (DU-4).") is a small link to the rules page ("rule" / "Regel", the id only its address),
or left out where no link can stand (a button, a tooltip). Checked in a real browser on the
steps of the lessons (the step panel, a refusal, the duel's shadow dialog) and on the replay
of a finished Kombio game (the step's words, the list of steps, the round's end)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page

from cardtable.core.lesson import lesson
from helpers import watch_to_the_end
from test_learn_journey import do, wait_step

#: every text node under <body> (and every tooltip) that names a clause outside a link; the
#: rules pages are about clause ids and are not looked at here
BARE_IDS = """() => {
  const re = /\\b(AB|DU|CL|KO)-\\d+/;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!re.test(n.data) || !el || el.closest("a, script, style, .rules-page")) continue;
    out.push(n.data);
  }
  for (const el of document.querySelectorAll("[title]")) {
    if (re.test(el.title) && !el.closest("a")) out.push("title: " + el.title);
  }
  return out;
}"""


def bare_ids(page: Page) -> list[str]:
    return page.evaluate(BARE_IDS)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_kombio_lesson_links_its_rules(new_page, lang):
    les = lesson("kombio.basic")
    page = new_page(lang)
    page.goto("/")
    page.click("#learn-kombio-basic")
    wait_step(page, 0)
    # the first step's words name KO-2: a link to it, not the id
    assert bare_ids(page) == []
    panel = page.locator("#learn-step")
    ref = panel.locator("a.rule-ref[data-clause='KO-2']")
    assert ref.count() == 1 and ref.get_attribute("href") == "/rules/kombio#KO-2"
    assert "KO-2" not in panel.inner_text()
    step_link = panel.locator("a.clause-ref")
    assert step_link.get_attribute("href") == f"/rules/kombio#{les.steps[0][1].clause}"
    assert les.steps[0][1].clause not in step_link.inner_text()
    # a refusal repeats the step's words: linked too
    page.click("#ko-kombio")
    page.wait_for_selector("#learn-refused a.rule-ref")
    assert bare_ids(page) == []
    steps = les.steps_json()
    for k in (0, 1):
        do(page, steps[k]["decision"], les.seat)
        wait_step(page, k + 1)
        assert bare_ids(page) == [], k + 1
    # step 3: the snap window's words (KO-8), the table's "why" line and the log
    assert page.locator("#learn-step a.rule-ref[data-clause='KO-8']").count() == 1
    assert bare_ids(page) == []


def test_the_duel_lessons_shadow_dialog_links_its_rule(new_page):
    les = lesson("abluxxen.duel")
    page = new_page("de")
    page.goto("/")
    page.click("#learn-abluxxen-duel")
    wait_step(page, 0)
    assert bare_ids(page) == []
    do(page, les.steps_json()[0]["decision"], les.seat)
    wait_step(page, 1)
    # the step's words (DU-4) and the dialog of the shadow decision (DU-4)
    page.wait_for_selector("#dlg-text a.rule-ref[data-clause='DU-4']")
    assert page.locator("#learn-done a.rule-ref[data-clause='DU-4']").count() == 1
    assert bare_ids(page) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_kombio_replay_links_its_rules(server, new_page, lang):
    body = {"game": "kombio", "players": 3, "target": 20, "seats": [{"kind": "bot", "bot": "easy"}] * 3}
    r = httpx.post(server.base + "/api/tables", json=body, trust_env=False, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    watch_to_the_end(server.base.replace("http", "ws", 1), code)
    page = new_page(lang)
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".replay-controls")
    assert bare_ids(page) == []                        # the list of every step: buttons
    n = int(page.locator(".replay-slider").get_attribute("max"))
    linked = 0
    for i in sorted({1, 2, 3, n // 2, n}):
        page.locator(".replay-slider").fill(str(i))
        page.wait_for_function("(i) => document.querySelector('.replay-slider').value === String(i)"
                               " && !document.querySelector('.replay-loading')", arg=i)
        assert bare_ids(page) == [], i
        linked += page.locator(".replay-step-text a.rule-ref").count()
    assert linked, "no step's words named a rule"   # (the round's end names KO-15 at least)
