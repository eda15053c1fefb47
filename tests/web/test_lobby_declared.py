"""The lobby takes what a game declares from GET /api/games (issue 30), not from a copy in the
browser: rule sets, players per rule set and their default, the settings' defaults. The test
changes the server's answer on its way to the page and sees the form follow it."""

from __future__ import annotations

import json


def _declared(route):
    """GET /api/games as the server answers, with other declared values: Abluxxen's basic game
    for 3 or 4 players (default 3), Kombio's target 77 and snap window 8 s, memory on."""
    games = route.fetch().json()
    for g in games:
        if len(g["variants"]) > 1:
            g["players"]["basic"] = [3, 4]
        for rs in g.get("rule_sets", []):
            if rs["name"] == "basic" and len(g["variants"]) > 1:
                rs.update(max_players=4, default_players=3)
        for o in g.get("settings", []) + g.get("table_settings", []):
            o["default"] = {"target": 77, "snap_seconds": 8, "memory": True}.get(o["name"],
                                                                                o["default"])
    route.fulfill(status=200, content_type="application/json", body=json.dumps(games))


def test_the_lobby_form_follows_the_declarations(new_page, server):
    page = new_page("en")
    page.route("**/api/games", _declared)
    page.goto("/")
    page.wait_for_selector("#f-variant")
    first = [o.get_attribute("value") for o in page.query_selector_all("#f-game option")][0]
    assert page.input_value("#f-game") == first
    assert page.input_value("#f-players") == "3"                  # the declared default
    assert [o.get_attribute("value") for o in page.query_selector_all("#f-players option")] \
        == ["3", "4"]
    page.select_option("#f-variant", "duel")                      # players follow the rule set
    assert page.input_value("#f-players") == "2"
    page.select_option("#f-variant", "classic")
    assert page.input_value("#f-players") == "2"
    page.select_option("#f-game", "kombio")
    page.wait_for_selector("#f-snap_seconds")
    assert (page.input_value("#f-target"), page.input_value("#f-snap_seconds"),
            page.is_checked("#f-memory")) == ("77", "8", True)
    assert page.query_selector("#f-variant") is None              # one rule set: no choice
