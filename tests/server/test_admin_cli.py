"""`cardtable admin` on SQLite and PostgreSQL, without the server running: roles, bans and
suspensions (of accounts, addresses, browsers), unbans, renames, the audit log; bad input is
one line, exit status 2, and changes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client

from cardtable.cli.main import main


@pytest.fixture(scope="module")
def db(database):
    """The database with the accounts Alma and Bruno (made by a server that is gone again)."""
    with app_client(database) as b:
        for name in ("Alma", "Bruno"):
            r, _ = b.sign_up(name)
            assert r.status_code == 201, r.text
    return database


def admin(capsys, db, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(["admin", *args, "--database", db])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_roles_are_granted_and_revoked_and_audited(db, capsys):
    rc, out, _ = admin(capsys, db, "role", "alma", "moderator", "--reason", "evenings")
    assert rc == 0 and "Alma: player -> moderator" in out
    rc, out, _ = admin(capsys, db, "staff")
    assert rc == 0 and "moderator  Alma" in out
    rc, out, _ = admin(capsys, db, "role", "Alma", "admin", "--reason", "more")
    assert rc == 0 and "moderator -> admin" in out
    rc, out, _ = admin(capsys, db, "audit", "--json")
    assert rc == 0
    first = out.splitlines()[0]
    assert '"action": "role"' in first and '"target": "Alma"' in first
    assert '"actor": "terminal:' in first and '"reason": "more"' in first
    assert '"from": "moderator"' in first and '"to": "admin"' in first


@pytest.mark.parametrize("args, words", [
    (("role", "Alma", "king", "--reason", "x"), "ROLE: 'king' is not one of"),
    (("role", "Nobody", "admin", "--reason", "x"), "no account is named 'Nobody'"),
    (("role", "Alma", "admin", "--reason", "  "), "give a reason"),
    (("ban", "Bruno", "--for", "3 years", "--reason", "x"), "--for: '3 years' is neither"),
    (("ban", "Bruno", "--until", "2001-01-01", "--reason", "x"), "has passed already"),
    (("ban", "Bruno", "--address", "1.2.3.4", "--reason", "x"), "name one target"),
    (("ban", "--address", "not-an-ip", "--reason", "x"), "is not an IPv4 or IPv6 address"),
    (("ban", "--client", "short", "--reason", "x"), "a client identity is 16 to 64"),
    (("ban", "--seat", "ABCD", "--reason", "x"), "is not CODE:SEAT"),
    (("ban", "--seat", "ABCD:1", "--reason", "x"), "table ABCD has no seat 1"),
    (("suspend", "Alma", "--reason", "x"), "a suspension needs its end"),
    (("unban", "Alma", "--reason", "x"), "account Alma has no ban or suspension in force"),
    (("rename", "Alma", "bruno", "--reason", "x"), "has an account"),
    (("rename", "Alma", "Bot 7", "--reason", "x"), "NEW_NAME: a name may not start"),
])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(db, capsys, args, words):
    _, before, _ = admin(capsys, db, "audit", "--json")
    rc, out, err = admin(capsys, db, *args)
    assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    _, after, _ = admin(capsys, db, "audit", "--json")
    assert after == before


def test_a_database_that_is_not_there_is_refused(tmp_path, capsys):
    rc, _, err = admin(capsys, str(tmp_path / "none.db"), "staff")
    assert rc == 2 and "no SQLite database file" in err


def test_bans_suspensions_unbans_and_renames(db, capsys):
    rc, out, _ = admin(capsys, db, "suspend", "Bruno", "--for", "3d", "--reason", "insults")
    assert rc == 0 and out.startswith("suspended account Bruno until ")
    rc, out, _ = admin(capsys, db, "ban", "--address", "2001:db8:1:2:3:4:5:6", "--reason",
                       "spam")
    assert rc == 0 and "banned address 2001:db8:1:2::/64" in out
    rc, out, _ = admin(capsys, db, "ban", "--client", "abcdefghijklmnop1234", "--reason",
                       "spam", "--for", "12h")
    assert rc == 0 and "suspended person " in out
    rc, out, _ = admin(capsys, db, "bans")
    lines = out.splitlines()
    assert len(lines) == 3
    assert "account  Bruno" in lines[2] and "insults" in lines[2]
    assert "address  2001:db8:1:2::/64" in lines[1] and "until -" in lines[1]
    rc, out, _ = admin(capsys, db, "unban", "Bruno", "--reason", "appeal")
    assert rc == 0 and "lifted 1 ban(s) of account Bruno" in out
    rc, out, _ = admin(capsys, db, "unban", "--address", "2001:db8:1:2::99", "--reason", "ok")
    assert rc == 0
    rc, out, _ = admin(capsys, db, "bans")
    assert len(out.splitlines()) == 1 and "person" in out
    rc, out, _ = admin(capsys, db, "rename", "Bruno", "Bruno Bravo", "--reason", "asked")
    assert rc == 0 and "renamed Bruno to Bruno Bravo" in out
    rc, out, _ = admin(capsys, db, "audit")
    actions = [line.split()[4] for line in out.splitlines()]
    assert actions[:6] == ["rename", "unban", "unban", "suspend", "ban", "suspend"]
