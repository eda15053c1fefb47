"""The whole way of issue 32 in one journey, in Chromium against a live server: two accounts
become friends, one opens a rated table and invites the other with one click, the invitation
shows in the friend's lobby, they play the rated game to its end, both ratings move, and the
list of provisional ratings shows them both (the winner first)."""

from __future__ import annotations

import re
import secrets

import httpx
from playwright.sync_api import expect
from policy import KombioPlayer
from test_web_friends import LAPTOP, PHONE, POLLED, TABLE_URL, playing, sign_up
from test_web_ratings import play_together


def test_friends_invite_each_other_to_a_rated_game_and_the_ratings_move(new_page, server):
    n = secrets.randbelow(10**6)
    ann, bob = f"Ann{n}", f"Bob{n}"
    a = new_page("en", **LAPTOP)
    b = new_page("de", phone=True, **PHONE)
    sign_up(a, ann)
    sign_up(b, bob)

    # friends: Ann asks, Bob accepts
    a.fill("#fr-name", bob)
    a.press("#fr-name", "Enter")
    req = b.locator(f'#fr-incoming .fr-item[data-name="{ann}"]')
    expect(req).to_be_visible(timeout=POLLED)
    req.get_by_role("button", name=f"Anfrage von {ann} annehmen").tap()
    expect(b.locator(f'#friend-list .fr-item[data-name="{ann}"]')).to_be_visible()

    # Ann opens a rated Kombio table for two (a short game: target 1) and invites Bob
    a.goto("/")
    a.wait_for_selector("#f-rated")
    a.select_option("#f-game", "kombio")
    a.select_option("#f-players", "2")
    a.select_option("#seat-kind-1", "human")
    a.fill("#f-target", "1")
    expect(a.locator("#f-name-as")).to_contain_text(ann)          # logged in: the account's
    a.uncheck("#f-public")
    a.check("#f-rated")
    a.click("#create-btn")
    a.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(a.url).group(1)
    assert httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()["rated"]
    row = a.locator(f'#invite-list .fr-item[data-name="{bob}"]')
    expect(row).to_be_visible(timeout=POLLED)
    row.get_by_role("button", name=f"Invite {bob} to this table").click()
    expect(row.locator("button")).to_have_text("Invited")

    # Bob accepts the invitation in his lobby and takes the seat
    invite = b.locator(f'#fr-invites .fr-invite[data-code="{code}"]')
    expect(invite).to_be_visible(timeout=POLLED)
    expect(invite.locator(".chip-rated")).to_have_text("gewertet")     # the invitation says so
    invite.get_by_role("button",
                       name=f"Einladung von {ann} annehmen und zu Tisch {code} gehen").tap()
    b.wait_for_url(re.compile(f".*/t/{code}$"))
    expect(b.locator("#join-pace")).to_have_text("Tempo: Echtzeit")
    b.click("#take-seat")
    playing(b)
    playing(a)

    # the rated game to its end
    play_together([(a, KombioPlayer(a, seed=3, call_after=1)),
                   (b, KombioPlayer(b, seed=4, call_after=1))])
    prof = {x: httpx.get(f"{server.base}/api/players/{x}", trust_env=False).json()
            for x in (ann, bob)}
    assert all(p["ratings"][0]["games"] == 1 for p in prof.values())
    winner = ann if prof[ann]["recent"][0]["won"] else bob
    loser = bob if winner == ann else ann
    mus = {x: p["ratings"][0]["mu"] for x, p in prof.items()}
    assert mus[winner] > 25 > mus[loser], mus

    # the list of provisional ratings (one game each) shows both, the winner first
    a.goto("/leaderboard/kombio")
    names = a.locator("#rt-prov tbody tr")
    expect(names.filter(has_text=ann)).to_have_count(1)
    expect(names.filter(has_text=bob)).to_have_count(1)
    order = [r.get_attribute("data-name") for r in names.all()]
    assert order.index(winner) < order.index(loser), order
