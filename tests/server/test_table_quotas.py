"""The quotas of unfinished tables (tables/quotas.py): live and turn-based tables are counted
apart, and a logged-in creator's tables are the account's, counted per account and not with
the address's; each refusal says which quota is full (its own error code, a text in both
languages that says what the player can do)."""

from __future__ import annotations

from accounts_helpers import app_client

from cardtable.i18n import t
from cardtable.server.guard.security import Limits

LIVE = {"game": "kombio", "players": 2, "public": False, "name": "Ann"}
TURN = {"game": "abluxxen", "variant": "duel", "players": 2, "public": False, "name": "Ann",
        "pace": "turn", "move_seconds": 86400}


def test_live_turn_based_and_account_tables_have_quotas_of_their_own(tmp_path):
    limits = Limits.off()
    limits.tables, limits.turn_tables = 1, 1
    with app_client(str(tmp_path / "q.db"), limits) as web:
        def create(body, sess=None):
            return web.call("POST", "/api/tables", sess, json=body)

        assert create(LIVE).status_code == 201
        r = create(LIVE)
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
        assert create(TURN).status_code == 201          # counted apart from the live ones
        r = create(TURN)
        assert r.status_code == 429 and r.json()["error"] == "too_many_turn_tables", r.text
        # an account from the same address has its own quota
        _, sess = web.sign_up("Berta")
        assert create(LIVE, sess).status_code == 201
        assert create(TURN, sess).status_code == 201
        r = create(LIVE, sess)
        assert r.status_code == 429 and r.json()["error"] == "too_many_account_tables", r.text
        r = create(TURN, sess)
        assert r.status_code == 429 and \
            r.json()["error"] == "too_many_account_turn_tables", r.text
        # the guest's quota is still full: the account's tables were not counted there
        assert create(LIVE).json()["error"] == "too_many_tables"


def test_every_refusal_says_what_to_do_in_both_languages():
    for code in ("too_many_tables", "too_many_turn_tables", "too_many_account_tables",
                 "too_many_account_turn_tables"):
        en, de = t("en", f"err.api.{code}", most=2), t("de", f"err.api.{code}", most=2)
        assert "My games" in en and "Meine Spiele" in de and en != de
    assert "log in" in t("en", "err.api.too_many_tables", most=12)
