"""The fixed action space (rl/codec.py): at every step of random games of every configuration
the action mask is exactly the engine's legal decisions, each masked id naming one of them;
the tensor stays within its documented bounds; documented ids name the documented decisions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardtable import new_game
from cardtable.rl.codec import AB_POOL, AbluxxenCodec, KombioCodec, make_codec
from cardtable.rl.common import make_config


def random_steps(cfg, codec, seed):
    """(state, view of the seat to move, legal ids) at every step of one random game."""
    state = cfg.new_state(seed)
    rnd = random.Random(seed)
    while not state.over:
        view = state.view(state.to_move)
        legal = codec.legal(state, view)
        yield state, view, legal
        state.apply(legal[rnd.choice(sorted(legal))])


def test_mask_is_the_legal_decisions(config):
    cfg = make_config(**config)
    codec = make_codec(cfg.game, cfg.players, max_cards=cfg.max_cards, target=cfg.target)
    steps = 0
    for seed in range(3):
        for state, view, legal in random_steps(cfg, codec, seed):
            texts = [d.text for d in legal.values()]
            assert len(set(texts)) == len(texts), "two ids name the same decision"
            assert all(0 <= i < codec.num_actions for i in legal)
            if cfg.game == "abluxxen" or max(view["counts"]) <= codec.K:
                assert sorted(texts) == state.legal()
            else:
                assert set(texts) < set(state.legal())
            obs = codec.encode(view)
            assert obs.shape == (codec.obs_size,) and obs.dtype == np.float32
            assert (obs >= codec.obs_low).all() and (obs <= codec.obs_high).all()
            steps += 1
    assert steps > 50


def test_abluxxen_documented_ids():
    codec = AbluxxenCodec(4)
    names = codec.names
    assert names[(7 - 1) * 48 + (2 - 1) * 6 + 1] == "play 7 7 X"
    assert names[624] == "play X" and names[625] == "play X X" and names[628] == "play X X X X X"
    assert names[628 + 5] == "shadow 5" and names[640] == "shadow 12"
    assert [names[i] for i in range(641, 647)] == ["take", "leave", "keep", "discard", "pass",
                                                  "draw deck"]
    assert len(names) == AB_POOL == 647 and codec.num_actions == 653


def test_abluxxen_equal_pool_cards_are_one_action():  # NOTATION.md: pool cards by content
    state = new_game("abluxxen", variant="basic", players=3, seed=1,
                     deal={"hands": [[5, 5, 9]], "pool": [3, 8, 8, 10, 8, 13]})
    state.apply("play 5 5")                 # nobody to abluxx: AB-15's optional draw
    codec = AbluxxenCodec(3)
    legal = codec.legal(state, state.view(0))
    pool = {i - AB_POOL: d.text for i, d in legal.items() if i >= AB_POOL}
    assert pool == {0: "draw pool 3", 1: "draw pool 8", 3: "draw pool 10", 5: "draw pool 13"}


def test_kombio_ids_name_cards_by_rank_and_relative_seat():
    codec = KombioCodec(3, max_cards=12)
    assert codec.num_actions == 9 + 36 + 3 * 36 + 2 * (36 * 35 // 2)
    state = new_game("kombio", players=3, seed=4)
    state.apply("draw")
    state.apply("discard")                  # whatever was drawn; find the snap window
    while state.awaiting != "snap":
        legal = state.legal_decisions()
        state.apply(legal[-1])
    seat = state.to_move
    legal = codec.legal(state, state.view(seat))
    # snap on the next seat's second card: relative seat 1, card 1
    nxt = (seat + 1) % 3
    pos = 1 * codec.K + 1
    assert legal[codec.base_pos + codec.P + pos].text == f"snap {nxt}.2"
    assert legal[6].text == "pass"


def test_kombio_beyond_the_card_cap():
    """A cap of 4 cards: grids with penalty cards have cards that no id names; the mask then
    holds exactly the legal decisions naming the first 4 cards of every grid, never empty."""
    cfg = make_config(game="kombio", players=2, target=60, max_cards=4)
    codec = make_codec("kombio", 2, max_cards=4, target=60)
    beyond = 0
    for seed in range(12):
        for state, view, legal in random_steps(cfg, codec, seed):
            assert legal
            rank = [{s: r for r, s in enumerate(i for i, v in enumerate(g, 1) if v is not None)}
                    for g in view["grids"]]
            me = state.to_move
            named = set()
            for d in state.legal_decisions():
                cards = [(me, int(w)) if w.isdigit() else tuple(map(int, w.split(".")))
                         for w in d.text.split()[1:]]
                if all(rank[p][s] < 4 for p, s in cards):
                    named.add(d.text)
            assert {d.text for d in legal.values()} == named
            beyond += len(named) < len(state.legal())
    assert beyond > 0, "no grid grew past the cap: the test proves nothing"


def test_bad_configurations():
    from cardtable.core import ConfigError
    for kw in (dict(game="uno"), dict(game="abluxxen", variant="nope"),
               dict(game="abluxxen", variant="duel", players=3), dict(game="kombio", players=7),
               dict(game="kombio", max_cards=2), dict(game="abluxxen", reward="money")):
        with pytest.raises(ConfigError):
            make_config(**kw)


def test_kombio_negative_total_stays_in_the_space():
    """KO-15: a caller who alone has the lowest sum scores it, and three -1 cards and a 0 make
    -3, so a total can be below 0. The observation space must hold it (PettingZoo's api_test
    met such a total now and then with its random actions: "Out of bounds observation")."""
    from gymnasium import spaces

    from cardtable.kombio import new_game as kombio_game

    state = kombio_game(players=2, target=60, seed=1,
                        deal={"grids": [[-1, -1, -1, 0], [14, 14, 13, 13]], "deck": []})
    state.apply("kombio")
    while state.view(0)["totals"] == [0, 0]:          # seat 1's last turn: draw and discard
        state.apply(sorted(state.legal())[0])
    assert state.view(0)["totals"][0] == -3
    codec = KombioCodec(2, target=60)
    space = spaces.Box(codec.obs_low, codec.obs_high, dtype=np.float32)
    for seat in (0, 1):
        obs = codec.encode(state.view(seat))
        assert space.contains(obs)
        assert obs[codec.seat0 + ((0 - seat) % 2) * 6 + 5] == np.float32(-3 / 60)
