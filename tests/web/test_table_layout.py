"""Every decision of both games in view, at four screen sizes (issue 13): a laptop window
(1366×657), 1280×800, 1920×1080 and a phone (375×740, touch). For each kind of decision the
player meets, the controls it needs, the cards it acts on and the prompt must lie inside the
viewport without scrolling and must not be covered (the point a person would tap is the element
itself); a screenshot of each kind goes to the artifacts directory, and axe-core finds no serious
or critical accessibility problem on the table.

The tables are scripted (scripted.py): the real page against a stand-in for the server's socket,
answered by the real engine along a trajectory that brings seat 0 to every kind of decision.
The page is driven by clicking, as a person would."""

from __future__ import annotations

import random

import pytest
from a11y import assert_accessible
from playwright.sync_api import Page
from scripted import ME, ScriptedTable, _kind, find_trajectory

from cardtable.core.record import new_game

SIZES = [(1366, 657), (1280, 800), (1920, 1080), (375, 740)]
AB = ("abluxxen", {"variant": "basic", "players": 4}, {"play", "take", "keep", "draw", "optional_draw"})
DUEL = ("abluxxen", {"variant": "duel", "players": 2},
        {"play", "shadow", "take", "keep", "draw", "optional_draw"})
KO = ("kombio", {"players": 3, "target": 100},
      {"turn", "drawn", "snap", "give", "hand_over", "action_swap", "action7", "action9", "action11",
       "action13"})
#: a seed known to bring seat 0 to every Kombio decision quickly (searched from here on)
KO_SEEDS = [311, *range(1000)]

PROMPT = ["#why"]
IN_VIEW = {
    "play": [".hand button.card", "#play-btn", "#clear-btn"],
    "take": ["#take-btn", "#leave-btn", ".seat-panel .pending .card"],
    "keep": ["#keep-btn", "#discard-btn", ".my-area .pending .card"],
    "draw": ["#board .centre [data-decision^='draw']", "#draw-deck-btn"],
    "optional_draw": ["#board .centre [data-decision^='draw']", "#draw-deck-btn", "#pass-btn"],
    "shadow": [".shadow-btn", "#board .shadow-stack.can-pick"],
    "turn": ["#ko-draw", "#ko-kombio", "#ko-take", "[data-region=deck]", "[data-region=discard]",
             ".my-area .ko-grid .card"],
    "drawn": ["[data-region=drawn]", "#ko-discard", ".my-area button.can-pick"],
    "action7": ["#board button.can-pick", "#ko-skip"],
    "action9": ["#board button.can-pick", "#ko-skip"],
    "action11": ["#board button.can-pick", "#ko-skip"],
    "action13": ["#board button.can-pick", "#ko-skip"],
    "action_swap": ["#ko-keep", "#ko-swap", "#board button.can-pick"],
    "snap": ["#board button.can-pick", "#ko-pass", "#window-time", "[data-region=discard]"],
    "give": [".my-area button.can-pick"],
    "hand_over": ["#ko-hand-over", "#ko-penalty"],
}

#: elements of `sels` that are not wholly inside the viewport, or covered at the point a person
#: would tap (a fanned hand card: its visible edge)
NOT_IN_VIEW = """(sels) => {
  const out = [], vw = innerWidth, vh = innerHeight;
  let count = 0;
  for (const sel of sels) for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    count++;
    let x = r.left + r.width / 2, y = r.top + r.height / 2;
    const next = el.nextElementSibling;
    if (el.closest('.hand-group') && next && next.classList.contains('card')) x = r.left + 6;
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
    const hit = inside ? document.elementFromPoint(x, y) : null;
    if (!inside || !hit || !(hit === el || el.contains(hit)))
      out.push({sel, box: [r.left, r.top, r.right, r.bottom].map(Math.round),
                covered_by: hit ? hit.outerHTML.slice(0, 90) : null});
  }
  return {out, count};
}"""


def new_ctx(browser, server, size, lang="en"):
    w, h = size
    phone = w < 500
    ctx = browser.new_context(base_url=server.base, viewport={"width": w, "height": h},
                              is_mobile=phone, has_touch=phone, device_scale_factor=1,
                              locale="de-DE" if lang == "de" else "en-US")
    ctx.set_default_timeout(60_000)   # a hang guard, not a speed limit
    return ctx


def open_scripted(ctx, table: ScriptedTable, errors: list) -> Page:
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(
        "localStorage.setItem('cardtable.seat.%s', JSON.stringify({token: 'scripted-token', seat: 0,"
        " name: 'Ann', game: '%s'}));" % (table.code, table.game))
    page.route(f"**/api/tables/{table.code}",
               lambda route: route.fulfill(json=table.table_json()))
    page.route_web_socket(f"**/ws/{table.code}*", table.attach)
    page.goto(f"/t/{table.code}")
    return page


def kinds_by_index(game, opts, seed, actions) -> dict[int, str]:
    """Seat 0's decisions along the trajectory: action index -> kind."""
    st = new_game(game, seed=seed, start=0, **opts)
    out = {}
    for a in actions:
        if st.to_move == ME:
            out[len(st.history)] = _kind(game, st)
        st.apply(a)
    return out


def wait_asked(page: Page, index: int) -> None:
    page.wait_for_function(
        """(i) => { const b = document.getElementById('board');
          return b && Number(b.dataset.index) === i && !!document.querySelector('#turn-badge.turn-you'); }""",
        arg=index)


def click_card_edge(page: Page, locator) -> None:
    box = locator.bounding_box()
    locator.click(position={"x": 7, "y": box["height"] / 2})


def click_decision(page: Page, game: str, text: str) -> None:
    """Make `text` by clicking what a person would click."""
    w = text.split()
    by_id = {"take": "#take-btn", "leave": "#leave-btn", "keep": "#keep-btn",
             "discard": "#discard-btn", "pass": "#pass-btn", "draw deck": "#draw-deck-btn"}
    if game == "abluxxen":
        if w[0] == "play":
            for v in w[1:]:
                card = page.locator(f'.hand button.card[data-value="{v}"]:not(.is-selected)').first
                click_card_edge(page, card)
            page.click("#play-btn")
        elif w[0] == "shadow":
            page.click(f'.shadow-btn[data-decision="{text}"]')
        elif text.startswith("draw pool "):
            page.click(f'#board [data-decision="{text}"]')
        else:
            page.click(by_id[text])
        return
    ko_ids = {"draw": "#ko-draw", "discard": "#ko-discard", "kombio": "#ko-kombio",
              "skip": "#ko-skip", "keep": "#ko-keep", "pass": "#ko-pass",
              "hand-over": "#ko-hand-over", "penalty": "#ko-penalty", "swap": "#ko-swap"}
    if len(w) == 1:
        page.click(ko_ids[w[0]])
        return
    if w[0] == "take":
        page.click("#ko-take")
    for a in w[1:]:
        slot = a if "." in a else f"{ME}.{a}"
        page.click(f'#board button.can-pick[data-slot="{slot}"]')


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_decision_in_view(browser, server, artifacts, size):
    errors: list[str] = []
    tag = f"{size[0]}x{size[1]}"
    for name, (game, opts, need) in (("abluxxen", AB), ("duel", DUEL), ("kombio", KO)):
        seed, actions = find_trajectory(game, opts, need,
                                        seeds=KO_SEEDS if game == "kombio" else range(1000))
        mine = kinds_by_index(game, opts, seed, actions)
        ctx = new_ctx(browser, server, size)
        try:
            table = ScriptedTable(game, opts, seed, actions, code=f"LAYOUT{name.upper()}")
            page = open_scripted(ctx, table, errors)
            shot: set[str] = set()
            for i, kind in sorted(mine.items()):
                wait_asked(page, i)
                if kind == "drawn" or kind.startswith("action"):
                    page.wait_for_timeout(0)
                sels = IN_VIEW[kind] + PROMPT
                if kind == "hand_over":
                    card = table.state.view(ME)["snap"]["card"]
                    sels = sels + [f'[data-slot="{card}"]']
                res = page.evaluate(NOT_IN_VIEW, sels)
                if res["out"]:
                    page.screenshot(path=str(artifacts / f"layout-{tag}-{name}-{kind}-FAILED.png"))
                assert res["count"] >= 2, (name, kind, "no controls found", sels)
                assert not res["out"], (name, tag, i, kind, res["out"])
                assert page.evaluate("document.documentElement.scrollWidth") <= size[0] + 1
                if kind not in shot:
                    shot.add(kind)
                    page.wait_for_timeout(450)              # the cards have landed
                    page.screenshot(path=str(artifacts / f"layout-{tag}-{name}-{kind}.png"))
                    if len(shot) == 1:
                        assert_accessible(page, f"table {name} {tag}")
                click_decision(page, game, actions[i])
                page.wait_for_function(
                    "(i) => Number(document.getElementById('board').dataset.index) !== i", arg=i)
            assert shot == {k for k in mine.values()}, shot
            assert not table.errors, table.errors
        finally:
            ctx.close()
    assert not errors, errors


def summary_trajectory(seed: int = 4) -> tuple[dict, list[str]]:
    """Kombio, 3 players: seat 0 calls Kombio at its first turn; the round ends after the
    others' last turns (KO-12)."""
    opts = {"players": 3, "target": 100}
    st = new_game("kombio", seed=seed, start=0, **opts)
    rng = random.Random(seed)
    while st.view(None)["round"] == 1:
        lg = st.legal()
        if st.to_move == ME and "kombio" in lg:
            d = "kombio"
        elif st.awaiting == "snap":
            d = "pass"
        else:
            d = rng.choice([x for x in lg if x != "kombio"] or lg)
        st.apply(d)
    return opts, list(st.history)


#: records where every flying card (dom.js `fly`) starts, and whether that point lies in a panel
#: that opened above the board (a round's summary, the final score): a card flies from a place
#: of the board, never across a panel
GHOSTS = """(() => {
  window.__ghosts = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.classList && this.classList.contains("fx-ghost")) {
      const x = parseFloat(this.style.left) + parseFloat(this.style.width) / 2;
      const y = parseFloat(this.style.top) + parseFloat(this.style.height) / 2;
      const panels = [...document.querySelectorAll("#round-summary, #result")].filter((p) => {
        const r = p.getBoundingClientRect();
        return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
      }).map((p) => p.id);
      window.__ghosts.push({ x, y, panels });
    }
    return animate.apply(this, args);
  };
})();"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_kombio_round_summary_in_view(browser, server, artifacts, size):
    """KO-15: the round's summary shows every grid revealed and every score explained, with
    the "ready" button in view; the next round starts when the player is ready."""
    opts, actions = summary_trajectory()
    lang = "de" if size[0] == 1280 else "en"
    ctx = new_ctx(browser, server, size, lang)
    errors: list[str] = []
    try:
        table = ScriptedTable("kombio", opts, 4, actions, code="LAYOUTSUM", lang=lang,
                              round_break=True)
        ctx.add_init_script(GHOSTS)
        page = open_scripted(ctx, table, errors)
        for i in sorted(kinds_by_index("kombio", opts, 4, actions)):
            wait_asked(page, i)
            click_decision(page, "kombio", actions[i])
        page.wait_for_selector("#ready-btn")
        tag = f"{size[0]}x{size[1]}"
        # the round's last cards flew from their places on the board, which the summary above
        # it moved down; none started on the summary (a stray card over the scores)
        ghosts = page.evaluate("window.__ghosts")
        assert ghosts and not [g for g in ghosts if g["panels"]], ghosts
        res = page.evaluate(NOT_IN_VIEW, ["#ready-btn"])
        assert res["count"] == 1 and not res["out"], res
        last = table.state.view(ME)["last_round"]
        seats = page.eval_on_selector_all(
            "#round-summary .rs-seat", "ss => ss.map(s => [Number(s.dataset.seat), Number(s.dataset.score),"
            " [...s.querySelectorAll('.card[data-value]')].map(c => Number(c.dataset.value))])")
        assert [s[1] for s in seats] == last["scores"]
        for s, _, cards in seats:                      # every grid revealed, card for card
            assert cards == [v for v in last["grids"][s] if v is not None]
        # each score explained (KO-15): the call's +15, the others' +10, or the sum
        whys = page.eval_on_selector_all("#round-summary .rs-seat", "ss => ss.map(s => s.querySelector('.rs-why').innerText)")
        for s, why in enumerate(whys):
            extra = last["scores"][s] - last["sums"][s]
            assert (f"+ {extra}" in why) if extra else (str(last["sums"][s]) in why), (s, extra, why)
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"layout-{tag}-kombio-round-summary.png"))
        assert_accessible(page, f"round summary {tag}")
        page.click("#ready-btn")
        page.wait_for_selector("#round-summary", state="detached")
        assert not table.errors, table.errors
    finally:
        ctx.close()
    assert not errors, errors
