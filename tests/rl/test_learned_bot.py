"""The bot `learned` (rl/policy.py LearnedBot) and its training by imitation (rl/imitate.py,
issue 35): legal decisions from the seat's view only, the committed policy in a tournament,
teacher labels that cannot depend on hidden cards, a ReLU policy file, and the training run
end to end on a tiny budget (where torch is installed: .venv-train)."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from cardtable import new_game
from cardtable.bots import act, make_bot
from cardtable.rl.codec import AbluxxenCodec
from cardtable.rl.imitate import Data, play_round, teacher_label
from cardtable.rl.common import make_config
from cardtable.bots.trained import policy_file
from cardtable.rl.policy import MlpPolicy
from cardtable.sim import TournamentConfig, run_tournament

from test_policy_bot import random_policy


def relu_policy(path, seed=0):
    rng = np.random.default_rng(seed)
    codec = AbluxxenCodec(4)
    layers = [(rng.normal(size=(8, codec.obs_size)).astype(np.float32),
               rng.normal(size=8).astype(np.float32))]
    action = (rng.normal(size=(codec.num_actions, 8)).astype(np.float32),
              rng.normal(size=codec.num_actions).astype(np.float32))
    policy = MlpPolicy(layers, action, {"game": "abluxxen", "variant": "basic", "players": 4,
                                        "activation": "relu"})
    policy.save(path)
    return policy


def test_a_relu_policy_file_computes_relu(tmp_path):
    policy = relu_policy(tmp_path / "p.npz")
    again = MlpPolicy.load(tmp_path / "p.npz")
    obs = np.random.default_rng(2).random(AbluxxenCodec.obs_size, dtype=np.float32)
    (w, b), = policy.layers
    wa, ba = policy.action
    assert np.allclose(again.logits(obs), np.maximum(obs @ w.T + b, 0) @ wa.T + ba, atol=1e-4)
    assert not np.allclose(again.logits(obs), np.tanh(obs @ w.T + b) @ wa.T + ba, atol=1e-4)


def test_learned_plays_the_best_legal_logit_from_its_view(tmp_path):
    random_policy(tmp_path / "p.npz", seed=4)
    bot = make_bot("learned", seed=2, model=str(tmp_path / "p.npz"))
    codec = AbluxxenCodec(4)
    state = new_game("abluxxen", variant="basic", players=4, seed=8)
    while not state.over:
        d = act(bot, state)
        view = state.view(state.to_move)
        legal = codec.legal(state, view)
        logits = bot.policy.logits(codec.encode(view))
        assert d.text == legal[max(legal, key=lambda i: logits[i])].text
        # the same decision when every card the seat cannot see is dealt again
        twin = state.determinize(state.to_move, seed=state.rng.below(2**30))
        assert bot.choose(twin).text == d.text
        state.apply(d)


def test_the_committed_learned_policy_plays_a_tournament():
    shipped = policy_file("learned", "abluxxen")        # in the game's own package
    assert shipped is not None and shipped.exists(), "the learned policy file is missing (make train-learned)"
    meta = MlpPolicy.load(shipped).meta
    assert (meta["game"], meta["variant"], meta["players"]) == ("abluxxen", "basic", 4)
    res = run_tournament(TournamentConfig(game="abluxxen", bots=["learned", "greedy", "greedy",
                                                                 "greedy"],
                                          games=2, duplicate=True, seed=3))
    assert len(res.games) == 8
    assert make_bot("learned").name == "learned"


def _walk(state, rnd, steps):
    for _ in range(steps):
        if state.over:
            break
        legal = state.legal_decisions()
        state.apply(legal[rnd.randrange(len(legal))])
    return state


@pytest.mark.parametrize("seed", range(12))
def test_teacher_labels_ignore_hidden_cards(seed):
    """The teacher labels through bots.act: a twin state with every hidden card dealt again
    (the seat's knowledge unchanged) gets the same label from the same teacher seed."""
    cfg = make_config("abluxxen", "basic", 4)
    codec = AbluxxenCodec(4)
    rnd = random.Random(seed)
    state = _walk(cfg.new_state(seed), rnd, rnd.randrange(0, 120))
    if state.over:
        state = cfg.new_state(seed)
    seat = state.to_move
    twin = state.determinize(seat, seed=seed + 99)
    a = teacher_label(make_bot("heuristic", 7), state, codec, codec.legal(state, state.view(seat)))
    b = teacher_label(make_bot("heuristic", 7), twin, codec, codec.legal(twin, twin.view(seat)))
    assert a == b


def test_a_round_labels_every_state_with_a_legal_action():
    cfg = make_config("abluxxen", "basic", 4)
    codec = AbluxxenCodec(4)
    data = Data(codec.obs_size, codec.num_actions)
    res = play_round(2, cfg, codec, None, "heuristic", "easy", random.Random(1), data,
                     lambda: False)
    assert res["games"] == 2 and len(data) > 40
    x, mask, y = data.batch(np.arange(len(data)))
    assert x.shape == (len(data), codec.obs_size)
    assert mask[np.arange(len(data)), y].all()              # every label is in its mask
    only = Data(codec.obs_size, codec.num_actions)
    play_round(2, cfg, codec, None, "heuristic", "easy", random.Random(1), only, lambda: False,
               label_others=False)
    assert 0 < len(only) < len(data)                         # the learner's seat alone


def test_imitation_without_torch_says_so():
    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("torch is installed here: tests_train/ (make test-train) covers the run")
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.imitate", "--cpu-minutes", "1"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "training needs torch" in res.stderr and "Traceback" not in res.stderr


def test_finetuning_without_torch_says_so():
    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("torch is installed here: tests_train/ (make test-train) covers the run")
    shipped = policy_file("learned", "abluxxen")
    res = subprocess.run([sys.executable, "-m", "cardtable.rl.finetune", "--init", str(shipped)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "training needs torch" in res.stderr and "Traceback" not in res.stderr


def test_bad_settings_are_refused_in_one_line():
    for args in (["--cpu-minutes", "0"], ["--hidden", "12,x"]):
        res = subprocess.run([sys.executable, "-m", "cardtable.rl.imitate", *args],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 2 and "cardtable: error:" in res.stderr
        assert "Traceback" not in res.stderr


def test_the_committed_kombio_policy_plays_from_its_view_only():
    """Kombio's `learned` (its own policy file): at every decision of its seat the legal action
    of highest logit of its view's tensor, the same when every card it has not seen is dealt
    again; the game against three easy bots reaches its end."""
    from cardtable.rl.codec import make_codec

    shipped = policy_file("learned", "kombio")
    assert shipped is not None and shipped.exists(), "Kombio's learned policy file is missing"
    meta = MlpPolicy.load(shipped).meta
    assert (meta["game"], meta["variant"], meta["players"]) == ("kombio", "basic", 4)
    bot = make_bot("learned", seed=2)
    others = {s: make_bot("easy", seed=s) for s in (1, 2, 3)}
    codec = make_codec("kombio", 4)
    policy = MlpPolicy.load(shipped)
    state = new_game("kombio", players=4, seed=8)
    mine = 0
    while not state.over:
        seat = state.to_move
        if seat != 0:
            state.apply(act(others[seat], state))
            continue
        d = bot.choose(state)
        legal = codec.legal(state, state.view(0))
        logits = policy.logits(codec.encode(state.view(0)))
        assert d.text == legal[max(legal, key=lambda i: logits[i])].text
        twin = state.determinize(0, seed=state.rng.below(2**30))
        assert bot.choose(twin).text == d.text
        state.apply(d)
        mine += 1
    assert mine > 20
