"""Scripted players that play through the browser UI: they read what the page offers (enabled
buttons, clickable cards) and decide BY CLICKING, like a person; they never send WebSocket
messages themselves."""

from __future__ import annotations

import random

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PWTimeout

MY_TURN_OR_OVER = """() => { const b = document.getElementById('board');
  return !!b && (b.dataset.status === 'over' || !!document.querySelector('#turn-badge.turn-you')
                 || !!document.querySelector('#ready-btn')); }"""


def board(page: Page) -> dict:
    return page.evaluate("""() => { const b = document.getElementById('board');
      return b ? {index: Number(b.dataset.index || -1), status: b.dataset.status || '',
                  seat: b.dataset.seat} : {index: -1, status: '', seat: ''}; }""")


def send_chat(page: Page, text: str) -> None:
    """Write `text` in the table's chat and send it as a person does: where the page says the
    line was not sent (its connection was still opening: the line stays in the field), send
    it again once the page is connected."""
    from cardtable.i18n import t

    not_sent = [t(lang, "chat.not_sent") for lang in ("en", "de")]
    page.fill("#chat-input", text)
    for _ in range(20):
        page.press("#chat-input", "Enter")
        page.wait_for_function(
            """(notSent) => document.getElementById('chat-input').value === ''
                 || notSent.includes(document.getElementById('chat-status').textContent)""",
            arg=not_sent)
        if page.input_value("#chat-input") == "":
            return
        page.wait_for_function("() => !document.getElementById('conn-status')")
    raise AssertionError(f"the chat line {text!r} was never sent")


def wait_my_turn(page: Page, timeout: float = 30.0) -> dict:
    page.wait_for_function(MY_TURN_OR_OVER, timeout=timeout * 1000)
    return board(page)


def wait_moved(page: Page, index: int, timeout: float = 10.0) -> bool:
    """Wait until the game moved past `index`, or the page no longer asks this player."""
    try:
        page.wait_for_function(
            """(i) => { const b = document.getElementById('board');
              return (!b || Number(b.dataset.index) !== i || b.dataset.status === 'over'
                || !document.querySelector('#turn-badge.turn-you')) && !document.querySelector('#ready-btn'); }""", arg=index,
            timeout=timeout * 1000)
        return True
    except PWTimeout:
        return False


def click_decision(page: Page, selector: str, tries: int = 30) -> bool:
    """Click a decision's button. If the game moves on while the click waits for the button
    (its index changes: the button went with the state it belonged to, e.g. a snap window that
    closed by its timer or a turn the stand-in played), the player reads the page again; a
    button that stays unclickable while nothing moves is a fault of the page. The click is
    tried in short steps so that a move is noticed at once, not after the whole wait. True if
    it was clicked."""
    index = board(page)["index"]
    for _ in range(tries):
        try:
            page.locator(selector).click(timeout=2000)
            return True
        except PWTimeout:
            if board(page)["index"] != index:
                return False
    raise AssertionError(f"{selector} stayed unclickable at index {index}")


class BoardChanged(Exception):
    """The page redrew under the player while it chose its cards (its turn's timer ran out
    and the stand-in played for it): the player reads the page again."""


def click_hand_card(page: Page, idx) -> None:
    """Click a hand card where a person would: on its visible edge (the cards of a group are
    fanned, each covering most of the one before). The board may be drawn again for the same
    state between finding the card and measuring it (a seat's presence or avatar arriving: the
    found element is then gone, with no box); the card is looked for again, as a person would
    find it again. BoardChanged if the card is gone."""
    card = page.locator(f'.hand button.card[data-idx="{idx}"]')
    for _ in range(5):
        try:
            card.wait_for(state="visible", timeout=5000)
        except PWTimeout:
            raise BoardChanged(idx) from None
        box = card.bounding_box()
        if box is not None:
            break
    else:
        raise BoardChanged(idx)
    try:
        card.click(position={"x": 7, "y": box["height"] / 2}, timeout=5000)
    except PWTimeout:
        raise BoardChanged(idx) from None


#: the clickable elements of a selector, read in one go (a redraw between reading and clicking
#: is caught by the click's retry below)
_CLICKABLE = """(sel) => [...document.querySelectorAll(sel)].map((e, i) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && !e.disabled ? [i, e.dataset.decision || e.dataset.slot || e.innerText] : null;
}).filter(Boolean)"""


def _click_any(page: Page, selector: str, rng: random.Random) -> str | None:
    """Click one of the enabled, visible elements of `selector`; None if there is none. The
    page may redraw between the choice and the click (a bot's move): then the choice is made
    again on the new page."""
    for _ in range(5):
        options = page.evaluate(_CLICKABLE, selector)
        if not options:
            return None
        i, label = rng.choice(options)
        try:
            page.locator(selector).nth(i).click(timeout=2000)
            return label
        except PWTimeout:
            continue
    return None


class AbluxxenPlayer:
    """Plays sets of one number (a whole group, sometimes part of one, sometimes with jokers);
    otherwise clicks one of the offered decisions (pool cards, deck, take/leave, ...)."""

    def __init__(self, page: Page, seed: int = 1):
        self.page = page
        self.rng = random.Random(seed)
        self.turns = 0
        self.checked_illegal = False
        self.checked_abluxx = 0
        self.predicted = False          # the page said the chosen set abluxxes somebody

    def _choose_set(self):
        """Select a set in the hand (after checking, once, that two different numbers are
        refused); the play button, enabled."""
        page, rng = self.page, self.rng
        self.turns += 1
        groups = page.eval_on_selector_all(
            ".hand .hand-group",
            "gs => gs.map(g => [...g.querySelectorAll('button.card')].map(b => [b.dataset.idx, b.dataset.value]))")
        numbers = [g for g in groups if g[0][1] != "X"]
        jokers = [g for g in groups if g[0][1] == "X"]
        if numbers and len(numbers) >= 2 and not self.checked_illegal:
            # two different numbers are not a set: the UI must refuse to confirm it
            self.checked_illegal = True
            click_hand_card(page, numbers[0][0][0])
            click_hand_card(page, numbers[1][0][0])
            assert page.locator("#play-btn").is_disabled()
            assert page.locator(".sel-bad").count() == 1
            page.click("#clear-btn")
        if numbers:
            g = max(numbers, key=len) if rng.random() < 0.5 else rng.choice(numbers)
            k = len(g) if rng.random() < 0.7 else rng.randint(1, len(g))
            pick = [idx for idx, _ in g[:k]]
            if jokers and rng.random() < 0.3:
                pick.append(jokers[0][0][0])
        else:
            pick = [idx for idx, _ in jokers[0]]
        for idx in pick:
            click_hand_card(page, idx)
        predicted = page.eval_on_selector_all(".seat-panel.would-hit", "ps => ps.map(p => p.dataset.seat)")
        ends = page.locator("#sel-info").get_attribute("data-ends") == "1"
        play = page.locator("#play-btn")
        assert page.locator(".hand button.card.is-selected").count() == len(pick)
        assert play.is_enabled(), page.locator(".action-bar").inner_text()
        self.predicted = predicted and not ends
        return play

    def act(self) -> None:
        page, rng = self.page, self.rng
        if page.locator("#play-btn").count():
            index = board(page)["index"]
            try:
                play = self._choose_set()
            except (BoardChanged, AssertionError, PWTimeout):
                if board(page)["index"] == index:       # nothing moved: a fault of the page
                    raise
                return                                  # played for it meanwhile: read again
            play.click()
            if self.predicted:
                # the UI said these players would be abluxxed: the first one must be (after a
                # duel's shadow step), and this player decides take / leave
                page.wait_for_selector("#take-btn, .shadow-btn, [data-status=over]", timeout=10000)
                if page.locator(".shadow-btn").count():
                    _click_any(page, ".shadow-btn", rng)
                    page.wait_for_selector("#take-btn, [data-status=over]", timeout=10000)
                if page.locator("#take-btn").count():
                    assert page.locator(".seat-panel .pending").count() == 1
                    self.checked_abluxx += 1
            return
        if page.locator("#take-btn").count():
            click_decision(page, "#take-btn" if rng.random() < 0.6 else "#leave-btn")
            return
        if page.locator("#keep-btn").count():
            click_decision(page, "#keep-btn" if rng.random() < 0.5 else "#discard-btn")
            return
        if _click_any(page, "#board .shadow-btn", rng):
            return
        # draws: a pool card or the deck; the optional draw may be passed
        if page.locator("#pass-btn").count() and rng.random() < 0.2:
            click_decision(page, "#pass-btn")
            return
        if _click_any(page, "#board .ab-centre [data-decision^='draw']:not([data-decision=''])", rng):
            return
        _click_any(page, "#action-bar button:not([disabled])", rng)


class KombioPlayer:
    """Draws and places or discards, uses actions by picking cards, passes (now and then snaps)
    in snap windows, and calls Kombio from its `call_after`-th turn on."""

    def __init__(self, page: Page, seed: int = 1, call_after: int = 2, snap_rate: float = 0.1):
        self.page = page
        self.rng = random.Random(seed)
        self.turns = 0
        self.call_after = call_after
        self.snap_rate = snap_rate
        self.snapped = 0
        self.readies = 0

    def pick_cards(self, limit: int = 2) -> None:
        for _ in range(limit):
            if not _click_any(self.page, "#board .game button.can-pick[data-slot]", self.rng):
                return
            if board(self.page)["status"] == "over":
                return
            # a decision was sent when the picking mode ended
            if not self.page.locator("#pick-hint").count():
                return

    def act(self) -> None:
        page, rng = self.page, self.rng
        has = lambda sel: page.locator(sel).count() > 0  # noqa: E731
        if has("#ready-btn"):                     # a round's summary: on to the next round
            page.click("#ready-btn")
            self.readies += 1
            return
        if has("#ko-pass"):
            snappable = "#board .snap-window button.can-pick[data-slot]"
            if has(snappable) and rng.random() < self.snap_rate:
                _click_any(page, snappable, rng)          # one click snaps
                self.snapped += 1
            else:
                click_decision(page, "#ko-pass")
            return
        if has("#ko-draw"):
            self.turns += 1
            if has("#ko-kombio") and self.turns > self.call_after:
                click_decision(page, "#ko-kombio")
            elif has("#ko-take") and rng.random() < 0.25:
                if click_decision(page, "#ko-take"):
                    self.pick_cards(1)
            else:
                click_decision(page, "#ko-draw")
            return
        if has("#ko-discard"):
            if rng.random() < 0.5:
                click_decision(page, "#ko-discard")
            else:
                self.pick_cards(1)
            return
        if has("#ko-skip"):
            if rng.random() < 0.25:
                click_decision(page, "#ko-skip")
            else:
                self.pick_cards(2)
            return
        if has("#ko-keep"):
            r = rng.random()
            if r < 0.5:
                click_decision(page, "#ko-keep")
            elif has("#ko-swap"):
                click_decision(page, "#ko-swap")
            else:
                self.pick_cards(1)
            return
        if has("#ko-hand-over"):
            click_decision(page, "#ko-hand-over" if rng.random() < 0.5 else "#ko-penalty")
            return
        if has("#board .game button.can-pick[data-slot]"):
            self.pick_cards(2)
            return
        _click_any(page, "#action-bar button:not([disabled])", rng)


def play_to_end(page: Page, player, on_turn=None, max_acts: int = 2000) -> int:
    """Let `player` act on the page until the game is over; returns the number of actions.
    Bounded by the player's own actions, not by the clock (a busy machine only makes it slower):
    each wait is for the next state, capped only to report a hang."""
    acts = 0
    while acts < max_acts:
        st = wait_my_turn(page, timeout=180.0)
        if st["status"] == "over":
            return acts
        if on_turn is not None and on_turn(acts):
            continue
        player.act()
        acts += 1
        wait_moved(page, st["index"])
    raise AssertionError(f"game not over after {acts} actions: {board(page)}")
