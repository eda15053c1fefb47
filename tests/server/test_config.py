"""The server's settings, declared once (server/config.py OPTIONS): both entry points and
`cardtable doctor` take the same options; each setting comes from the command line, the
environment (CARDTABLE_<NAME>) or a TOML file (--config, CARDTABLE_CONFIG), in that order, else
its default; a bad value is one line naming the setting and where it came from, exit status 2;
a password in `--database` is refused. Also the deployment files that use them: the systemd
unit (deploy/systemd/) and the lock file (requirements.lock), and docs/deploy.md's table."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.server import load_settings as load
from cardtable.server.options import OPTIONS, SettingError, argument_parser, markdown_table

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "cardtable@.service"


def _env(**kw) -> dict[str, str]:
    """An environment with no CARDTABLE_* setting but `kw`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDTABLE_")}
    return {**env, **kw}


def _click_options(name: str) -> set[str]:
    import typer

    from cardtable.cli.main import app

    command = typer.main.get_command(app).commands[name]
    return {o for p in command.params for o in p.opts + p.secondary_opts} - {"--help"}


def test_both_entry_points_and_doctor_take_every_setting():
    parser = argument_parser("x", "x")
    module = {o for a in parser._actions for o in a.option_strings} - {"-h", "--help"}
    serve = _click_options("serve")
    assert module == serve
    assert _click_options("doctor") == serve | {"--lang"}
    assert {opt.flag for opt in OPTIONS} <= serve
    # cardtable serve lacked these before
    assert {"--allowed-origins", "--instance", "--limit", "--rate", "--burst",
            "--bot-workers", "--config"} <= serve


def test_flags_beat_the_environment_which_beats_the_file_which_beats_the_defaults(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('port = 7001\nrate = 3\nburst = 9\nhost = "0.0.0.0"\n'
                 f'database = "{tmp_path / "f.db"}"\n[limit]\ntables = 4\nhttp_rate = 2.5\n')
    loaded = load({"port": "7003", "limit": ["tables=6"]},
                  _env(CARDTABLE_PORT="7002", CARDTABLE_RATE="4", CARDTABLE_CONFIG=str(f),
                       CARDTABLE_LIMIT="tables=5,ws_rate=7"))
    s = loaded.settings
    assert (s.port, s.rate, s.burst, s.host) == (7003, 4.0, 9, "0.0.0.0")
    assert s.database == str(tmp_path / "f.db") and s.bot_delay == 0.5     # a default
    assert (s.limits.tables, s.limits.http_rate, s.limits.ws_rate) == (6, 2.5, 7.0)
    assert loaded.origins["port"] == "--port"
    assert loaded.origins["rate"] == "CARDTABLE_RATE"
    assert loaded.origins["burst"] == f"{f} line 3"
    assert loaded.config_file == str(f)
    # --config names the file as well; the environment's then is not read
    other = tmp_path / "d.toml"
    other.write_text("port = 7100\n")
    assert load({}, _env(CARDTABLE_CONFIG=str(f)), config=str(other)).settings.port == 7100
    off = load({"client_limits": "off"}, _env()).settings
    assert off.limits.http_rate == 0 and off.connections_per_address == 0
    assert load({"api_docs": True}, _env()).settings.api_docs is True
    assert load({}, _env(CARDTABLE_API_DOCS="yes")).settings.api_docs is True


@pytest.mark.parametrize("flags,env,text,message", [
    ({"port": "x"}, {}, "", "--port: 'x' is not a whole number"),
    ({}, {"CARDTABLE_PORT": "70000"}, "", "CARDTABLE_PORT: must be 0..65535, not 70000"),
    ({}, {}, "\n\nport = 70000\n", "{f} line 3: must be 0..65535, not 70000"),
    ({}, {}, 'port = "8x"\n', "{f} line 1: '8x' is not a whole number"),
    ({}, {}, "rate = true\n", "{f} line 1: True is not a number"),
    ({}, {}, "prot = 1\n", "{f} line 1: unknown setting 'prot'"),
    ({}, {}, "port = [1]\n", "{f} line 1: port takes one value"),
    ({}, {}, "port = \n", "is not TOML"),
    ({}, {"CARDTABLE_STANDIN": "nobody"}, "", "CARDTABLE_STANDIN: unknown bot 'nobody'"),
    ({"bot_delay": "-1"}, {}, "", "--bot-delay: must be 0 or more, not -1"),
    ({"bot_delay": "nan"}, {}, "", "--bot-delay: 'nan' is not a finite number"),
    ({"client_limits": "maybe"}, {}, "", "--client-limits: 'maybe' is not one of on, off"),
    ({"limit": ["nope=1"]}, {}, "", "--limit: unknown limit 'nope'"),
    ({}, {"CARDTABLE_LIMIT": "tables=x"}, "", "CARDTABLE_LIMIT: limit tables: 'x' is not"),
    ({}, {}, "[limit]\ntables = -1\n", "{f} line 1: limit tables: '-1' must be a number"),
    ({"trusted_proxies": "nonsense"}, {}, "",
     "--trusted-proxies: 'nonsense' is not an address or network"),
    ({"push_contact": "x"}, {}, "", "--push-contact: must be a mailto: address"),
    ({"coach_budget": "1"}, {}, "", "--coach-budget: must be 0 (the most) or 2 or more"),
    ({}, {"CARDTABLE_DATABASE_URL": "mysql://h/d"}, "",
     "CARDTABLE_DATABASE_URL: unsupported database 'mysql'"),
    ({"database_password_file": "/nonexistent/pw", "database": "postgresql://u@h/d"}, {}, "",
     "--database-password-file: cannot read the database password file"),
    ({}, {}, 'address_secret_file = "/nonexistent/k"\n',
     "{f} line 1: cannot read the address secret file"),
])
def test_a_bad_value_names_the_setting_and_where_it_came_from(tmp_path, flags, env, text,
                                                              message):
    f = tmp_path / "c.toml"
    config = None
    if text:
        f.write_text(text)
        config = str(f)
    with pytest.raises(SettingError) as e:
        load(flags, _env(**env), config=config)
    got = str(e.value)
    assert "\n" not in got
    assert message.format(f=f) in got, got


def test_a_password_never_on_the_command_line(tmp_path):
    url = "postgresql://cardtable:s3cret@db/ct"
    with pytest.raises(SettingError, match="--database: the URL holds a password") as e:
        load({"database": url}, _env())
    assert "s3cret" not in str(e.value)
    assert "--database-password-file" in str(e.value)
    assert load({}, _env(CARDTABLE_DATABASE_URL=url)).settings.url().sync_url.password == \
        "s3cret"
    f = tmp_path / "c.toml"
    f.write_text(f'database = "{url}"\n')
    f.chmod(0o600)
    private = load({}, _env(), config=str(f))
    assert private.settings.url().sync_url.password == "s3cret" and not private.warnings
    f.chmod(0o644)
    public = load({}, _env(), config=str(f))
    assert len(public.warnings) == 1 and "chmod 600" in public.warnings[0]
    assert "s3cret" not in public.warnings[0]


def test_the_entry_points_say_one_line_and_exit_2(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text(f'database = "{tmp_path / "a.db"}"\nkeep_alive = 0\n')
    module, serve = ["-m", "cardtable.server"], ["-m", "cardtable.cli.main", "serve"]
    for entry, args, env, want in (
            (module, [], {"CARDTABLE_CONFIG": str(f)},
             f"error: {f} line 2: must be more than 0, not 0"),
            (serve, ["--database", "postgresql://u:pw@h/d"], {},
             "cardtable: error: --database: the URL holds a password"),
            (serve, ["--config", str(tmp_path / "missing.toml")], {},
             "cardtable: error: --config: cannot read the config file")):
        proc = subprocess.run([sys.executable, *entry, *args], capture_output=True, text=True,
                              cwd=str(ROOT), env=_env(**env), timeout=120)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(want), proc.stderr
        assert ":pw@" not in proc.stderr                      # the password is not echoed
    assert not (tmp_path / "a.db").exists()                  # nothing started


def test_docs_list_every_setting():
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert markdown_table() in text, "docs/deploy.md: paste options.markdown_table()"
    for opt in OPTIONS:
        if not opt.hidden:
            assert f"`{opt.env_var}`" in text


def _unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None,
                                     comment_prefixes=("#", ";"))
    unit.optionxform = str
    unit.read(UNIT, encoding="utf-8")
    return unit


def test_the_systemd_unit_starts_the_server_with_options_it_accepts(tmp_path):
    import typer

    from cardtable.cli.main import app

    service = _unit()["Service"]
    argv = shlex.split(service["ExecStart"].replace("%i", "8001"))
    assert argv[0].endswith("/cardtable") and argv[1] == "serve", argv
    command = typer.main.get_command(app).commands["serve"]
    ctx = command.make_context("serve", argv[2:])                      # a bad option raises
    assert ctx.params["port"] == "8001"
    assert service["KillSignal"] == "SIGTERM" and service["Restart"] == "on-failure"
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["LoadCredential"].startswith("database-password:")
    env = dict(item.split("=", 1) for item in
               (line for line in UNIT.read_text().splitlines() if line.startswith("Environment=")
                for line in [line.split("=", 1)[1]]))
    assert env["CARDTABLE_DATABASE_PASSWORD_FILE"] == "%d/database-password"
    assert set(env) <= {o.env_var for o in OPTIONS} | {"CARDTABLE_CONFIG"}
    from cardtable.server.config import Settings

    drain = getattr(Settings(), "drain_seconds", None)        # the server's drain on SIGTERM
    if drain is not None:
        assert float(service["TimeoutStopSec"]) >= float(drain) + 5


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    # the unit with this machine's cardtable, which verify wants to find executable
    cardtable = Path(sys.executable).with_name("cardtable")
    if not cardtable.exists():
        pytest.skip("no cardtable console script beside this Python")
    text = UNIT.read_text().replace("/opt/cardtable/.venv/bin/cardtable", str(cardtable))
    (tmp_path / "cardtable@.service").write_text(text)
    proc = subprocess.run(["systemd-analyze", "verify", "./cardtable@8001.service"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "cardtable@" not in proc.stderr, proc.stderr        # no unknown key, no bad value


def test_the_lock_pins_every_dependency_of_pyproject():
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert re.fullmatch(r"[A-Za-z0-9_.+!-]+", version), line
            pins[canonicalize_name(name)] = version
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for line in declared:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in pins, f"requirements.lock lacks {req.name}: run make lock"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])
