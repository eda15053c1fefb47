"""The table page keeps what the player had: the ♪ signals menu stays open across the status
bar's rebuilds (every game event rebuilds it) until the player closes it, and after a decision
the keyboard stays in the table (the next decision's first control or the hand), never on the
page's body (issue 28, items 4 and "focus").

A live server (tests/web/conftest.py: bots decide at once) and Debian's Chromium; Ann plays
Abluxxen against two `easy` bots with the keyboard only: Tab to a control, Space / Enter, and the
table's letter keys (P plays the selected cards)."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Page, expect

from policy import board, wait_my_turn

IN_BOARD = "() => document.getElementById('board').contains(document.activeElement)"
ON_CONTROL = """() => { const a = document.activeElement;
  return document.getElementById('board').contains(a) && a.matches('button:not(:disabled)'); }"""
ACTIVE = """() => { const a = document.activeElement;
  return a ? (a.id ? '#' + a.id : a.tagName + '.' + a.className) : 'none'; }"""


def new_table(page: Page, server, game: str = "abluxxen", players: int = 3, **extra) -> str:
    """Ann (this page) and easy bots at a table; the seat's token goes into the page's storage
    as the lobby would put it there."""
    r = httpx.post(server.base + "/api/tables", trust_env=False, timeout=10, json={
        "game": game, "players": players, "name": "Ann", **extra,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1)})
    assert r.status_code == 201, r.text
    code, out = r.json()["table"]["code"], r.json()["join"]
    page.goto("/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cardtable.seat.{code}", json.dumps({
                      "token": out["token"], "seat": out["seat"], "name": "Ann",
                      "game": game})])
    page.goto(f"/t/{code}")
    page.wait_for_selector("#board .game")
    return code


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches `selector` (keyboard only)."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{limit} Tabs did not reach {selector}; focus on {page.evaluate(ACTIVE)}")


def key_move(page: Page) -> int | None:
    """One decision of Ann's, by keyboard only; returns the board's index before it (None when
    the game is over)."""
    b = wait_my_turn(page)
    if b["status"] == "over":
        return None
    idx = b["index"]
    if page.locator("#play-btn").count():          # play a set: one card, Space, P
        tab_to(page, ".hand button.card:not(:disabled)")
        page.keyboard.press("Space")
        expect(page.locator(".hand button.card.is-selected")).to_have_count(1)
        if page.locator("#play-btn").is_disabled():  # not a set on its own: choose another card
            page.keyboard.press("c")
            page.keyboard.press("Tab")
            tab_to(page, ".hand button.card:not(:disabled)")
            page.keyboard.press("Space")
        page.keyboard.press("p")
    else:                                          # take/leave, keep/discard, a draw, pass
        tab_to(page, "#board button[data-decision]:not([data-decision='']):not(:disabled)")
        page.keyboard.press("Enter")
    page.wait_for_function("(i) => Number(document.getElementById('board').dataset.index) !== i",
                           arg=idx)
    return idx


def test_focus_stays_in_the_table_after_each_keyboard_move(new_page, server):
    page = new_page("en")
    new_table(page, server)
    moves = 0
    while moves < 6:
        if key_move(page) is None:
            break
        moves += 1
        # the answer to the move has been drawn: the keyboard is still in the table
        assert page.evaluate(IN_BOARD), f"move {moves}: focus on {page.evaluate(ACTIVE)}"
        b = wait_my_turn(page)
        if b["status"] == "over":
            break
        # the bots' moves were drawn too, and it is Ann's turn again: the keyboard is on a
        # control of the table (the decision's first one, or a hand card), no Tabs needed
        assert page.evaluate(ON_CONTROL), f"after move {moves}: focus on {page.evaluate(ACTIVE)}"
    assert moves >= 4


def test_focus_stays_in_the_table_after_each_keyboard_move_in_kombio(new_page, server):
    """Kombio by keyboard: Tab to the decision's button, Enter (draw, discard, skip an action,
    pass in a snap window: the window waits for Ann)."""
    page = new_page("en")
    new_table(page, server, "kombio", players=2, snap_seconds=60)
    moves = 0
    while moves < 8:
        b = wait_my_turn(page)
        if b["status"] == "over" or page.locator("#ready-btn").count():
            break
        for sel in ("#ko-pass", "#ko-skip", "#ko-discard", "#ko-draw"):
            if page.locator(sel).count():
                break
        else:
            raise AssertionError(page.locator("#action-bar").inner_text())
        tab_to(page, sel)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(i) => Number(document.getElementById('board').dataset.index) !== i", arg=b["index"])
        moves += 1
        assert page.evaluate(IN_BOARD), f"move {moves} ({sel}): focus on {page.evaluate(ACTIVE)}"
    assert moves >= 4


def test_signals_menu_stays_open_across_game_events(new_page, server):
    page = new_page("en")
    new_table(page, server)
    wait_my_turn(page)
    page.click("#signals summary")
    menu = page.locator("#signals")
    expect(menu).to_have_attribute("open", "")
    expect(page.locator("#pref-sound")).to_be_visible()
    # Ann plays on with the keyboard (the menu stays where it is); every move and every bot
    # move is a game event that rebuilds the status bar
    for _ in range(3):
        before = board(page)["index"]
        if key_move(page) is None:
            break
        wait_my_turn(page)
        assert board(page)["index"] > before
        assert menu.get_attribute("open") is not None, "the ♪ menu closed by itself"
        expect(page.locator("#pref-sound")).to_be_visible()
    # a setting changed in the menu keeps it open too, and stays set
    page.check("#pref-sound")
    expect(menu).to_have_attribute("open", "")
    expect(page.locator("#pref-sound")).to_be_checked()
    # Escape closes it and gives the keyboard back to its button
    page.focus("#pref-sound")
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    assert page.evaluate("document.activeElement === document.querySelector('#signals summary')")
    # open again; a click elsewhere closes it
    page.click("#signals summary")
    expect(menu).to_have_attribute("open", "")
    page.click(".sb-title")
    expect(menu).not_to_have_attribute("open", "")


def test_signals_menu_opened_as_the_bar_is_rebuilt_stays_open(new_page, server):
    """The ♪ menu's toggle event comes a task after the click that opened it; a rebuild of the
    bar between them (a game event; here the language switch, in the same task as the click)
    draws the menu open, as the player left it, and closed again the same way."""
    page = new_page("en")
    new_table(page, server)
    wait_my_turn(page)
    menu = page.locator("#signals")
    click_then_rebuild = """(lang) => { document.querySelector('#signals summary').click();
      document.querySelector(`#lang-switch button[data-lang="${lang}"]`).click(); }"""
    page.evaluate(click_then_rebuild, "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(menu).to_have_attribute("open", "")
    expect(page.locator("#pref-sound")).to_be_visible()
    page.evaluate(click_then_rebuild, "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(menu).not_to_have_attribute("open", "")
    # a later rebuild (the language again) keeps it closed
    page.evaluate("() => document.querySelector('#lang-switch button[data-lang=\"de\"]').click()")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(menu).not_to_have_attribute("open", "")
