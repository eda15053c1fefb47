"""The fine-tuning run (rl/finetune.py) end to end on a tiny budget: PPO from an imitation
policy against compiled opponents writes a policy the bot `learned` plays, its curve and its
log; the numpy copy computes the torch network's logits. Needs torch (.venv-train): runs with
`make test-train`."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from cardtable.bots import act, make_bot
from cardtable.core.record import new_game
from cardtable.rl.policy import MlpPolicy


def _imitation(tmp_path):
    out = tmp_path / "bc.npz"
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.imitate", "--cpu-minutes", "0.05",
                          "--first-games", "3", "--round-games", "2", "--steps", "3",
                          "--hidden", "16", "--out", str(out), "--curve",
                          str(tmp_path / "c.png"), "--log", str(tmp_path / "l.json")],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return out


def test_finetuning_runs_end_to_end(tmp_path):
    init = _imitation(tmp_path)
    out, curve, log = tmp_path / "p.npz", tmp_path / "c2.png", tmp_path / "l2.json"
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.finetune", "--init", str(init),
                          "--cpu-minutes", "0.1", "--envs", "8", "--horizon", "8",
                          "--eval-every", "1", "--eval-games", "16", "--value-warmup", "1",
                          "--out", str(out), "--curve", str(curve), "--log", str(log)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    before, after = MlpPolicy.load(init), MlpPolicy.load(out)
    assert after.meta["game"] == "abluxxen" and after.meta["opponents"] == "medium"
    assert after.meta["iterations"] >= 2                 # one warm-up, then policy steps
    assert not np.allclose(before.action[0], after.action[0])      # PPO moved the policy
    assert curve.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    points = json.loads(log.read_text())["curve"]
    assert points[0]["iteration"] == 0 and all(0 <= p["win_share"] <= 1 for p in points)
    bot = make_bot("learned", model=str(out))
    state = new_game("abluxxen", variant="basic", players=4, seed=2)
    assert act(bot, state).text in state.legal()


def test_the_torch_copy_computes_the_policy(tmp_path):
    import torch

    from cardtable.rl.finetune import to_numpy, to_torch

    policy = MlpPolicy.load(_imitation(tmp_path))
    net = to_torch(policy)
    x = np.random.default_rng(1).random((5, policy.layers[0][0].shape[1]), dtype=np.float32)
    with torch.no_grad():
        ref = net(torch.from_numpy(x)).numpy()
    assert np.allclose(ref, np.stack([policy.logits(r) for r in x]), atol=1e-4)
    back = to_numpy(net, policy.meta)
    assert np.allclose(np.stack([back.logits(r) for r in x]), ref, atol=1e-4)


def test_bad_settings_are_refused_in_one_line(tmp_path):
    for args, says in ((["--init", str(tmp_path / "none.npz")], "cannot read the policy file"),
                       (["--init", "x.npz", "--envs", "0"], "--envs must be positive")):
        res = subprocess.run([sys.executable, "-m", "cardtable.rl.finetune", *args],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 2 and says in res.stderr and "Traceback" not in res.stderr
