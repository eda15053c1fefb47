"""The seat view is the only source of an observation (issue 16): re-dealing every card a seat
cannot see, consistently with what it has seen (`determinize`, the same re-deal the engines'
no-leak property uses, tests/core/test_properties.py), changes neither its tensor, nor its JSON view,
nor its action mask, in the codec and through the PettingZoo and Gymnasium environments."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.rl.codec import make_codec
from cardtable.rl.common import make_config
from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.pettingzoo import raw_env

from rl_configs import CONFIGS


def _walk(state, rnd, steps):
    for _ in range(steps):
        if state.over:
            break
        legal = state.legal_decisions()
        state.apply(legal[rnd.randrange(len(legal))])
    return state


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), steps=st.integers(0, 200),
       redeal=st.integers(0, 2**32))
def test_observation_ignores_hidden_cards(config, seed, steps, redeal):
    cfg = make_config(**config)
    codec = make_codec(cfg.game, cfg.players, max_cards=cfg.max_cards, target=cfg.target)
    state = _walk(cfg.new_state(seed), random.Random(seed), steps)
    # (that a re-deal does change what is hidden is test_hidden_cards_really_move's part)
    for seat in range(cfg.players):
        det = state.determinize(seat, seed=redeal)
        view = state.view(seat)
        assert det.view(seat) == view
        assert np.array_equal(codec.encode(det.view(seat)), codec.encode(view))
        if seat == state.to_move:
            a = {i: d.text for i, d in codec.legal(state, view).items()}
            b = {i: d.text for i, d in codec.legal(det, det.view(seat)).items()}
            assert a == b


def test_hidden_cards_really_move():
    """The property above proves something only if the re-deal changes the full state."""
    cfg = make_config(game="abluxxen", variant="basic", players=4)
    state = cfg.new_state(3)
    assert state.determinize(0, seed=1).view(None) != state.view(None)


def test_environments_observe_only_the_view():
    for config in (CONFIGS[0], CONFIGS[-1], CONFIGS[-5]):
        env = raw_env(seed=5, **config)
        env.reset()
        rnd = random.Random(1)
        for step in range(60):
            if env.game.over:
                break
            agent = env.agent_selection
            seat = env.agent_seat[agent]
            before = env.observe(agent)
            real = env.game
            env.game = real.determinize(seat, seed=step)
            after = env.observe(agent)
            env.game = real
            assert np.array_equal(before["observation"], after["observation"])
            legal = sorted(env.legal_texts())
            env.step(rnd.choice(legal))
        genv = CardtableEnv(opponents="random", **config)
        obs, info = genv.reset(seed=2)
        real = genv.state
        genv.state = real.determinize(genv.seat, seed=9)
        genv._view = genv.state.view(genv.seat)
        assert np.array_equal(obs, genv._obs())
