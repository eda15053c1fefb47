"""The bots compiled into the batched simulators play as the Python bots do: seeded games in
which every seat is a compiled level (abluxxen/batch/policies.py, kombio/batch/policies.py),
drawing from Python's generator seeded as the engine's bot, are the engine's games of
`make_bot(level, seed)` at every seat, decision for decision (the codec's action ids), with
the same scores and winners: Abluxxen's `easy` and `medium` over every rule set and player
count (rl_configs.py), Kombio's `easy` and `medium` at 2-6 players. Plus the `opponents`
setting of the batched environments.

`make test` plays 60 Abluxxen games of `easy` (spread over the 16 configurations), 60 of
`medium`, 20 Kombio games of `easy` and 20 of `medium`; `make test-full` 500, 500, 200 and 200
(tests/sizes.py)."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from rl_configs import CONFIGS
from sizes import sample

import cardtable.rl  # noqa: F401  (registers the ids)
from cardtable.bots.base import act, make_bot
from cardtable.core.errors import ConfigError
from cardtable.core.rng import Rng
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.parallel import BatchParallelEnv, parallel_env
from cardtable.rl.batch.rng import MT_WORDS, mt_below, mt_below_2_62, mt_seed
from cardtable.rl.batch.vector import BatchVectorEnv
from cardtable.rl.codec import make_codec
from cardtable.rl.common import make_config

AB = [c for c in CONFIGS if c["game"] == "abluxxen"]
GAMES = sample(500, 60)
MEDIUM_GAMES = sample(500, 60)
KOMBIO_GAMES = sample(200, 20)          # spread over 2-6 players
KOMBIO_MEDIUM_GAMES = sample(200, 20)


def test_the_determinization_seed_draw_is_pythons():
    """rng.py's `mt_below_2_62` is Rng.below(2**62), the draw `bots.act` makes per decision."""
    for seed in (0, 1, 48, 2**40 + 7):
        mt = np.zeros(MT_WORDS, np.uint64)
        mt_seed(mt, np.uint64(seed))
        rng = Rng(seed)
        for _ in range(50):
            assert int(mt_below_2_62(mt)) == rng.below(2**62)
            assert mt_below(mt, 7) == rng.below(7)


def _engine_game(cfg, codec, seed: int, bot_seeds: list[int], level: str) -> list[int]:
    """The engine's game of `seed` with `make_bot(level, bot_seeds[s])` at every seat: its
    decisions as the codec's action ids."""
    st = cfg.new_state(seed)
    bots = [make_bot(level, seed=b) for b in bot_seeds]
    ids = []
    while not st.over:
        seat = st.to_move
        ids_of = {d.text: a for a, d in codec.legal(st, st.view(seat)).items()}
        d = act(bots[seat], st)
        ids.append(ids_of.get(d.text, -2))     # -2: a decision the codec cannot name
        st.apply(d)
    return ids, st


@pytest.mark.parametrize("level", ["easy", "medium", "random"])
def test_compiled_bots_play_the_engines_games(level):
    """Every seat the compiled level in the simulator and the Python bot in the engine: the
    same decisions, scores and winners (random: the bots' own generators, as the engine's)."""
    games = {"easy": GAMES, "medium": MEDIUM_GAMES}.get(level, len(AB))
    rnd = random.Random(48)
    compared = 0
    for k in range(games):
        config = AB[k % len(AB)]
        cfg = make_config(**config)
        n = cfg.players
        codec = make_codec(cfg.game, n)
        seed = 7_000_001 * (k + 1)
        bot_seeds = [rnd.getrandbits(62) for _ in range(n)]
        ids, st = _engine_game(cfg, codec, seed, bot_seeds, level)
        sim = make_batch(cfg.game, 1, variant=cfg.variant, players=n,
                         options=dict(cfg.options) or None)
        out = sim.bot_playouts([seed], level, bot_seeds=[bot_seeds], trace=len(ids) + 1)
        got = out["actions"][0]
        assert got[:len(ids)].tolist() == ids, (config, seed)
        assert got[len(ids)] == -1 and out["decisions"][0] == len(ids)
        assert out["scores"][0].tolist() == st.scores()
        assert np.flatnonzero(out["winners"][0]).tolist() == sorted(st.winners())
        compared += len(ids)
    assert compared > 30 * games
    print(f"{games} games, {compared} decisions of {level} compared")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_compiled_kombio_bots_play_the_engines_games(level):
    """The same for Kombio at 2-6 players (whole games to the codec's target, 100). (Not the
    random level: the codec lists Kombio's decisions in another order than the engine, so a
    draw among them picks another one.)"""
    games = {"easy": KOMBIO_GAMES, "medium": KOMBIO_MEDIUM_GAMES}[level]
    rnd = random.Random(49 if level == "easy" else 50)
    compared = 0
    for k in range(games):
        n = 2 + k % 5
        cfg = make_config("kombio", None, n)
        codec = make_codec("kombio", n)
        seed = 9_000_011 * (k + 1)
        bot_seeds = [rnd.getrandbits(62) for _ in range(n)]
        ids, st = _engine_game(cfg, codec, seed, bot_seeds, level)
        sim = make_batch("kombio", 1, players=n)
        out = sim.bot_playouts([seed], level, bot_seeds=[bot_seeds], trace=len(ids) + 1)
        got = out["actions"][0]
        assert got[:len(ids)].tolist() == ids, (n, seed)
        assert got[len(ids)] == -1 and out["decisions"][0] == len(ids)
        assert out["scores"][0].tolist() == st.scores()
        assert np.flatnonzero(out["winners"][0]).tolist() == sorted(st.winners())
        compared += len(ids)
    assert compared > 100 * games
    print(f"{games} Kombio games, {compared} decisions of {level} compared")


def test_compiled_kombio_medium_has_the_python_bots_constants():
    """kombio/batch/medium.py (and easy.py, for the snap both levels share) keep heuristic.py's
    P as constants of their own (numba compiles them in): they are the same numbers."""
    from cardtable.kombio.batch import easy, medium
    from cardtable.kombio.heuristics import P
    compiled = {**vars(easy), **vars(medium)}
    assert {k: compiled[k.upper()] for k in P} == P


def test_bot_playouts_without_seeds_play_whole_games():
    sim = make_batch("abluxxen", 1, variant="basic", players=4)
    out = sim.bot_playouts(range(20), ["easy", "random", "easy", "random"])
    assert (out["decisions"] > 20).all() and out["winners"].any(axis=1).all()
    again = sim.bot_playouts(range(20), ["easy", "random", "easy", "random"])
    assert np.array_equal(out["scores"], again["scores"])


def test_the_levels_beat_the_levels_below_in_the_simulator():
    """A check that the compiled levels play to win: easy at seat 0 against three random
    seats wins far more than its even share, medium against three easy more than its share."""
    sim = make_batch("abluxxen", 1, variant="basic", players=4)
    out = sim.bot_playouts(range(200), ["easy", "random", "random", "random"])
    assert out["winners"][:, 0].mean() > 0.5
    out = sim.bot_playouts(range(400), ["medium", "easy", "easy", "easy"])
    assert out["winners"][:, 0].mean() > 0.3


def test_vector_env_with_easy_opponents_plays_and_resets():
    envs = BatchVectorEnv("abluxxen", num_envs=8, variant="basic", players=4,
                          opponents="easy", seat=1)
    assert envs.opponents == ["easy"] * 4
    obs, infos = envs.reset(seed=5)
    term = np.zeros(8, bool)
    ended = 0
    for _ in range(1500):
        live = infos["action_mask"].any(axis=1)
        assert (live == ~term).all() and (infos["seat"] == 1).all()
        obs, rew, term, trunc, infos = envs.step(envs.sample_actions())
        ended += int(term.sum())
    assert ended >= 8
    # the same seed replays the same games; easy opponents play other games than random ones
    a = BatchVectorEnv("abluxxen", num_envs=8, variant="basic", players=4, opponents="easy")
    b = BatchVectorEnv("abluxxen", num_envs=8, variant="basic", players=4,
                       opponents=["random", "easy", "medium", "easy"])
    c = BatchVectorEnv("abluxxen", num_envs=8, variant="basic", players=4)
    firsts = [e.reset(seed=11)[0] for e in (a, a, b, c)]
    assert np.array_equal(firsts[0], firsts[1])
    assert not np.array_equal(firsts[0], firsts[3])
    medium = BatchVectorEnv("abluxxen", num_envs=4, variant="expert", players=3,
                            opponents="medium", seat=0)
    obs, infos = medium.reset(seed=1)
    ended = 0
    for _ in range(600):
        obs, rew, term, trunc, infos = medium.step(medium.sample_actions())
        ended += int(term.sum())
    assert ended >= 4
    made = gymnasium.make_vec("cardtable/AbluxxenBatch-v0", num_envs=2, variant="duel",
                              players=2, opponents="easy")
    assert made.opponents == ["easy", "easy"]
    assert BatchVectorEnv("kombio", num_envs=2, players=3).opponents == ["random"] * 3


def test_kombio_vector_env_with_easy_and_medium_opponents_plays_and_resets():
    envs = BatchVectorEnv("kombio", num_envs=4, players=3, opponents="easy")
    obs, infos = envs.reset(seed=2)
    term = np.zeros(4, bool)
    ended = 0
    for _ in range(3000):
        assert (infos["action_mask"].any(axis=1) == ~term).all()
        obs, rew, term, trunc, infos = envs.step(envs.sample_actions())
        ended += int(term.sum())
    assert ended >= 1
    medium = BatchVectorEnv("kombio", num_envs=4, players=4, opponents="medium", seat=2)
    obs, infos = medium.reset(seed=3)
    assert medium.opponents == ["medium"] * 4
    ended = 0
    for _ in range(3000):
        obs, rew, term, trunc, infos = medium.step(medium.sample_actions())
        assert (infos["seat"] == 2).all()
        ended += int(term.sum())
    assert ended >= 1
    a = BatchVectorEnv("kombio", num_envs=4, players=3, opponents="easy").reset(seed=4)[0]
    b = BatchVectorEnv("kombio", num_envs=4, players=3).reset(seed=4)[0]
    again = BatchVectorEnv("kombio", num_envs=4, players=3, opponents="easy").reset(seed=4)[0]
    assert np.array_equal(a, again) and not np.array_equal(a, b)
    env = BatchParallelEnv("kombio", 3, players=3, opponents=["easy", None, "easy"])
    assert env.possible_agents == ["player_1"]
    env.reset(seed=1)
    for _ in range(200):
        env.step(env.sample_actions())
        assert set(env.sim.to_move[~env.sim.over].tolist()) <= {1}


@pytest.mark.parametrize("bad", ["hard", "expert", "greedy", 3, ["easy"] * 3, None,
                                 ["easy", "easy", "easy", "hard"]])
def test_unknown_opponents_are_refused(bad):
    with pytest.raises(ConfigError, match="opponents"):
        BatchVectorEnv("abluxxen", num_envs=2, variant="basic", players=4, opponents=bad)
    with pytest.raises(ConfigError, match="levels: random, easy, medium"):
        BatchVectorEnv("kombio", num_envs=2, players=4, opponents="hard")


def test_unknown_level_error_names_the_levels():
    with pytest.raises(ConfigError) as e:
        BatchVectorEnv("abluxxen", num_envs=2, variant="basic", players=4, opponents="hard")
    assert "'hard'" in str(e.value) and "levels: random, easy, medium" in str(e.value)


def test_parallel_env_with_easy_bots_at_some_seats():
    """The seats given a level play inside the simulator; the others are the agents, and only
    they are ever to move; every game ends with the agents' final rewards."""
    env = BatchParallelEnv("abluxxen", 6, variant="basic", players=4,
                           opponents=[None, "easy", None, "easy"])
    assert env.possible_agents == ["player_0", "player_2"]
    obs, infos = env.reset(seed=9)
    assert set(env.sim.to_move.tolist()) <= {0, 2}
    finished = 0
    for _ in range(2000):
        obs, rew, terms, truncs, infos = env.step(env.sample_actions())
        assert set(env.sim.to_move[~env.sim.over].tolist()) <= {0, 2}
        done = terms["player_0"]
        finished += int(done.sum())
        assert np.array_equal(rew["player_0"][done], env.sim.final_rewards()[done, 0])
    assert finished >= 6
    one = parallel_env("abluxxen", variant="duel", players=2, opponents=["easy", None])
    obs, infos = one.reset(seed=1)
    assert one.agents == ["player_1"]
    while one.agents:
        mask = obs["player_1"]["action_mask"]
        obs, rew, terms, truncs, infos = one.step({"player_1": int(np.flatnonzero(mask)[0])})
    assert set(rew) == {"player_1"}
    parallel_api_test(parallel_env("abluxxen", variant="basic", players=3, seed=2,
                                   opponents=["easy", None, None]), num_cycles=400)


@pytest.mark.parametrize("bad", [["easy"] * 4, "easy", [None, "hard", None, None],
                                 [None, "easy"]])
def test_parallel_env_refuses_bad_opponents(bad):
    with pytest.raises(ConfigError, match="opponents"):
        BatchParallelEnv("abluxxen", 2, variant="basic", players=4, opponents=bad)
    with pytest.raises(ConfigError, match="opponents"):
        BatchParallelEnv("kombio", 2, players=4, opponents=[None, "hard", "easy", "easy"])
