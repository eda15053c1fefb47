"""cardtable.rl.evaluate: duplicate deals, the win share and its Wilson interval."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.core.errors import ConfigError
from cardtable.rl.evaluate import evaluate
from cardtable.sim.stats import wilson

DUEL = dict(game="abluxxen", variant="duel", players=2)


def lowest(obs, mask):
    return mask.argmax(axis=1)


def test_duplicate_deals_mirror_the_seats():
    """The same deterministic policy at both seats: deal i is the same game from either
    seat, so the two seats' shares add up to exactly 1."""
    r = evaluate(lowest, opponents=lowest, games=12, seed=3, **DUEL)
    assert r.episodes == 24 and len(r.by_seat) == 2
    assert r.by_seat[0] + r.by_seat[1] == pytest.approx(1.0)
    assert r.share == pytest.approx(0.5)
    assert (r.low, r.high) == wilson(r.share * r.episodes, r.episodes)
    assert r.low < 0.5 < r.high and r.illegal == r.truncated == 0


def test_against_a_compiled_level_reproduces():
    rng_policy = lambda obs, mask: (np.random.default_rng(int(obs.sum())).random(mask.shape)
                                    * mask).argmax(axis=1)
    a = evaluate(rng_policy, opponents="easy", games=10, seed=1, **DUEL)
    b = evaluate(rng_policy, opponents="easy", games=10, seed=1, **DUEL)
    assert a == b and 0 <= a.low <= a.share <= a.high <= 1


def test_illegal_actions_count_as_losses():
    r = evaluate(lambda obs, mask: np.full(len(obs), -1), opponents="random", games=4,
                 **DUEL)
    assert r.share == 0 and r.illegal == r.episodes == 8


@pytest.mark.parametrize("kw, words", [(dict(policy="easy"), "policy must be a callable"),
                                       (dict(games=0), "games must be"),
                                       (dict(reward="score"), "takes no reward")])
def test_bad_arguments(kw, words):
    args = dict(policy=lowest, opponents="random", **DUEL) | kw
    with pytest.raises(ConfigError, match=words):
        evaluate(**args)
