"""Where the bots find a game's own knowledge: the heuristics module its declaration names
(`GameInfo.heuristics`, core/registry.py), read in this one place. A game's heuristics may give (each optional; the module's
`HOOKS` lists what it gives):

    greedy(state, rng), heuristic(state, rng)      the rule-based bots' decisions
    evaluate(state)                                 per-seat win chances of a state (searches)
    candidates(state), rollout(state, random_)      pruning and the fast rollout policy (ISMCTS)
    horizon(state), determinize(state, seat, seed)  where a rollout stops; the belief sampler
    ranked(state, rng), turn_key(state)             the policy-rollout search (PIMC)
    features(state), value_family(state)            the learned value networks
    playout(state, seat, seed, h0, score_weight, stop_turns, nets)
                                                    the PIMC rollout compiled (or None)
    ISMCTS, PIMC                                    default settings of the searches

Looked up when used (not copied), so a test may replace one on the module.
"""

from __future__ import annotations

from types import ModuleType

from cardtable.core.registry import info

_mods: dict[str, ModuleType | None] = {}


def heuristics(game: str) -> ModuleType | None:
    """The heuristics module of `game` (cached), None if the game has none."""
    if game not in _mods:
        _mods[game] = info(game).module("heuristics")
    return _mods[game]


def hook(game: str, name: str):
    """The hook `name` of `game`'s heuristics, None if it gives none."""
    return getattr(heuristics(game), name, None)
