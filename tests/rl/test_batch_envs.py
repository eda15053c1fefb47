"""The ecosystems' interfaces on the batched simulator (issue 35): Gymnasium's vector API
(`make_vec` of `cardtable/AbluxxenBatch-v0`, a `gymnasium.vector.VectorEnv` with next-step
autoreset that Gymnasium's vector wrappers accept) and PettingZoo's parallel API
(`parallel_api_test` and `parallel_seed_test` on every Abluxxen configuration)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from pettingzoo.test import parallel_api_test, parallel_seed_test
from rl_configs import CONFIGS, config_id

import cardtable.rl  # noqa: F401  (registers the ids)
from cardtable.core.errors import ConfigError
from cardtable.rl.batch.parallel import BatchParallelEnv, parallel_env
from cardtable.rl.batch.vector import BatchVectorEnv
from cardtable.rl.common import make_config

AB = [c for c in CONFIGS if c["game"] == "abluxxen"]


def _kw(config: dict) -> dict:
    return {k: v for k, v in config.items() if k != "game"}


@pytest.mark.parametrize("abx", AB, ids=[config_id(c) for c in AB])
def test_make_vec_plays_and_resets(abx):
    envs = gymnasium.make_vec("cardtable/AbluxxenBatch-v0", num_envs=6, **_kw(abx))
    assert isinstance(envs, BatchVectorEnv) and isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    sim = envs.sim
    obs, infos = envs.reset(seed=3)
    ended = np.zeros(6, bool)
    for _ in range(3000):
        assert envs.observation_space.contains(obs)
        assert infos["action_mask"].shape == (6, 653) and infos["action_mask"].dtype == np.int8
        seats = infos["seat"]
        live = ~sim.over
        assert np.array_equal(sim.to_move[live], seats[live])       # the learner decides
        assert np.array_equal(obs, sim.observe(seats))               # its own view
        assert (infos["action_mask"][live].sum(axis=1) > 0).all()
        was_ended = ended.copy()
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions())
        assert not truncated.any()
        for i in np.flatnonzero(terminated):                        # the learner's score
            assert rewards[i] == sim.scores[i, infos["seat"][i]]
            assert not infos["action_mask"][i].any()
        assert (rewards[~terminated] == 0).all()
        ended |= terminated
        if was_ended.all():
            break
    assert was_ended.all()


def test_next_step_autoreset_and_seeding():
    """A seed replays the same games (two envs step alike); after an episode ends, the env's
    next step starts a new game: no reward, not terminated, its action ignored."""
    a = BatchVectorEnv("abluxxen", 4, players=4, reward="win")
    b = gymnasium.make_vec("cardtable/AbluxxenBatch-v0", num_envs=4, players=4, reward="win")
    oa, ia = a.reset(seed=9)
    ob, ib = b.reset(seed=9)
    restarted = 0
    ended = np.zeros(4, bool)
    for _ in range(600):
        assert np.array_equal(oa, ob) and np.array_equal(ia["seat"], ib["seat"])
        assert np.array_equal(ia["action_mask"], ib["action_mask"])
        act = a.sample_actions()
        act[ended] = 999                          # ignored: these envs start a new game
        oa, ra, ta, _, ia = a.step(act)
        ob, rb, tb, _, ib = b.step(act)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert set(ra[ta].tolist()) <= {0.0, 0.5, 1 / 3, 0.25, 1.0}
        assert not ta[ended].any() and (ra[ended] == 0).all() and not a.sim.over[ended].any()
        restarted += ended.sum()
        ended = ta.copy()
    assert restarted > 0


def test_an_illegal_action_ends_the_episode():
    envs = BatchVectorEnv("abluxxen", 2, players=3, seat=1, illegal_reward=-5)
    obs, infos = envs.reset(seed=0)
    assert (infos["seat"] == 1).all()
    actions = envs.sample_actions()
    actions[0] = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    obs, rewards, terminated, _, infos = envs.step(actions)
    assert terminated.tolist() == [True, False] and rewards[0] == -5
    assert infos["illegal_action"].tolist() == [True, False]
    assert infos["_illegal_action"].tolist() == [True, False]


def test_gymnasium_vector_wrappers_accept_it():
    envs = RecordEpisodeStatistics(BatchVectorEnv("abluxxen", 8, variant="duel", players=2))
    envs.reset(seed=1)
    total = np.zeros(8)
    returns = []
    for _ in range(2000):
        _, r, term, trunc, infos = envs.step(envs.unwrapped.sample_actions())
        total += r
        for i in np.flatnonzero(term):
            returns.append(total[i])
            total[i] = 0
            assert infos["episode"]["r"][i] == returns[-1]
        if len(returns) >= 5:
            break
    assert len(envs.return_queue) == len(returns) >= 5


@pytest.mark.parametrize("kw", [dict(players=9), dict(seat=4, players=4),
                                dict(render_mode="human"), dict(variant="nope")])
def test_bad_vector_arguments(kw):
    with pytest.raises(ConfigError):
        BatchVectorEnv("abluxxen", 2, **kw)


@pytest.mark.parametrize("abx", AB, ids=[config_id(c) for c in AB])
def test_pettingzoo_parallel_checks(abx):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # dict observations: PettingZoo's classic style
        parallel_api_test(parallel_env(seed=2, **abx), num_cycles=400)
        parallel_seed_test(lambda: parallel_env(**abx), num_cycles=200)


def test_parallel_game_rewards_and_illegal_action():
    env = parallel_env("abluxxen", players=3, seed=1)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    while env.agents:
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(movers) == 1
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in movers
                else 0 for a in env.agents}
        obs, rewards, terms, _, _ = env.step(acts)
    final = env.sim.final_rewards()[0]
    assert [rewards[a] for a in env.possible_agents] == final.tolist() and all(terms.values())
    obs, _ = env.reset(seed=5)
    mover = next(a for a in env.agents if obs[a]["action_mask"].any())
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    _, rewards, terms, _, _ = env.step({a: bad for a in env.agents})
    assert rewards[mover] == -1 and sum(rewards.values()) == -1 and all(terms.values())
    assert env.agents == []


def test_batched_parallel_env():
    env = BatchParallelEnv("abluxxen", 5, variant="classic", players=4)
    obs, _ = env.reset(seed=20)
    cfg = make_config("abluxxen", "classic", 4)
    first = [cfg.new_state(20 + i) for i in range(5)]
    twin = [env.sim.codec.encode(st.view(0)) for st in first]
    assert np.array_equal(obs["player_0"]["observation"], np.array(twin))
    games = 0
    for _ in range(3000):
        masks = np.array([obs[a]["action_mask"].any(axis=1) for a in env.possible_agents])
        over = env.sim.over                     # shown once at its end, dealt anew next step
        assert (masks.sum(axis=0) == np.where(over, 0, 1)).all()   # one agent to move
        obs, rewards, terms, truncs, _ = env.step(env.sample_actions())
        done = terms["player_0"]
        for i in np.flatnonzero(done):
            got = [rewards[a][i] for a in env.possible_agents]
            assert got == env.sim.final_rewards()[i].tolist()
            games += 1
        if games >= 10:
            break
    assert games >= 10
