"""The PettingZoo parallel batch (rl/batch/parallel.py) with frozen policies and pools as
opponents: a policy seat is asked exactly when it is to move and its answers are the moves
played, a pool draws its members per game from the seeded generator, compiled levels and
policies mix, PettingZoo's API tests pass, and bad opponents are refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test
from policy_fns import DUEL, TWO_PLAYERS as CONFIGS, counting_pool, hashed, lowest

from cardtable.core.errors import ConfigError
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.parallel import BatchParallelEnv, parallel_env
from cardtable.rl.batch.pool import OpponentPool
from cardtable.rl.batch.vector import BatchVectorEnv


def agent_actions(obs, policy=hashed):
    """`policy`'s action for the agent to move in each game (0 for the others)."""
    return {a: policy(o["observation"], o["action_mask"]) for a, o in obs.items()}


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: kw["game"])
def test_a_policy_seat_is_asked_when_it_moves_and_its_answers_are_played(kw):
    """Agent and opponent both play `hashed`: each game's first episode is the simulator's
    game of that seed played so at both seats, reward for reward; the opponent is asked only
    for games where its seat is to move, with that seat's observations and masks."""
    seen = []

    def opponent(obs, mask):
        assert (env.sim.to_move == 1).all() and (mask.sum(axis=1) > 0).all()
        assert np.array_equal(obs, env.sim.observe(np.ones(len(obs), np.int64)))
        assert np.array_equal(mask, env.sim.masks())
        seen.append(len(obs))
        return hashed(obs, mask)

    n = 6
    env = BatchParallelEnv(num_games=n, opponents=[None, opponent], **kw)
    assert env.possible_agents == ["player_0"]
    obs, _ = env.reset(seed=11)
    final = np.full(n, np.nan)
    for _ in range(3000):
        assert set(env.sim.to_move[~env.sim.over].tolist()) <= {0}
        obs, rewards, terms, truncs, _ = env.step(agent_actions(obs))
        first = terms["player_0"] & np.isnan(final)
        final[first] = rewards["player_0"][first]
        if not np.isnan(final).any():
            break
    assert seen and not np.isnan(final).any()

    sim = make_batch(kw["game"], n, **{k: v for k, v in kw.items() if k != "game"})
    sim.reset(seed=11)
    while not sim.over.all():
        live = ~sim.over
        actions = np.zeros(n, np.int64)
        actions[live] = hashed(sim.observe(sim.to_move.clip(0))[live], sim.masks()[live])
        sim.step(actions)
    assert (final == sim.final_rewards()[:, 0]).all()


def test_levels_and_policies_mixed_give_the_vector_envs_games():
    """[agent, "easy", policy] in 3-player Abluxxen: the games are those of the vector env
    with the same opponents and the learner at seat 0, both played by `hashed`."""
    kw = dict(game="abluxxen", variant="basic", players=3)
    n = 5
    par = BatchParallelEnv(num_games=n, opponents=[None, "easy", hashed], **kw)
    vec = BatchVectorEnv(num_envs=n, seat=0, opponents=[hashed, "easy", hashed], **kw)
    obs, _ = par.reset(seed=7)
    vobs, infos = vec.reset(seed=7)
    assert np.array_equal(obs["player_0"]["observation"], vobs)
    done = np.zeros(n, np.bool_)
    for _ in range(3000):
        live = ~done
        assert np.array_equal(obs["player_0"]["action_mask"][live],
                              infos["action_mask"][live])
        obs, rewards, terms, _, _ = par.step(agent_actions(obs))
        vobs, vrew, vterm, _, infos = vec.step(hashed(vobs, infos["action_mask"]))
        assert np.array_equal(terms["player_0"][live], vterm[live])
        assert np.array_equal(rewards["player_0"][live], vrew[live])
        assert np.array_equal(obs["player_0"]["observation"][live & ~vterm], vobs[live & ~vterm])
        done |= vterm
        if done.all():
            break
    assert done.all()


def test_a_pool_of_one_level_plays_as_the_compiled_seats():
    """A pool holding only "easy" (moved through Python, a lineup per game) gives the same
    games as the seat list [None, "easy"] moved inside the simulator, and as "easy" for every
    seat but `agent_seats`."""
    trails = []
    for opponents, seats in [([None, "easy"], None), (OpponentPool(["easy"]), [0]),
                             ("easy", [0])]:
        env = BatchParallelEnv(num_games=6, opponents=opponents, agent_seats=seats, **DUEL)
        obs, _ = env.reset(seed=3)
        trail = []
        for _ in range(150):
            obs, rewards, terms, _, _ = env.step(env.sample_actions())
            trail.append((obs["player_0"]["observation"], rewards["player_0"], terms["player_0"]))
        trails.append(trail)
    assert sum(int(t[2].sum()) for t in trails[0]) > 0
    for steps in zip(*trails):
        for o, r, t in steps[1:]:
            assert np.array_equal(o, steps[0][0]) and np.array_equal(r, steps[0][1])
            assert np.array_equal(t, steps[0][2])


def _pool_run(seed, steps=150):
    """A pool of two counting policies and "random" at seat 1 of 8 duels; the agent samples.
    Returns (calls per member, calls per member before the first game ended, observations,
    rewards)."""
    calls = {"a": 0, "b": 0}
    first = {}
    pool = counting_pool(calls)
    env = BatchParallelEnv(num_games=8, opponents=pool, agent_seats=[0], **DUEL)
    obs, _ = env.reset(seed=seed)
    trail, rewards = [obs["player_0"]["observation"]], []
    for _ in range(steps):
        obs, r, terms, _, _ = env.step(env.sample_actions())
        if terms["player_0"].any() and not first:
            first = dict(calls)
        trail.append(obs["player_0"]["observation"])
        rewards.append(r["player_0"])
    return calls, first, np.array(trail), np.array(rewards)


def test_a_pool_draws_a_member_per_game_and_reproduces():
    calls, first, trail, rewards = _pool_run(5)
    assert first["a"] > 0 and first["b"] > 0       # different games, different members
    again = _pool_run(5)
    assert again[0] == calls and np.array_equal(again[2], trail)
    assert np.array_equal(again[3], rewards)
    assert not np.array_equal(_pool_run(6)[2], trail)


def test_the_single_game_env_draws_pool_members_from_its_seed():
    """parallel_env: one member per episode, drawn from the env's seeded generator."""
    def run(seed):
        used = []

        def member(name):
            def play(obs, mask):
                used.append(name)
                return lowest(obs, mask)
            return play

        env = parallel_env(opponents=OpponentPool([member("a"), member("b")]),
                           agent_seats=[1], seed=seed, **DUEL)
        per_episode = []
        for _ in range(8):
            obs, _ = env.reset()
            used.clear()
            while env.agents:
                obs, *_ = env.step({"player_1": lowest(obs["player_1"]["observation"][None],
                                                       obs["player_1"]["action_mask"][None])[0]})
            assert len(set(used)) == 1                  # one member plays a whole game
            per_episode.append(used[0])
        return per_episode

    members = run(4)
    assert set(members) == {"a", "b"} and run(4) == members


def test_members_added_later_play_from_the_next_deals():
    calls = []
    pool = OpponentPool(["random"])
    env = BatchParallelEnv(num_games=4, opponents=pool, agent_seats=[0], **DUEL)
    env.reset(seed=2)
    pool.add(lambda obs, mask: calls.append(len(obs)) or lowest(obs, mask))
    for _ in range(2000):
        env.step(env.sample_actions())
        if calls:
            break
    assert calls


def test_an_illegal_opponent_action_names_the_seat():
    def bad(obs, mask):
        return np.full(len(obs), -3)

    env = BatchParallelEnv(num_games=4, opponents=[None, bad], **DUEL)
    with pytest.raises(ValueError, match="opponent policy bad at seat 1 chose the illegal "
                                         "action -3 in game"):
        env.reset(seed=1)
        for _ in range(50):
            env.step(env.sample_actions())


def test_pettingzoo_checks_with_policy_opponents():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # dict observations: PettingZoo's classic style
        parallel_api_test(parallel_env(seed=2, opponents=[hashed, None], **DUEL),
                          num_cycles=300)
        parallel_api_test(parallel_env(game="abluxxen", variant="basic", players=3, seed=2,
                                       opponents=OpponentPool([hashed, "easy"]),
                                       agent_seats=[0, 2]), num_cycles=300)
        parallel_api_test(parallel_env(seed=3, opponents=hashed, agent_seats=[1], **DUEL),
                          num_cycles=300)
        parallel_seed_test(lambda: parallel_env(opponents=OpponentPool([lowest, "random"]),
                                                agent_seats=[0], **DUEL), num_cycles=200)


@pytest.mark.parametrize("opponents, seats, words", [
    ([None, lowest, None], None, "a list of 2 entries"),
    ([lowest, lowest], None, "at least one seat must be an agent's"),
    ([None, 3], None, "3 is neither a level name nor a callable"),
    ([None, "hard"], None, "'hard' is not a level"),
    (OpponentPool([lowest, "hard"]), [0], "'hard' is not a level"),
    (OpponentPool([lowest]), None, "agent_seats"),
    (lowest, None, "agent_seats"),
    (OpponentPool(), [0], "pool is empty"),
    (OpponentPool([lowest]), [2], "agent_seats must be a list of distinct seats 0..1"),
    (OpponentPool([lowest]), [0, 0], "agent_seats must be a list of distinct seats"),
    (OpponentPool([lowest]), [], "agent_seats must be a list"),
    (OpponentPool([lowest]), [0, 1], "the opponents would play none"),
    ([None, lowest], [0], "marks the agents' seats itself"),
    (None, [0], "without opponents every seat is an agent's"),
    (7, [0], "opponents must be None, a list of 2"),
])
def test_bad_opponents_are_refused(opponents, seats, words):
    with pytest.raises(ConfigError, match=words):
        BatchParallelEnv(num_games=2, opponents=opponents, agent_seats=seats, **DUEL)
    with pytest.raises(ConfigError, match=words):
        parallel_env(opponents=opponents, agent_seats=seats, **DUEL)
