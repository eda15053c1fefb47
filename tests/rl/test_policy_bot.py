"""The trained policy as the bot `ppo` (rl/policy.py) and the training entry point
(rl/train.py): a numpy policy file round trip, legal decisions from the seat's view only,
the committed policy in a tournament, clear errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cardtable import new_game
from cardtable.bots import act, make_bot
from cardtable.core import ConfigError
from cardtable.rl.codec import AbluxxenCodec
from cardtable.bots.trained import policy_file
from cardtable.rl.policy import MlpPolicy
from cardtable.sim import TournamentConfig, run_tournament


def random_policy(path, seed=0):
    rng = np.random.default_rng(seed)
    codec = AbluxxenCodec(4)
    layers = [(rng.normal(size=(16, codec.obs_size)).astype(np.float32),
               rng.normal(size=16).astype(np.float32))]
    action = (rng.normal(size=(codec.num_actions, 16)).astype(np.float32),
              rng.normal(size=codec.num_actions).astype(np.float32))
    policy = MlpPolicy(layers, action, {"game": "abluxxen", "variant": "basic", "players": 4})
    policy.save(path)
    return policy


def test_policy_file_round_trip(tmp_path):
    policy = random_policy(tmp_path / "p.npz")
    again = MlpPolicy.load(tmp_path / "p.npz")
    obs = np.random.default_rng(1).random(AbluxxenCodec.obs_size, dtype=np.float32)
    assert np.allclose(policy.logits(obs), again.logits(obs))
    assert again.meta["game"] == "abluxxen"


def test_the_bot_plays_the_best_legal_logit(tmp_path):
    random_policy(tmp_path / "p.npz", seed=3)
    bot = make_bot("ppo", seed=1, model=str(tmp_path / "p.npz"))
    codec = AbluxxenCodec(3)
    state = new_game("abluxxen", variant="expert", players=3, seed=5)
    while not state.over:
        d = act(bot, state)
        view = state.view(state.to_move)
        legal = codec.legal(state, view)
        logits = bot.policy.logits(codec.encode(view))
        assert d.text == legal[max(legal, key=lambda i: logits[i])].text
        state.apply(d)


def test_the_committed_policy_plays_a_tournament():
    shipped = policy_file("ppo", "abluxxen")            # in the game's own package
    assert shipped is not None and shipped.exists(), "the trained policy file is missing (make train)"
    assert shipped.parent.name == "policies" and shipped.parent.parent.name == "abluxxen"
    res = run_tournament(TournamentConfig(game="abluxxen", bots=["ppo", "greedy", "greedy", "greedy"],
                                          games=2, duplicate=True, seed=3))
    assert len(res.games) == 8


def test_errors(tmp_path):
    with pytest.raises(ConfigError, match="no policy file"):
        make_bot("ppo", model=str(tmp_path / "missing.npz"))
    (tmp_path / "bad.npz").write_text("not a policy")
    with pytest.raises(ConfigError, match="cannot read"):
        make_bot("ppo", model=str(tmp_path / "bad.npz"))
    random_policy(tmp_path / "p.npz")
    bot = make_bot("ppo", model=str(tmp_path / "p.npz"))
    with pytest.raises(ConfigError, match="plays abluxxen"):
        act(bot, new_game("kombio", players=2, seed=1))


def test_training_without_torch_says_so():
    try:
        import torch  # noqa: F401
        pytest.skip("torch is installed here: the missing-torch path cannot be shown")
    except ImportError:
        pass
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.train", "--cpu-minutes", "1"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "training needs torch and sb3-contrib" in res.stderr
    assert "Traceback" not in res.stderr
