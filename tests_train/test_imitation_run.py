"""The bot `learned`'s training run end to end (issue 35). It needs torch, which only the train
extra has (.venv-train), so it lives outside tests/ and runs with `make test-train`, not in
`make test` (where it could only be skipped)."""

from __future__ import annotations

import json
import subprocess
import sys

from cardtable.bots import act, make_bot
from cardtable.core.record import new_game
from cardtable.rl.policy import MlpPolicy


def test_imitation_runs_end_to_end(tmp_path):
    """A tiny budget writes the policy, the curve and the log (needs torch: .venv-train)."""
    out, curve, log = tmp_path / "p.npz", tmp_path / "c.png", tmp_path / "l.json"
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.imitate", "--cpu-minutes", "0.05",
                          "--first-games", "3", "--round-games", "2", "--steps", "3",
                          "--hidden", "16", "--out", str(out), "--curve", str(curve),
                          "--log", str(log)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    policy = MlpPolicy.load(out)
    assert policy.meta["activation"] == "relu" and policy.meta["teacher"] == "heuristic"
    assert curve.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rounds = json.loads(log.read_text())["rounds"]
    assert rounds[0]["player"] == "teacher" and rounds[0]["states"] > 0
    bot = make_bot("learned", model=str(out))
    state = new_game("abluxxen", variant="basic", players=4, seed=2)
    assert act(bot, state).text in state.legal()
