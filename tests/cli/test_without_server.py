"""The engines, the terminal game and the research API work without the game server's extra
(`pip install cardtable` or `cardtable[rl]`, no `cardtable[server]`): each case runs in a fresh
interpreter in which the server's libraries cannot be imported (None in sys.modules, which is
what Python does for a module that is not installed as far as `import` and
`importlib.util.find_spec` can tell), and the server's commands say what to install."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

#: the top-level modules of the extra `server` (pyproject.toml) and what they bring (pydantic
#: is not among them: the terminal's Typer needs it too)
SERVER_MODULES = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg",
                  "aiosqlite", "icu", "pywebpush", "argon2", "webauthn",
                  "prometheus_client")

BLOCK = f"""
import sys
for _m in {SERVER_MODULES!r}:
    sys.modules[_m] = None
"""


def run(code: str, home: Path) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter without the server's modules; its home (where a
    tournament keeps its ratings) is `home`, its working folder too."""
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)],
                          capture_output=True, text=True, cwd=home,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin",
                               "HOME": str(home)}, timeout=600)


def test_a_tournament_and_the_research_api_need_no_server(tmp_path):
    p = run(f"""
        from cardtable.cli.main import main
        code = main(["tournament", "--bots", "easy,random", "--variant", "duel", "--games",
                     "2", "--jobs", "1", "--seed", "3", "--out", {str(tmp_path)!r}])
        assert code == 0, code
        from cardtable.rl.pettingzoo import env
        e = env(game="kombio", players=2, seed=7)
        e.reset()
        steps = 0
        for agent in e.agent_iter(max_iter=60):
            obs, reward, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else
                   e.action_space(agent).sample(obs["action_mask"]))
            steps += 1
        assert steps > 10
        loaded = sorted(m for m in sys.modules if sys.modules[m] is not None
                        and m.split(".")[0] in {"fastapi", "sqlalchemy", "uvicorn"})
        assert not loaded and "cardtable.server" not in sys.modules, loaded
        print("played", steps)
    """.replace("{{", "{").replace("}}", "}"), tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "played" in p.stdout


@pytest.mark.parametrize("argv", [["serve", "--port", "0"], ["doctor"],
                                  ["backup", "--to", "x.db"], ["migrate", "--list"]])
def test_the_server_commands_say_what_to_install(argv, tmp_path):
    p = run(f"""
        from cardtable.cli.main import main
        raise SystemExit(main({argv!r}))
    """, tmp_path)
    assert p.returncode == 2, (p.returncode, p.stderr[-2000:])
    assert "pip install 'cardtable[server]'" in p.stderr
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
