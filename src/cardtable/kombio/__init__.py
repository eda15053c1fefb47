"""Kombio (Game Factory 2022 edition, 2-6 players). See `state.py` for the rules engine and
RULES.md (KO-1..KO-16) for the clauses.

    from cardtable.kombio import new_game
    s = new_game(players=4, seed=7)
    s.legal()            # ['draw', 'kombio', ...]
    s.apply("draw")
"""

from __future__ import annotations

import copy as _copy

from cardtable.core.errors import ConfigError, RecordError, coded
from cardtable.core.registry import GameInfo, Option, Variant, check_rules_version
from cardtable.kombio.rules import (DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, Rules, whole_number,
                                    make_rules)
from cardtable.kombio.setup import check_deal, check_deals
from cardtable.kombio.state import OPTION_NAMES, RULES_VERSION, RULES_VERSIONS, KombioState

__all__ = ["GAME", "KombioState", "Rules", "OPTION_NAMES", "RULES_VERSION", "RULES_VERSIONS", "new_game", "from_record"]


def new_game(players: int = 4, seed: int = 0, start: int = 0, target: int = 100,
             deal: dict | None = None, deals: list | None = None, options: dict | None = None,
             variant: str | None = None, rules_version: str | None = None, **extra) -> KombioState:
    """A new game of Kombio. `deal` fixes cards of the first round, `deals` of each round in
    turn (NOTATION.md; either may be partial; rounds without a deal are shuffled from `seed`).
    `target` ends the game (KO-4, KO-16); `start` is the first round's start seat."""
    if extra:
        raise ConfigError(f"unknown setting {sorted(extra)[0]!r} for Kombio")
    if rules_version is not None:                                           # NOTATION.md
        check_rules_version(GAME.name, rules_version)
    if variant not in (None, "basic"):
        raise ConfigError(f"Kombio has no variant {variant!r}")
    players = whole_number(players, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:                      # KO title: 2-6 players
        raise coded(ConfigError, "cfg.players", game="Kombio",
                    span=f"{MIN_PLAYERS}-{MAX_PLAYERS}", players=players)
    seed = whole_number(seed, "seed")
    start = whole_number(start, "start seat")
    if not 0 <= start < players:
        raise ConfigError(f"start seat {start} does not exist (seats 0..{players - 1})")
    rules = make_rules(target, options)
    target, opts = rules.target, rules.options()
    if deal is not None and deals is not None:
        raise ConfigError('give either "deal" (the first round) or "deals" (one per round)')
    if deals is not None:
        checked = check_deals(deals, players)
        deals = _copy.deepcopy(deals)
    elif deal is not None:
        checked = [check_deal(deal, players)]
        deal = _copy.deepcopy(deal)
    else:
        checked = []
    return KombioState(players, seed, start, target, checked, deal, deals, opts)


def from_record(rec: dict) -> KombioState:
    """The initial state of a record (its actions are applied by core.load_record)."""
    try:
        return new_game(players=rec.get("players", 4), seed=rec.get("seed", 0),
                        start=rec.get("start", 0), target=rec.get("target", 100),
                        deal=rec.get("deal"), deals=rec.get("deals"),
                        options=rec.get("options"), variant=rec.get("variant"))
    except ConfigError as e:
        raise RecordError(str(e)) from None


#: the one declaration of Kombio the house reads (core/registry.py)
GAME = GameInfo(
    name="kombio",
    title="Kombio",
    engine=__name__,
    clauses=("KO",),
    variants=(Variant("basic", MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS),),
    rules_version=RULES_VERSION,
    rules_versions=RULES_VERSIONS,
    options=(Option("max_turns", int, None, "engine option, not a rule: a round without a "
                    "Kombio call ends after this many turns (off by default)"),),
    settings=(Option("target", int, Rules.target, "KO-16: the game ends after the round in "
                     "which a total reaches it", min=1, max=1000, error="bad_target",
                     label="lobby.target"),),
    # the server's table settings: the snap window's length (the server's default,
    # server.protocol.DEFAULT_SNAP_SECONDS, is the same 5 s) and the memory mode
    table_settings=(Option("snap_seconds", float, 5.0, "KO-10: the length of a snap window "
                           "in seconds", min=0.2, max=60, error="bad_snap",
                           choices=(3.0, 5.0, 8.0, 12.0), label="lobby.snap"),
                    Option("memory", bool, False, "memory mode: cards a player has seen "
                           "turn face down again after 5 s", label="lobby.memory")),
    lower_is_better=True,                          # KO-16: the lowest total wins
    ui="cardtable.kombio.ui",
    narration="cardtable.kombio.narration",
    heuristics="cardtable.kombio.heuristics",
    policies="cardtable.kombio.policies",
    codec="cardtable.kombio.codec:KombioCodec",
    batch="cardtable.kombio.batch.env:KombioBatch",
    analytics="cardtable.kombio.analytics",
    web="cardtable.kombio.web",
    catalog="cardtable.kombio",
    # the review judges with 2.5 times the default budget (bots/review.py: 1000 rollouts a
    # decision, compiled; fewer cannot tell hard from medium and expert: docs/review.md); the
    # expert searches hard's four candidates with its whole 1200 rollouts (docs/strength.md)
    search_share=(("review", 2.5),),
    # KO-10's own reading: several snaps in one window, one drawn by the seeded generator (a
    # turn-based table collects every answer: docs/rules.md, "turn-based tables")
    windows_collect=True,
    probes=("draw", "snap", "give", "swap 9.9", "replace 0", "take 99", "peek 7.1"),
    lessons="cardtable.kombio.lessons:LESSONS",
    bots=(("learned", "cardtable.rl.policy:LearnedBot"),),   # imitation (make train-learned)
    bot_checks=(("learned", "cardtable.bots.trained:learned_plays"),),
)
