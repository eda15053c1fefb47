"""No page wider than a phone (375 px) in German: a player's profile (its ratings, chart, recent
games and bots beaten; the profile's answer is a stand-in, the page is the real one) and the
replay of a finished game at a private table. document.scrollWidth must not pass the window's
width; a failure names the elements that stick out. Screenshots go to the artifacts."""

from __future__ import annotations

import time

import httpx
from helpers import watch_to_the_end

PHONE = {"width": 375, "height": 740}

#: the elements that reach past a phone's right edge (a phone's window widens to the page), the deepest first
WIDE = """(w) => [...document.querySelectorAll('body *')].filter((e) => {
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  if (r.width === 0 || cs.position === 'fixed') return false;
  return r.right > w + 1 || (cs.overflowX === 'visible' && r.left + e.scrollWidth > w + 1);
}).filter((e, i, all) => !all.some((o) => o !== e && e.contains(o))).slice(0, 8).map((e) => {
  const path = [];
  for (let a = e; a && a !== document.body; a = a.parentElement)
    path.unshift(a.id ? '#' + a.id : a.tagName.toLowerCase() + (typeof a.className === 'string' && a.className ? '.' + a.className.split(' ')[0] : ''));
  return path.join(' > ');
})"""


def width(page) -> tuple[int, list]:
    return page.evaluate("document.documentElement.scrollWidth"), page.evaluate(WIDE, PHONE["width"])


def profile(name: str) -> dict:
    now = int(time.time())
    hist = [{"at": now - 86400 * (30 - i), "rating": 3.5 + 0.7 * i, "mu": 25 + i, "sigma": 7 - 0.1 * i,
             "rank": 1 + i % 3, "left": False, "code": f"CODE{i:02d}"} for i in range(12)]
    recent = [{"code": f"CODE{i:02d}", "replay": f"/replay/CODE{i:02d}", "game": g, "variant": v,
               "rated": i % 2 == 0, "won": i % 3 == 0, "seat": 0, "at": now - 3600 * i,
               "names": [name, "Maximilian-Alexander", "Bot (Experte)", "Friederike"]}
              for i, (g, v) in enumerate([("abluxxen", "expert"), ("kombio", None), ("abluxxen", "duel")])]
    rating = {"rating": 1234.56, "mu": 1250.25, "sigma": 5.23, "games": 12, "wins": 7, "opponents": 4,
              "provisional": False, "history": hist}
    return {"name": name, "created_at": now - 86400 * 40,
            "games": [{"game": "abluxxen", "variant": "expert", "played": 120, "won": 57},
                      {"game": "kombio", "variant": None, "played": 8, "won": 3}],
            "established": {"games": 5, "opponents": 3},
            "ratings": [dict(rating, game="abluxxen"), dict(rating, game="kombio", provisional=True)],
            "recent": recent,
            "bots_beaten": [{"game": "abluxxen", "bot": "expert", "times": 3},
                            {"game": "kombio", "bot": "medium", "times": 11}]}


def test_a_german_profile_fits_a_phone(new_page, artifacts):
    name = "Bartholomäus-Wilhelmina"
    page = new_page("de", **PHONE, phone=True)
    page.route("**/api/players/*", lambda route: route.fulfill(json=profile(name)))
    page.goto(f"/players/{name}")
    page.wait_for_selector(".rt-recent")
    page.locator(".rt-details summary").first.click()
    # its numbers in German (i18n.js formatNumber): a decimal comma, a thousands point
    assert page.locator(".rt-rating").first.inner_text() == "1.234,6"
    assert page.locator(".rt-details td.num").first.inner_text() == "3,5"
    page.screenshot(path=str(artifacts / "profile-375x740-de.png"), full_page=True)
    w, wide = width(page)
    assert w <= PHONE["width"], (w, wide)


def test_a_german_private_replay_fits_a_phone(server, new_page, artifacts):
    # a private table: its code has 26 letters, in the page's title
    body = {"game": "abluxxen", "variant": "duel", "players": 2, "public": False,
            "seats": [{"kind": "bot", "bot": "easy"}] * 2}
    r = httpx.post(server.base + "/api/tables", json=body, trust_env=False, timeout=10)
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    watch_to_the_end(server.base.replace("http", "ws", 1), code)
    page = new_page("de", **PHONE, phone=True)

    def as_a_persons(route):                # seat 0 a person's (its review can be asked for)
        table = route.fetch().json()
        table["seats"][0].update(kind="human", name="Bartholomäus-Wilhelmina")
        route.fulfill(json=table)

    page.route(f"**/api/tables/{code}", as_a_persons)
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".replay-controls")
    # the last step, every box open (the list of decisions, the result, the talk)
    n = page.locator(".replay-slider").get_attribute("max")
    page.locator(".replay-slider").fill(n)
    page.wait_for_function("(i) => document.querySelector('.replay-slider').value === i"
                           " && !document.querySelector('.replay-loading')", arg=n)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.screenshot(path=str(artifacts / "replay-private-375x740-de.png"), full_page=True)
    w, wide = width(page)
    assert w <= PHONE["width"], (w, wide)
