"""A player's identity in the browser, against a live server: an account sets its avatar, line
and country on its profile page (a line too long is refused there, in the page's language),
and its avatar and flag appear beside its name at its seat and in the lobby's list."""

from __future__ import annotations

from playwright.sync_api import expect

PASSWORD = "Kartenhaus im Regen 7"

#: sign up as `name` (as the dialog does) and make a Kombio table against a bot, its seat kept in this browser
SIGN_UP_AND_SIT = """async (name) => {
  const { api } = await import('/static/js/api.js');
  await api('POST', '/api/accounts', { name, password: '%s', claim: [] });
  localStorage.setItem('cardtable.account', name);       // as the sign-up dialog leaves it
  const out = await api('POST', '/api/tables', { game: 'kombio', players: 2, name,
    seats: [{ kind: 'human' }, { kind: 'bot', bot: 'easy' }] });
  localStorage.setItem(`cardtable.seat.${out.table.code}`,
    JSON.stringify({ token: out.join.token, seat: 0, name, game: 'kombio' }));
  return out.table.code; }""" % PASSWORD


def test_the_avatar_and_flag_appear_at_the_seat(new_page, server, artifacts):
    page = new_page(lang="de", width=1366, height=657)
    page.goto("/")
    code = page.evaluate(SIGN_UP_AND_SIT, "Ida Lind")
    # the profile page: a line too long is refused, then avatar 5, a line and Austria
    page.goto("/players/Ida%20Lind")
    page.click("#id-edit")
    page.fill("#id-line-input", "x" * 81)
    expect(page.locator("#id-count")).to_have_text("81 von 80 Zeichen")
    page.click("#id-save")
    expect(page.locator("#id-error")).to_have_text("die Profilzeile hat 81 Zeichen: höchstens 80")
    page.check("#id-avatar-5", force=True)
    page.fill("#id-line-input", "Kombio am Abend")
    page.select_option("#id-country", "AT")
    page.screenshot(path=str(artifacts / "profile-edit-de-1366.png"), full_page=True)
    page.click("#id-save")
    expect(page.locator("#id-line")).to_have_text("Kombio am Abend")
    # at the table: the seat's head has the avatar (the initials) and the flag
    page.goto(f"/t/{code}")
    head = page.locator(".seat-head", has=page.locator(".my-name"))
    expect(head.locator('.person .avatar[data-avatar="5"]')).to_have_text("IL")
    expect(head.locator('.person .person-flag[data-country="AT"]')).to_contain_text("\U0001F1E6\U0001F1F9")
    page.screenshot(path=str(artifacts / "profile-seat-de-1366.png"))
    # in the lobby's list of running games
    page.goto("/")
    item = page.locator(f'#running-tables .table-item[data-code="{code}"]')
    expect(item.locator('.person .avatar[data-avatar="5"]')).to_have_count(1)
