"""The smaller points of issue 28, each on a scripted table (scripted.py) or the lobby: a Kombio
grid keeps its cards in place when a penalty card arrives (a memory game), the "give" step marks
the slot the card goes to, the side score table shows the totals after many rounds, 6 and 9 are
underlined, an empty hand counts 0 (not "−0"), "Create table" is in view on a laptop's short
window, the "called Kombio" flag fits a seat panel on a phone, the score table opens at the
latest rounds, and a card in flight never covers the words on the table."""

from __future__ import annotations

import random
from contextlib import contextmanager

from scripted import ME, ScriptedTable, _ko_policy, find_trajectory
from test_table_layout import KO_ALL, KO_SEEDS, NOT_IN_VIEW, click_decision, new_ctx, open_scripted, wait_asked

from cardtable.core.record import new_game

KO3 = {"players": 3, "target": 100}

#: the boxes of a grid's cards relative to the grid: {slot: [left, top, width, height]}
SLOT_BOXES = """(seat) => {
  const cards = [...document.querySelectorAll(`[data-slot^="${seat}."]`)];
  const grid = cards[0].closest('.ko-grid').getBoundingClientRect();
  return Object.fromEntries(cards.map((c) => { const r = c.getBoundingClientRect();
    return [c.dataset.slot, [r.left - grid.left, r.top - grid.top, r.width, r.height].map(Math.round)]; }));
}"""


@contextmanager
def german_position(browser, server, size, game, opts, seed, actions, code):
    """(page, table): the page in German at `size` on the position after `actions`, asked for
    seat 0's decision; the context is closed after the block and a JavaScript error fails it."""
    ctx = new_ctx(browser, server, size, "de")
    errors: list[str] = []
    try:
        table = prepared(game, opts, seed, actions, code=code, lang="de")
        page = open_scripted(ctx, table, errors)
        wait_asked(page, len(actions))
        yield page, table
    finally:
        ctx.close()
    assert not errors, errors


def prepared(game, opts, seed, actions, code, lang="en") -> ScriptedTable:
    """A scripted table whose engine has played `actions` already: the page opens on the position
    after them (seat 0 to move, or the game over)."""
    table = ScriptedTable(game, opts, seed, actions, code=code, lang=lang)
    for a in actions:
        table.state.apply(a)
    return table


def ko3_until(pred):
    """The Kombio trajectory of the layout matrix (3 players), cut before the first of seat 0's
    decisions for which pred(state, decision) holds: (seed, actions before it, the decision)."""
    seed, actions = find_trajectory("kombio", KO3, KO_ALL, seeds=KO_SEEDS)
    st = new_game("kombio", seed=seed, start=0, **KO3)
    for i, a in enumerate(actions):
        if st.to_move == ME and pred(st, a):
            return seed, actions[:i], a
        st.apply(a)
    raise AssertionError("no such decision on the trajectory")


def test_penalty_card_keeps_the_cards_in_place(browser, server, artifacts):
    """KO-9: a wrong snap on my card, and I give the snapper a penalty card: the cards already in
    the snapper's grid keep their places (before, a fifth card made the 2×2 grid 3+2)."""
    seed, before, _ = ko3_until(lambda st, a: st.awaiting == "hand_over"
                                and len(st.view(None)["grids"][st.view(None)["snap"]["seat"]]) == 4)
    actions = before + ["penalty"]
    snapper = new_game("kombio", seed=seed, start=0, **KO3)
    for a in before:
        snapper.apply(a)
    who = snapper.view(None)["snap"]["seat"]
    for size in ((1366, 657), (375, 740)):
        ctx = new_ctx(browser, server, size)
        errors: list[str] = []
        try:
            table = prepared("kombio", KO3, seed, before, code=f"PENALTY{size[0]}")
            table.actions = actions
            page = open_scripted(ctx, table, errors)
            wait_asked(page, len(before))
            old = page.evaluate(SLOT_BOXES, who)
            assert len(old) == 4
            click_decision(page, "kombio", "penalty")
            page.wait_for_function("(s) => document.querySelectorAll(`[data-slot^='${s}.']`).length === 5", arg=who)
            new = page.evaluate(SLOT_BOXES, who)
            page.screenshot(path=str(artifacts / f"polish-penalty-{size[0]}x{size[1]}.png"))
            assert {k: new[k] for k in old} == old, (old, new)
            assert not table.errors, table.errors
        finally:
            ctx.close()
        assert not errors, errors


def test_give_marks_the_target_slot(browser, server, artifacts):
    """KO-8: after a right snap on another player's card, the emptied slot my card goes to is
    marked (a ring and an arrow, and its name says so)."""
    seed, before, _ = ko3_until(lambda st, a: st.awaiting == "give")
    ctx = new_ctx(browser, server, (1366, 657))
    errors: list[str] = []
    try:
        table = prepared("kombio", KO3, seed, before, code="GIVE")
        target = table.state.view(ME)["snap"]["card"]
        page = open_scripted(ctx, table, errors)
        wait_asked(page, len(before))
        marked = page.eval_on_selector_all(".is-target", "els => els.map(e => [e.dataset.slot, e.getAttribute('aria-label')])")
        page.screenshot(path=str(artifacts / "polish-give-target.png"))
        assert [m[0] for m in marked] == [target], marked
        assert "the empty slot your card goes to" in marked[0][1]
        res = page.evaluate(NOT_IN_VIEW, [f'[data-slot="{target}"]'])
        assert res["count"] == 1 and not res["out"], res
    finally:
        ctx.close()
    assert not errors, errors


def many_rounds(rounds: int, seed: int = 5):
    """Kombio, 3 players, a high target: everyone calls at the first chance, so rounds are short;
    the actions up to seat 0's first turn after `rounds` rounds."""
    opts = {"players": 3, "target": 1000}
    st = new_game("kombio", seed=seed, start=0, **opts)
    rng = random.Random(seed)
    while not (st.view(None)["round"] > rounds and st.to_move == ME and st.awaiting == "turn"):
        lg = st.legal()
        d = "kombio" if "kombio" in lg else "pass" if st.awaiting == "snap" else _ko_policy(st, rng, 0)
        st.apply(d)
    return opts, list(st.history)


def test_side_scores_show_the_totals_after_many_rounds(browser, server, artifacts):
    """The side panel's score table after ten rounds: every row's total lies inside the panel
    and the window (before, the columns of the rounds pushed it out after round 7)."""
    opts, actions = many_rounds(10)
    for size in ((1920, 1080), (1280, 800)):
        with german_position(browser, server, size, "kombio", opts, 5, actions,
                             f"ROUNDS{size[0]}") as (page, table):
            if size[0] < 1200:                       # the side panel is a drawer here
                page.click("#log-toggle")
            totals = page.eval_on_selector_all(
                "#side-score-table tbody td.score", "els => els.map(e => Number(e.dataset.score))")
            assert totals == table.state.view(ME)["totals"]
            assert page.eval_on_selector_all("#side-score-table thead th", "els => els.length") == 10 + 2
            bad = page.evaluate("""() => { const side = document.getElementById('side').getBoundingClientRect();
              return [...document.querySelectorAll('#side-score-table td.score, #side-score-table thead th:last-child')].filter((c) => {
                const r = c.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return r.left < side.left || r.right > side.right || r.right > innerWidth || !hit || !c.contains(hit);
              }).map((c) => c.outerHTML); }""")
            page.screenshot(path=str(artifacts / f"polish-side-scores-{size[0]}x{size[1]}.png"))
            assert not bad, bad


def test_six_and_nine_are_underlined(browser, server):
    """A 6 and a 9 upside down are told apart by an underline, on both games' cards (the corner
    in the bottom right is turned); no other number is underlined."""
    ctx = new_ctx(browser, server, (1366, 657))
    try:
        page = ctx.new_page()
        page.goto("/")
        res = page.evaluate("""async () => {
          const { cardEl } = await import('/static/js/cards.js');
          const out = {};
          for (const game of ['abluxxen', 'kombio']) for (const v of [6, 9, 8, 1, 10]) {
            const c = cardEl(game, v, { size: 'lg' });
            document.body.appendChild(c);
            out[`${game}-${v}`] = [...c.querySelectorAll('.card-num, .card-corner')].map(
              (e) => getComputedStyle(e).textDecorationLine.includes('underline'));
            c.remove();
          }
          return out; }""")
        for key, lines in res.items():
            want = key.endswith("-6") or key.endswith("-9")
            assert lines and all(x == want for x in lines), (key, lines)
    finally:
        ctx.close()


def test_empty_hand_counts_zero(browser, server, artifacts):
    """AB-17: a player who emptied the hand has 0 hand cards in the final score, not "−0"."""
    opts = {"variant": "basic", "players": 4}
    for seed in range(200):
        st = new_game("abluxxen", seed=seed, start=0, **opts)
        rng = random.Random(seed)
        while not st.over:
            st.apply(rng.choice(st.legal()))
        if st.view(None).get("ended_by") == "hand":
            break
    empty = [s for s in range(4) if not st.view(None)["hands"][s]]
    assert empty
    ctx = new_ctx(browser, server, (1366, 657))
    errors: list[str] = []
    try:
        table = prepared("abluxxen", opts, seed, list(st.history), code="EMPTYHAND")
        page = open_scripted(ctx, table, errors)
        page.wait_for_selector("#score-table")
        rows = page.eval_on_selector_all(
            "#score-table tbody tr", "rs => rs.map(r => [Number(r.dataset.seat), r.querySelectorAll('td')[1].textContent])")
        page.screenshot(path=str(artifacts / "polish-empty-hand.png"))
        for s, hand in rows:
            n = len(st.view(None)["hands"][s])
            assert hand == (f"−{n}" if n else "0"), (s, hand)
        assert any(s in empty for s, _ in rows)
    finally:
        ctx.close()
    assert not errors, errors


def test_create_table_in_view_on_a_laptop(browser, server, artifacts):
    """The lobby at 1366×657 (a laptop's browser window): "Create table" is in view without
    scrolling, in both languages."""
    for lang in ("en", "de"):
        ctx = new_ctx(browser, server, (1366, 657), lang)
        try:
            page = ctx.new_page()
            page.goto("/")
            page.wait_for_selector("#create-btn")
            res = page.evaluate(NOT_IN_VIEW, ["#create-btn"])
            page.screenshot(path=str(artifacts / f"polish-lobby-1366x657-{lang}.png"))
            assert res["count"] == 1 and not res["out"], (lang, res)
        finally:
            ctx.close()


def test_called_kombio_fits_a_phone_seat_panel(browser, server, artifacts):
    """KO-12: the "called Kombio" flag of an opponent stays inside the opponent's panel on a
    phone, in German (the longer words), with four and six players."""
    for players in (4, 6):
        opts = {"players": players, "target": 100}
        st = new_game("kombio", seed=3, start=0, **opts)
        rng = random.Random(3)
        while not (st.view(None)["caller"] not in (None, ME) and st.to_move == ME and st.awaiting == "turn"):
            lg = st.legal()
            if "kombio" in lg:
                d = "kombio" if st.to_move != ME and len(st.history) > 3 * players else rng.choice([x for x in lg if x != "kombio"])
            else:
                d = "pass" if st.awaiting == "snap" else _ko_policy(st, rng, 0)
            st.apply(d)
        caller = st.view(None)["caller"]
        ctx = new_ctx(browser, server, (375, 740), "de")
        errors: list[str] = []
        try:
            table = prepared("kombio", opts, 3, list(st.history), code=f"CALLED{players}", lang="de")
            page = open_scripted(ctx, table, errors)
            wait_asked(page, len(st.history))
            box = page.evaluate("""(s) => { const p = document.querySelector(`.seat-panel[data-seat="${s}"]`);
              const f = p.querySelector('.flag-caller'); const a = p.getBoundingClientRect(), b = f.getBoundingClientRect();
              return {panel: [a.left, a.right], flag: [b.left, b.right], vw: innerWidth,
                      wide: document.documentElement.scrollWidth}; }""", caller)
            page.screenshot(path=str(artifacts / f"polish-called-375x740-de-{players}.png"))
            assert box["panel"][0] - 0.5 <= box["flag"][0] and box["flag"][1] <= box["panel"][1] + 0.5, box
            assert box["panel"][1] <= box["vw"] + 0.5 and box["wide"] <= box["vw"] + 1, box
        finally:
            ctx.close()
        assert not errors, errors


def big_duel_hand(seed: int = 7, at: int = 44):
    """A duel where seat 0 takes every set it may (a long hand: 16 cards of 13 numbers at
    decision `at`, a play); the actions before it."""
    opts = {"variant": "duel", "players": 2,
            "options": {"shadow_blocks_draw": True}}     # the deal found under DU-6's former reading
    st = new_game("abluxxen", seed=seed, start=0, **opts)
    rng = random.Random(seed)
    while len(st.history) < at:
        lg = st.legal()
        st.apply("take" if "take" in lg else "keep" if "keep" in lg else rng.choice(lg))
    assert st.to_move == ME and st.awaiting == "play" and len(set(st.view(ME)["hands"][ME])) == 13
    return opts, list(st.history)


def test_duel_with_a_long_hand_in_view(browser, server, artifacts):
    """The duel in German with a long hand (13 numbers): on a tablet (1280×800) and a phone the
    hand, the prompt and "Auswahl ausspielen" / "Leeren" are in view and not covered."""
    opts, actions = big_duel_hand()
    for size in ((1280, 800), (375, 740)):
        with german_position(browser, server, size, "abluxxen", opts, 7, actions,
                             f"BIGHAND{size[0]}") as (page, _):
            res = page.evaluate(NOT_IN_VIEW, [".hand button.card", "#play-btn", "#clear-btn", "#why"])
            page.screenshot(path=str(artifacts / f"polish-duel-long-hand-de-{size[0]}x{size[1]}.png"))
            assert res["count"] == 16 + 3 and not res["out"], (size, res["out"])


#: the score table's cells that must be in view: the latest round's column and the totals (its
#: head and each row's); those of them outside the table's scroll box or covered, as HTML
LATEST_HIDDEN = """(sel) => {
  const table = document.querySelector(sel);
  const box = table.closest('.score-scroll').getBoundingClientRect();
  const cells = [...table.querySelectorAll('tr')].flatMap((r) => [...r.children].slice(-2));
  return cells.filter((c) => {
    const r = c.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.left < box.left - 1 || r.right > box.right + 1 || r.right > innerWidth || !hit || !c.contains(hit);
  }).map((c) => c.outerHTML); }"""


def test_scores_show_the_latest_rounds(browser, server, artifacts):
    """Twelve rounds of Kombio on a phone and on a laptop: the side panel's score table shows the
    latest round's column beside the totals (the older rounds scroll in from the left; before,
    the table opened on round 1 and hid the latest ones)."""
    opts, actions = many_rounds(12)
    for size in ((375, 740), (1366, 657)):
        with german_position(browser, server, size, "kombio", opts, 5, actions,
                             f"LATEST{size[0]}") as (page, table):
            if not page.locator("#side-score-table").is_visible():   # the side panel is a drawer
                page.click("#log-toggle")
            page.wait_for_selector("#side-score-table", state="visible")
            heads = page.eval_on_selector_all("#side-score-table thead th", "els => els.map(e => e.textContent)")
            assert len(heads) == 12 + 2 and "12" in heads[-2], heads
            bad = page.evaluate(LATEST_HIDDEN, "#side-score-table")
            page.screenshot(path=str(artifacts / f"polish-latest-rounds-{size[0]}x{size[1]}.png"))
            assert not bad, (size, bad)


#: while a card flies (null before): the words that it must not cover whose centre the animation
#: layer paints (its clip has no hole there), as HTML; and whether the deck's card is painted
CLIPPED = """(sels) => {
  const layer = document.getElementById('fx-layer');
  if (!layer.querySelector('.fx-ghost')) return null;
  const m = getComputedStyle(layer).clipPath.match(/^path\\(evenodd, "(.*)"\\)$/);
  if (!m) return { clip: getComputedStyle(layer).clipPath };
  const path = new Path2D(m[1]);
  const ctx = document.createElement('canvas').getContext('2d');
  const painted = (r) => ctx.isPointInPath(path, r.left + r.width / 2, r.top + r.height / 2, 'evenodd');
  const range = document.createRange();
  const lines = (e) => {                                   // the boxes of its words, line by line
    const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (!n.data.trim() || n.parentElement.closest('.sr-only')) continue;
      range.selectNodeContents(n);
      out.push(...[...range.getClientRects()].filter((r) => r.width > 4 && r.bottom < innerHeight));
    }
    return out; };
  const words = sels.flatMap((s) => [...document.querySelectorAll(s)]).filter((e) => lines(e).length);
  return { n: words.length, covered: words.filter((e) => lines(e).some(painted)).map((e) => e.outerHTML),
           deck: painted(document.querySelector('[data-region="deck"] .card, [data-region="deck"]').getBoundingClientRect()) }; }"""


def test_cards_in_flight_never_cover_words(browser, server, artifacts):
    """A card flies from the deck when I draw: the animation layer has a hole at every word on
    the table (names, counts, slot numbers, the "why" line, the status bar), so the card passes
    under them, and it is painted over the cards (before, a flying card covered the words)."""
    seed, before, _ = ko3_until(lambda st, a: st.awaiting == "turn")
    for size in ((1366, 657), (375, 740)):
        with german_position(browser, server, size, "kombio", KO3, seed, before,
                             f"FLY{size[0]}") as (page, table):
            table.actions = before + ["draw"]
            click_decision(page, "kombio", "draw")
            res = page.wait_for_function(CLIPPED, arg=[".seat-name", ".slot-n", ".zone-h", ".why", "#turn-badge",
                                                       ".sb-title"], polling="raf").json_value()
            page.screenshot(path=str(artifacts / f"polish-fly-{size[0]}x{size[1]}.png"))
            assert res.get("n", 0) > 5 and not res["covered"] and res["deck"], (size, res)
