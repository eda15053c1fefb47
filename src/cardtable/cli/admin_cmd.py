"""`cardtable admin`: the operator's moderation commands on the server's database, without
the server running (SQLite or PostgreSQL, the same `--database` as `cardtable serve`;
docs/deploy.md, "Moderation"). `register(app)` adds them to a Typer app.

    cardtable admin role Alma moderator --reason "runs the Tuesday evenings"
    cardtable admin staff
    cardtable admin ban Bruno --reason "insults" [--for 3d | --until 2026-12-24T18:00Z]
    cardtable admin suspend Bruno --for 3d --reason "insults"    # the same as ban --for
    cardtable admin ban --address 203.0.113.7 --reason "sign-up spam" --for 1d
    cardtable admin ban --client <client identity> --reason "..."
    cardtable admin ban --seat K7QX:2 --reason "..."          # the guest who took that seat
    cardtable admin unban Bruno --reason "appeal accepted"
    cardtable admin bans
    cardtable admin rename Bruno Bruno2 --reason "offensive name"
    cardtable admin mute Bruno --for 1h --reason "insults" [--seat K7QX:2 | --client ID]
    cardtable admin unmute Bruno --reason "apologised"
    cardtable admin warn Bruno --text "Please keep the table talk friendly."
    cardtable admin announce --en "Maintenance at 22:00" --de "Wartung um 22:00" [--for 3h]
    cardtable admin announce --end
    cardtable admin remove-line 4711 --reason "insult"       # a chat line (a report's `line`)
    cardtable admin annul K7QX --reason "collusion"         # a finished rated game
    cardtable admin reports [--all]
    cardtable admin audit [--limit 50]

A ban with `--for`/`--until` is a suspension. Every change writes a row of the audit log
(the actor: `terminal:<login name>`). Bad input is one line and exit status 2 (ConfigError),
and changes nothing.
"""

from __future__ import annotations

import asyncio
import getpass
import json
import os
from datetime import datetime, timezone

import typer

from cardtable.core.errors import ConfigError


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def actor() -> str:
    """Who acts from the terminal: `terminal:<login name>`."""
    try:
        who = getpass.getuser()
    except Exception:                               # noqa: BLE001 -- no login name
        who = str(os.getuid()) if hasattr(os, "getuid") else "?"
    return f"terminal:{who}"


def run(database: str, password_file: str | None, make_op, write: bool = True):
    """Run `make_op()` (a moderation operation) on the database: ConfigError if it is not a
    cardtable database at this release's schema, or for a ModError."""
    from sqlalchemy.exc import DBAPIError

    from cardtable.server.config import DatabaseURL, read_password_file
    from cardtable.server.mod.moderation import ModError
    from cardtable.server.people import accounts as A
    from cardtable.server.store import migrate as M
    from cardtable.server.store.db import Store

    try:
        url = DatabaseURL(database, read_password_file(password_file) if password_file
                          else None)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    if not url.is_postgres and not os.path.isfile(url.sync_url.database):
        raise ConfigError(f"no SQLite database file {url.sync_url.database!r}")
    try:
        current, head = M.current_and_head(url)
    except DBAPIError as e:
        raise ConfigError(f"cannot read the database: {' '.join(str(e.orig).split())}") \
            from None
    if current is None:
        raise ConfigError(f"{url.display()} is not a cardtable database (no schema revision)")
    if current != head:
        raise ConfigError(f"the database is at schema revision {current}, this release's is "
                          f"{head}: run `cardtable migrate` (or start the server) first")

    async def go():
        store = Store(url, pool_size=1, max_overflow=0)
        try:
            if write:
                return await A.write(store, make_op)
            return await A.read(store, make_op())
        finally:
            await store.close()
    try:
        return asyncio.run(go())
    except ModError as e:
        raise ConfigError(str(e)) from None


def _keys(name: str) -> tuple[str, str]:
    from cardtable.server.guard.security import BadName, clean_name, name_keys

    try:
        return name_keys(clean_name(name))
    except BadName as e:
        raise ConfigError(f"{name!r} is not a name: {e}") from None


def _until(for_: str | None, until: str | None) -> float | None:
    from cardtable.server.mod.moderation import ModError, parse_until

    if for_ and until:
        raise ConfigError("give --for or --until, not both")
    try:
        return parse_until(for_ or until) if (for_ or until) else None
    except ModError as e:
        raise ConfigError(f"{'--for' if for_ else '--until'}: {e}") from None


def _target(name: str | None, address: str | None, client: str | None, seat: str | None,
            db: tuple[str, str | None]) -> tuple[str, str, str]:
    """(kind, target, how the audit log names it) of exactly one of the four ways."""
    import ipaddress

    from cardtable.server.guard.netaddr import addr_group
    from cardtable.server.guard.security import CLIENT_ID
    from cardtable.server.mod import moderation as M

    given = [x for x in (name, address, client, seat) if x]
    if len(given) != 1:
        raise ConfigError("name one target: an account's NAME, or --address, --client or "
                          "--seat")
    if address:
        try:
            ipaddress.ip_address(address.split("/")[0])
        except ValueError:
            raise ConfigError(f"--address: {address!r} is not an IPv4 or IPv6 address") \
                from None
        group = addr_group(address.split("/")[0])
        return "address", group, f"address {group}"
    if client:
        if not CLIENT_ID.match(client):
            raise ConfigError("--client: a client identity is 16 to 64 letters, digits, '-' "
                              "or '_'")
        person = M.person_of_client(client)
        return "person", person, f"person {person[:8]}"
    if seat:
        code, _, n = seat.partition(":")
        if not code.isalnum() or not n.isdigit():
            raise ConfigError(f"--seat: {seat!r} is not CODE:SEAT (K7QX:2)")
        person = run(db[0], db[1], lambda: M.seat_person(code.upper(), int(n)), write=False)
        if person is None:
            raise ConfigError(f"--seat: table {code.upper()} has no seat {n} taken by a client")
        return "person", person, f"person {person[:8]} (table {code.upper()} seat {n})"
    return "account", "", name


def register(app: typer.Typer) -> None:
    admin = typer.Typer(help="Moderation on the server's database (roles, bans, renames, "
                             "reports, the audit log); works without the server running.",
                        no_args_is_help=True)
    app.add_typer(admin, name="admin")
    database_opt = typer.Option("cardtable.db", "--database", metavar="URL",
                                envvar="CARDTABLE_DATABASE_URL",
                                help="SQLite file or postgresql://user@host/db")
    password_opt = typer.Option(None, "--database-password-file", metavar="FILE",
                                envvar="CARDTABLE_DATABASE_PASSWORD_FILE",
                                help="PostgreSQL: the password, the first line of FILE")
    reason_opt = typer.Option(..., "--reason", help="why (into the audit log; a ban's reason "
                                                     "is shown to the player)")

    @admin.command("role", help="Give an account a role: player, moderator or admin.")
    def role_cmd(name: str = typer.Argument(..., metavar="NAME"),
                 role: str = typer.Argument(..., metavar="ROLE"),
                 reason: str = reason_opt, database: str = database_opt,
                 database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        if role not in M.ROLES:
            raise ConfigError(f"ROLE: {role!r} is not one of {', '.join(M.ROLES)}")
        keys = _keys(name)
        shown, before = run(database, database_password_file,
                            lambda: M.set_role(actor(), keys, name, role, reason))
        typer.echo(f"{shown} is {role} already" if before == role else
                   f"{shown}: {before} -> {role}")

    @admin.command("staff", help="List the moderators and admins.")
    def staff_cmd(database: str = database_opt,
                  database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        rows = run(database, database_password_file, M.staff, write=False)
        for name, role in rows:
            typer.echo(f"{role:<10} {name}")
        if not rows:
            typer.echo("(nobody: every account is a player)")

    @admin.command("ban", help="Ban (or with --for/--until suspend) an account, an address "
                               "group, a browser (client identity) or the guest of a seat.")
    def ban_cmd(name: str = typer.Argument(None, metavar="[NAME]"),
                address: str = typer.Option(None, "--address", help="an IPv4 address, or an "
                                            "IPv6 address (its /64 is banned)"),
                client: str = typer.Option(None, "--client", help="a browser's client "
                                           "identity"),
                seat: str = typer.Option(None, "--seat", metavar="CODE:SEAT",
                                         help="the browser (or address) that took this seat"),
                for_: str = typer.Option(None, "--for", metavar="DURATION",
                                         help="suspend for 30m, 12h, 3d, 2w"),
                until: str = typer.Option(None, "--until", metavar="WHEN",
                                          help="suspend until (ISO 8601, UTC by default)"),
                reason: str = reason_opt, database: str = database_opt,
                database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        from cardtable.server.config import DatabaseURL

        end = _until(for_, until)
        kind, target, shown = _target(name, address, client, seat,
                                      (database, database_password_file))
        try:        # PostgreSQL: the servers close the connections it names at once
            notify = DatabaseURL(database).is_postgres
        except ValueError as e:
            raise ConfigError(str(e)) from None
        who = actor()
        if kind == "account":
            keys = _keys(name)
            out = run(database, database_password_file,
                      lambda: M.ban_account(who, keys, name, reason, end, notify))
            shown = f"account {out['name']}"
        else:
            run(database, database_password_file,
                lambda: M.ban(who, kind, target, shown, reason, end, notify))
        typer.echo(f"banned {shown}" if end is None else
                   f"suspended {shown} until {_when(end)}")

    @admin.command("suspend", help="Suspend until a time (--for or --until, required): as "
                                   "ban with an end.")
    def suspend_cmd(name: str = typer.Argument(None, metavar="[NAME]"),
                    address: str = typer.Option(None, "--address"),
                    client: str = typer.Option(None, "--client"),
                    seat: str = typer.Option(None, "--seat", metavar="CODE:SEAT"),
                    for_: str = typer.Option(None, "--for", metavar="DURATION",
                                             help="30m, 12h, 3d, 2w"),
                    until: str = typer.Option(None, "--until", metavar="WHEN",
                                              help="ISO 8601, UTC by default"),
                    reason: str = reason_opt, database: str = database_opt,
                    database_password_file: str = password_opt) -> None:
        if not for_ and not until:
            raise ConfigError("a suspension needs its end: --for DURATION or --until WHEN "
                              "(a ban without an end: cardtable admin ban)")
        ban_cmd(name, address, client, seat, for_, until, reason, database,
                database_password_file)

    @admin.command("unban", help="Lift the ban or suspension of an account, address, client "
                                 "or seat's guest.")
    def unban_cmd(name: str = typer.Argument(None, metavar="[NAME]"),
                  address: str = typer.Option(None, "--address"),
                  client: str = typer.Option(None, "--client"),
                  seat: str = typer.Option(None, "--seat", metavar="CODE:SEAT"),
                  reason: str = reason_opt, database: str = database_opt,
                  database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        kind, target, shown = _target(name, address, client, seat,
                                      (database, database_password_file))
        who = actor()
        if kind == "account":
            keys = _keys(name)
            n = run(database, database_password_file,
                    lambda: M.unban_account(who, keys, name, reason))
        else:
            n = run(database, database_password_file,
                    lambda: M.unban(who, kind, target, shown, reason))
        if kind == "account":
            shown = f"account {name}"
        if not n:
            raise ConfigError(f"{shown} has no ban or suspension in force")
        typer.echo(f"lifted {n} ban(s) of {shown}")

    @admin.command("mute", help="Mute an account, a browser (client identity) or the guest "
                                "of a seat in table talk until a time (--for or --until, "
                                "required).")
    def mute_cmd(name: str = typer.Argument(None, metavar="[NAME]"),
                 client: str = typer.Option(None, "--client"),
                 seat: str = typer.Option(None, "--seat", metavar="CODE:SEAT"),
                 for_: str = typer.Option(None, "--for", metavar="DURATION",
                                          help="30m, 12h, 3d, 2w"),
                 until: str = typer.Option(None, "--until", metavar="TIME",
                                           help="ISO 8601, UTC unless it names a zone"),
                 reason: str = reason_opt, database: str = database_opt,
                 database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import notices as N

        end = _until(for_, until)
        if end is None:
            raise ConfigError("a mute needs an end: --for or --until")
        kind, target, shown = _target(name, None, client, seat,
                                      (database, database_password_file))
        who = actor()
        if kind == "account":
            keys = _keys(name)
            out = run(database, database_password_file,
                      lambda: N.mute_account(who, keys, name, reason, end))
            shown = f"account {out['name']}"
        else:
            run(database, database_password_file,
                lambda: N.mute(who, kind, target, shown, reason, end))
        typer.echo(f"muted {shown} until {_when(end)}")

    @admin.command("unmute", help="Lift the mute of an account, client or seat's guest.")
    def unmute_cmd(name: str = typer.Argument(None, metavar="[NAME]"),
                   client: str = typer.Option(None, "--client"),
                   seat: str = typer.Option(None, "--seat", metavar="CODE:SEAT"),
                   reason: str = reason_opt, database: str = database_opt,
                   database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import notices as N

        kind, target, shown = _target(name, None, client, seat,
                                      (database, database_password_file))
        who = actor()
        if kind == "account":
            keys = _keys(name)
            n = run(database, database_password_file,
                    lambda: N.unmute_account(who, keys, name, reason))
            shown = f"account {name}"
        else:
            n = run(database, database_password_file,
                    lambda: N.unmute(who, kind, target, shown, reason))
        if not n:
            raise ConfigError(f"{shown} has no mute in force")
        typer.echo(f"lifted the mute of {shown}")

    @admin.command("warn", help="Warn an account: it reads TEXT on the site.")
    def warn_cmd(name: str = typer.Argument(..., metavar="NAME"),
                 text: str = typer.Option(..., "--text", help="what the player reads (also "
                                          "the audit row's reason)"),
                 database: str = database_opt,
                 database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import notices as N

        keys = _keys(name)
        out = run(database, database_password_file, lambda: N.warn(actor(), keys, name, text))
        typer.echo(f"warned {out['name']}")

    @admin.command("announce", help="Post the banner of the lobby and the tables (both "
                                    "languages), or end it (--end).")
    def announce_cmd(en: str = typer.Option(None, "--en", help="the English words"),
                     de: str = typer.Option(None, "--de", help="the German words"),
                     for_: str = typer.Option(None, "--for", metavar="DURATION",
                                              help="30m, 12h, 3d, 2w"),
                     until: str = typer.Option(None, "--until", metavar="TIME",
                                               help="ISO 8601, UTC unless it names a zone"),
                     end: bool = typer.Option(False, "--end", help="end the banner shown"),
                     database: str = database_opt,
                     database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import notices as N

        if end:
            if en or de or for_ or until:
                raise ConfigError("--end takes no text or time")
            if not run(database, database_password_file,
                       lambda: N.end_announcement(actor())):
                raise ConfigError("no announcement is shown")
            typer.echo("ended the announcement")
            return
        if not en or not de:
            raise ConfigError("an announcement needs --en and --de (or --end)")
        when = _until(for_, until)
        run(database, database_password_file, lambda: N.announce(actor(), en, de, when))
        typer.echo("announced" + (f" until {_when(when)}" if when else ""))

    @admin.command("bans", help="List the bans and suspensions in force.")
    def bans_cmd(database: str = database_opt,
                 database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        rows = run(database, database_password_file, M.active_bans, write=False)
        for b in rows:
            what = (b["name"] or f"(deleted: {b['target']})") if b["kind"] == "account" \
                else b["target"]
            typer.echo(f"{b['id']:>5} {b['kind']:<8} {what:<34} until {_when(b['until']):<20} "
                       f"by {b['created_by']}: {b['reason']}")
        if not rows:
            typer.echo("(no bans or suspensions in force)")

    @admin.command("remove-line", help="Remove a line of table talk (its number: the "
                                       "report's `line`): players see \"removed by a "
                                       "moderator\" instead of it.")
    def remove_line_cmd(line: int = typer.Argument(..., metavar="LINE", min=1),
                        reason: str = reason_opt, database: str = database_opt,
                        database_password_file: str = password_opt) -> None:
        from cardtable.server.config import DatabaseURL
        from cardtable.server.mod import notices as N

        try:
            postgres = DatabaseURL(database).is_postgres
        except ValueError as e:
            raise ConfigError(str(e)) from None
        out = run(database, database_password_file,
                  lambda: N.remove_line(actor(), line, reason, postgres))
        typer.echo(f"removed line {out['line']} of {out['name']} at table {out['code']}"
                   if out["removed"] else f"line {out['line']} was removed already")

    @admin.command("rename", help="Rename an account.")
    def rename_cmd(name: str = typer.Argument(..., metavar="NAME"),
                   new: str = typer.Argument(..., metavar="NEW_NAME"),
                   reason: str = reason_opt, database: str = database_opt,
                   database_password_file: str = password_opt) -> None:
        from cardtable.server.guard.security import BadName, clean_name
        from cardtable.server.mod import moderation as M

        try:
            new_name = clean_name(new)
        except BadName as e:
            raise ConfigError(f"NEW_NAME: {e}") from None
        keys, new_keys = _keys(name), _keys(new_name)
        old, shown = run(database, database_password_file,
                         lambda: M.rename(actor(), keys, name, new_name, new_keys, reason))
        typer.echo(f"renamed {old} to {shown}")

    @admin.command("annul", help="Annul a finished rated game (collusion): it stays in the "
                                 "records, and the ratings it touched are recomputed without "
                                 "it.")
    def annul_cmd(code: str = typer.Argument(..., metavar="CODE"),
                  reason: str = reason_opt, database: str = database_opt,
                  database_password_file: str = password_opt) -> None:
        from cardtable.server.config import DatabaseURL
        from cardtable.server.mod import moderation as M

        try:
            postgres = DatabaseURL(database, None).is_postgres
        except ValueError:
            postgres = False                  # run() says what is wrong with it
        out = run(database, database_password_file,
                  lambda: M.annul_game(actor(), code, reason, postgres))
        typer.echo(f"annulled the {out['game']} game of table {out['code']}; recomputed "
                   f"{len(out['players'])} rating(s)")

    @admin.command("reports", help="List the reports (open ones; --all: also resolved).")
    def reports_cmd(all_: bool = typer.Option(False, "--all"),
                    database: str = database_opt,
                    database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        rows = run(database, database_password_file, lambda: M.report_list(not all_),
                   write=False)
        for r in rows:
            state = r["outcome"] or ("claimed by " + r["claimed_by"] if r["claimed_by"]
                                     else "open")
            typer.echo(f"{r['id']:>5} {_when(r['created_at'])} {r['reporter']} reports "
                       f"{r['target_name']} ({r['reason']}) [{state}] {r['note']}")
        if not rows:
            typer.echo("(no open reports)" if not all_ else "(no reports)")

    @admin.command("audit", help="Read the audit log, newest first.")
    def audit_cmd(limit: int = typer.Option(50, "--limit", min=1, max=500),
                  as_json: bool = typer.Option(False, "--json"),
                  database: str = database_opt,
                  database_password_file: str = password_opt) -> None:
        from cardtable.server.mod import moderation as M

        rows = run(database, database_password_file, lambda: M.audit_rows(limit),
                   write=False)
        for r in rows:
            if as_json:
                typer.echo(json.dumps(r, ensure_ascii=False, sort_keys=True))
            else:
                typer.echo(f"{_when(r['at'])} {r['actor']} {r['action']} {r['target']}: "
                           f"{r['reason']}" + (f" {json.dumps(r['detail'], sort_keys=True)}"
                                               if r["detail"] else ""))
