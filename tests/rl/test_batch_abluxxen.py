"""The batched Abluxxen simulator (issue 35) agrees with the engine: seeded games of random legal
play go through both, the engine with the codec (abluxxen/codec.py) and the simulator
(abluxxen/batch/env.py), and at every step the seat to move, its legal mask and its observation
are equal, every reward is the engine's, and at the end every seat's observation, the scores,
the winners and the way the game ended are equal — for every rule set and player count (the
configurations of rl_configs.py).

`make test` replays 60 games, `make test-full` 500 (tests/sizes.py); `make test-batch-full`
replays 10,000 (CARDTABLE_BATCH_GAMES sets the number)."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from rl_configs import CONFIGS, config_id
from sizes import sample

from cardtable.core.errors import ConfigError
from cardtable.core.rng import Rng
from cardtable.abluxxen.batch import rules as L
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.rng import MT_WORDS, mt_below, mt_seed, mt_shuffle
from cardtable.rl.codec import make_codec
from cardtable.rl.common import make_config, rewards

AB = [c for c in CONFIGS if c["game"] == "abluxxen"]
GAMES = int(os.environ.get("CARDTABLE_BATCH_GAMES") or sample(500, 60))
LOCKSTEP = 50                       # games stepped together in one batch
ENDED = {1: "hand", 2: "supply"}


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**40 + 3, 2**62 - 1,
                                  2**64 - 1])
def test_the_deal_generator_is_pythons(seed):
    """rng.py's Mersenne Twister is `random.Random(seed)` as core/rng.py draws from it."""
    mt = np.zeros(MT_WORDS, np.uint64)
    mt_seed(mt, np.uint64(seed))
    bounds = [2, 3, 7, 100, 109, 1000, 2**31, 5] * 40
    ours = [mt_below(mt, n) for n in bounds]
    rng = Rng(seed)
    assert ours == [rng.below(n) for n in bounds]
    mt_seed(mt, np.uint64(seed))
    cards = np.arange(109, dtype=np.int16)
    mt_shuffle(mt, cards, 109)
    expected = list(range(109))
    Rng(seed).shuffle(expected)
    assert cards.tolist() == expected


def _replay(config: dict, seeds: list[int], reward: str) -> int:
    """Replay the games of `seeds` through the engine and the simulator; returns the steps."""
    cfg = make_config(**config, reward=reward)
    n = cfg.players
    codec = make_codec(cfg.game, n)
    sim = make_batch(cfg.game, len(seeds), variant=cfg.variant, players=n,
                     options=dict(cfg.options) or None, reward=reward)
    states = [cfg.new_state(s) for s in seeds]
    pickers = [random.Random(s) for s in seeds]
    obs, mask = sim.reset(seed=seeds)
    steps = 0
    while True:
        actions = np.zeros(len(seeds), np.int64)
        was_over = [st.over for st in states]
        for i, st in enumerate(states):
            assert sim.over[i] == st.over
            if st.over:
                assert not mask[i].any()
                continue
            view = st.view(st.to_move)
            legal = codec.legal(st, view)
            assert sim.to_move[i] == sim.seat[i] == st.to_move
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal), (i, st.history)
            assert np.array_equal(obs[i], codec.encode(view)), (i, st.history)
            actions[i] = pickers[i].choice(sorted(legal))
            st.apply(legal[int(actions[i])])
            steps += 1
        if all(was_over):
            break
        obs, mask, got, done = sim.step(actions)
        for i, st in enumerate(states):
            assert done[i] == st.over
            expected = rewards(cfg, st) if st.over and not was_over[i] else [0.0] * n
            assert got[i].tolist() == pytest.approx(expected), (i, st.history)
    for i, st in enumerate(states):
        assert sim.scores[i].tolist() == st.scores()
        assert np.flatnonzero(sim.winners[i]).tolist() == sorted(st.winners())
        assert ENDED[int(sim.state[i, L.ENDED])] == st.ended_by
        assert sim.final_rewards()[i].tolist() == pytest.approx(rewards(cfg, st))
    for s in range(n):
        every = sim.observe(s)
        for i, st in enumerate(states):
            assert np.array_equal(every[i], codec.encode(st.view(s))), (i, s)
    return steps


def _games_per_config() -> list[tuple[dict, list[int], str]]:
    """GAMES games spread over the configurations, in lockstep batches; the reward alternates
    between "score" and "win"; each configuration has its own seeds."""
    out = []
    for k, config in enumerate(AB):
        count = GAMES // len(AB) + (1 if k < GAMES % len(AB) else 0)
        seeds = [1_000_003 * (k + 1) + j for j in range(count)]
        for b in range(0, count, LOCKSTEP):
            out.append((config, seeds[b:b + LOCKSTEP], ("score", "win")[(b // LOCKSTEP) % 2]))
    return out


def test_batch_matches_engine():
    played = steps = 0
    for config, seeds, reward in _games_per_config():
        steps += _replay(config, seeds, reward)
        played += len(seeds)
    assert played == GAMES and steps > 50 * GAMES
    print(f"{played} games, {steps} steps compared")


def test_playouts_are_the_stepped_games():
    """The compiled playouts are the games `step` plays with `sample_actions` from the same
    seeds (and those are the engine's, above): the same scores, winners and lengths."""
    seeds = list(range(40, 60))
    sim = make_batch("abluxxen", len(seeds), variant="expert", players=5)
    out = sim.playouts(seeds)
    sim.reset(seed=seeds)
    length = np.zeros(len(seeds), np.int64)
    while not sim.over.all():
        length += ~sim.over
        sim.step(np.maximum(sim.sample_actions(), 0))
    assert np.array_equal(out["scores"], sim.scores)
    assert np.array_equal(out["winners"], sim.winners)
    assert np.array_equal(out["decisions"], length) and (length > 20).all()


def test_an_illegal_action_changes_nothing():
    sim = make_batch("abluxxen", 3, variant="basic", players=3)
    obs, mask = sim.reset(seed=5)
    before = sim.state.copy()
    actions = np.array([np.flatnonzero(m)[0] for m in mask])
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=r"game 1: action \d+ \(.*\) is not legal for seat 0"):
        sim.step(actions)
    assert np.array_equal(sim.state, before)
    for bad in ([0, 0], np.zeros(3), [700, 0, 0]):
        with pytest.raises(ValueError):
            sim.step(bad)
    assert np.array_equal(sim.state, before)


def test_reset_of_chosen_games_and_any_seats_view():
    sim = make_batch("abluxxen", 4, variant="classic", players=2)
    sim.reset(seed=10)
    sim.step(np.maximum(sim.sample_actions(), 0))
    kept = sim.state[[0, 2]].copy()
    obs, mask = sim.reset(seed=[11, 13], games=[1, 3])
    assert np.array_equal(sim.state[[0, 2]], kept)
    twin = make_batch("abluxxen", 2, variant="classic", players=2)
    twin_obs, twin_mask = twin.reset(seed=[11, 13])
    assert np.array_equal(obs, twin_obs) and np.array_equal(mask, twin_mask)
    assert np.array_equal(obs, sim.observe()[[1, 3]]) and np.array_equal(mask, sim.masks()[[1, 3]])
    assert sim.observe(1).shape == (4, 319)
    with pytest.raises(ValueError):
        sim.observe(2)


@pytest.mark.parametrize("kw", [dict(variant="duel", players=3), dict(variant="nope"),
                                dict(players=6), dict(options={"shadow_partial": True}),
                                dict(reward="money")])
def test_bad_configurations_are_refused(kw):
    with pytest.raises(ConfigError):
        make_batch("abluxxen", 2, **kw)


@pytest.mark.parametrize("num,seed", [(0, 1), (-3, 1), (True, 1), (2, -1), (2, [1]),
                                      (2, [1, 2**64]), (2, "ab"), (2, 2**64 - 1)])
def test_bad_counts_and_seeds_are_refused(num, seed):
    with pytest.raises(ConfigError):
        make_batch("abluxxen", num).reset(seed=seed)


def test_a_game_without_a_simulator_says_so(monkeypatch):
    """Both games have one now; a declaration without `batch` is refused with a reason."""
    import dataclasses

    import cardtable.rl.batch as B

    real = B.info
    monkeypatch.setattr(B, "info", lambda name: dataclasses.replace(real(name), batch=None))
    with pytest.raises(ConfigError, match="no batched simulator"):
        make_batch("kombio", 2)


def test_the_compiled_code_cache_follows_every_source(tmp_path, monkeypatch):
    """numba's own cache checks only the compiled function's file; ours is keyed by a digest
    of all the sources a function may call (its game's batch package and the shared
    rl/batch), so a change to the rules a kernel calls, or to the shared random numbers, is
    compiled anew; each game's functions are cached by their own folder's digest."""
    from pathlib import Path

    from cardtable.abluxxen.batch import kernels
    from cardtable.rl.batch import jit

    game = Path(kernels.__file__).resolve().parent
    assert jit.CACHE_DIR == str(jit.cache_dir())          # the sources as loaded
    assert kernels.k_playouts._cache._cache_path.startswith(str(jit.cache_dir(game)))
    shared, own = tmp_path / "batch", tmp_path / "abluxxen" / "batch"
    for src, dst in ((jit._HERE, shared), (game, own)):
        dst.mkdir(parents=True)
        for path in src.glob("*.py"):
            (dst / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(jit, "_HERE", shared)
    before = jit.cache_dir(own)
    assert before != jit.cache_dir() and before.parent == jit.cache_dir().parent
    for changed in (own / "rules.py", shared / "rng.py"):
        changed.write_text(changed.read_text(encoding="utf-8") + "\n# changed\n",
                           encoding="utf-8")
        after = jit.cache_dir(own)
        assert before != after and before.parent == after.parent
        before = after


def test_the_same_sources_in_another_place_use_the_cache(tmp_path):
    """A clone or an install elsewhere compiles nothing again: the cache is found by the
    sources' digest, not by their path (jit.DigestLocator). The same module in two folders,
    each run in a process of its own: the second loads the first one's compiled function."""
    import subprocess
    import sys

    module = ("from cardtable.rl.batch.jit import njit\n\n\n"
              "@njit\ndef twice(x):\n    return 2 * x\n")
    probe = ("import sys\nsys.path.insert(0, sys.argv[1])\nimport mod\n"
             "assert mod.twice(21) == 42\n"
             "print(sum(mod.twice.stats.cache_hits.values()), "
             "sum(mod.twice.stats.cache_misses.values()))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    hits = []
    for place in ("one", "two"):
        folder = tmp_path / place / "kernels"
        folder.mkdir(parents=True)
        (folder / "mod.py").write_text(module, encoding="utf-8")
        out = subprocess.run([sys.executable, "-c", probe, str(folder)], env=env,
                             capture_output=True, text=True, check=True).stdout.split()
        hits.append(tuple(map(int, out)))
    assert hits == [(0, 1), (1, 0)]       # compiled in the first place, loaded in the second


def test_ray_playouts_refuse_bad_input_before_connecting():
    """`distributed.playouts` checks the configuration and the chunk here, before any cluster
    is asked (the Ray run itself: tests/sim/test_tournament.py, on its one-node cluster)."""
    from cardtable.core.errors import ConfigError
    from cardtable.rl.batch.distributed import playouts
    with pytest.raises(ConfigError, match="players"):
        playouts("abluxxen", range(3), address="127.0.0.1:1", variant="duel", players=4)
    with pytest.raises(ValueError, match="chunk"):
        playouts("abluxxen", range(3), address="127.0.0.1:1", chunk=0)
