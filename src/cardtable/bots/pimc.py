"""Policy-rollout search (`pimc`): perfect-information Monte Carlo over the seat's sensible
decisions, with the game's heuristic as the policy of every player in the rollouts and a
learned evaluation where the rollouts stop. The `hard` and `expert` levels (docs/bots.md).

One search per decision of the seat to move (`seat`):

1. **Candidates.** The game's `ranked(state, rng)` hook lists the decisions worth searching,
   best first by the game's heuristic (the `heuristic` bot's own choice first); at most `width`
   of them are searched. A single candidate — one legal decision, or one sensible option such
   as a Kombio snap window in which the seat knows no matching card — is answered at once.
2. **Determinizations.** Every round of the search draws a full state consistent with what
   `seat` knows: the game's `determinize(state, seat, seed)` hook where it has one (Kombio: a
   belief that the others keep the low cards they know), else `state.determinize(seat, seed)`.
   Both are functions of the seat's view and the seed.
3. **Rollouts.** Each candidate still in the race is applied to a copy of the same
   determinization and played on by the game's `heuristic` for *every* seat (itself too),
   with the same generator seed for every candidate (common random numbers: the candidates
   are compared on the same cards and the same luck, which removes most of the noise of the
   comparison). The heuristic reads only the knowledge of the seat it plays for, so a rollout
   never acts on a card its player has not seen. A rollout stops when the game ends, when the
   game's `horizon(state)` key changes (Kombio: the round is over), or after `circles` times
   around the table (counted by the game's `turn_key(state)`), and is scored for `seat`:
   finished: win share blended with the final-score margin (`ismcts.outcome`, `score_weight`);
   else the learned evaluation (`bots/value.py`) where the game has one, else the game's
   `evaluate(state)`.
4. **Sequential halving** (Karnin, Koren and Somekh, ICML 2013): the budget of `iterations`
   rollouts is split over ceil(log2 k) rounds; after each round the worse half of the
   candidates (by mean score over everything they were given) drops out. The decision is the
   candidate with the best mean of the last round (ties: the heuristic's order).

The bot is a one-step policy improvement of the heuristic: against `heuristic` players the
rollouts model the opponents exactly (up to the hidden cards), so the search fixes the
heuristic's own mistakes where the simulations show them.

Budget per decision: `iterations` (rollouts; `share={game: x}` spends the share x of them in
that game) and/or `seconds`; with `seconds` alone the first
round measures the speed and sizes the rest. An iteration budget makes the result independent
of the machine: same seed and same view -> same decision.

After `choose`, `last_stats` maps every legal decision's text (legal order) to
    {"visits": rollouts, "win_chance": mean estimated win chance, "reward": mean score}
(`None` for decisions not searched), `last_iterations` and `last_seconds` describe the search.

Game hooks (`cardtable.<game>.heuristics`): `ranked`, `heuristic`, `turn_key`, and optional
`horizon`, `determinize`, `features` + `value_family` (learned evaluation), `evaluate`, the
dict `PIMC` of the game's default settings, and
`playout(state, seat, seed, h0, score_weight, stop_turns, nets)`: the same rollout compiled
(Kombio: kombio/batch/rollout.py, to the horizon scored by its `evaluate`; Abluxxen:
abluxxen/batch/rollout.py, to the turn cap `stop_turns` or the end, scored by the learned
evaluation's networks `nets` (bots/value.py `load` for the game) when given, else by its
`evaluate`), (win, reward) of `seat`, or None to play
it in Python (a rollout the game's simulator does not play, a state it cannot hold, and while
the game's compiled code is not ready in this process: it never waits for the compiler); used
with the setting `compiled` (default on). Both play the same rollouts to the last bit, so the
setting changes the time a search takes, not its decisions (`compiled=false` for the Python
rollouts alone).
"""

from __future__ import annotations

import functools
import math
from time import perf_counter

from cardtable.bots.base import Bot, number, search_budget, whole
from cardtable.bots.hooks import hook
from cardtable.bots.ismcts import outcome
from cardtable.bots.value import load, value_fn
from cardtable.core.errors import ConfigError
from cardtable.core.game import Decision, GameState
from cardtable.core.rng import Rng

DEFAULT_ITERATIONS = 400
_SEED_BITS = 62
_SETTINGS = {"width": 8, "circles": None, "score_weight": 0.1, "belief": True,
             "events": False, "trust": 1.0, "learned": True, "anchor": 0.0, "compiled": True}


def _better(a: dict[int, float], b: dict[int, float], z: float) -> bool:
    """Is `a` better than `b` on the samples both were scored on, by more than `z` standard
    errors of the paired differences?"""
    d = [a[j] - b[j] for j in a.keys() & b.keys()]
    m = len(d)
    if m < 2:
        return False
    mean = sum(d) / m
    var = sum((x - mean) ** 2 for x in d) / (m - 1)
    return mean > z * math.sqrt(var / m)


def _roll(d: GameState, seat: int, seed: int, policy, evaluate, turn_key, horizon, h0,
          stop_turns: int | None, sw: float) -> tuple[float, float]:
    """One rollout from `d` (changed in place): the policy for every seat on `Rng(seed)`
    until the end, the horizon or `stop_turns` turns; (win, reward) of `seat`."""
    rng = Rng(seed)
    key = turn_key(d)
    turns = 0
    while not d.over:
        if horizon is not None and horizon(d) != h0:
            break
        kk = turn_key(d)
        if kk != key:
            key = kk
            turns += 1
            if stop_turns is not None and turns >= stop_turns:
                break
        d.apply(policy(d, rng))
    if d.over:
        w, v = outcome(d, sw)
        return w[seat], v[seat]
    w = evaluate(d)[seat]
    return w, w


class PIMCBot(Bot):
    """Policy-rollout search (module docstring). Parameters:

    iterations    rollouts per decision (default 400 if `seconds` is not given either)
    seconds       wall-clock budget per decision instead (or as well: whichever comes first)
    width         candidates searched at most (the heuristic's best `width`)
    circles       stop rollouts after this many times around the table (None: at the game's
                  horizon or the end) and evaluate
    score_weight  weight of the final-score margin in the score of a finished game (0..1)
    belief        draw determinizations with the game's `determinize` hook
    events        let that hook also read the round's public events (`events=True`; Kombio:
                  what the others kept shows how high their cards can be)
    trust         with `events`, the chance that a sample keeps each bound the events give
                  (0 < trust <= 1; 1: every sample keeps them all)
    learned       evaluate stopped rollouts with the learned evaluation (else `evaluate`)
    compiled      roll out on the game's compiled simulator where it has one (`playout`
                  above; the same rollouts, faster)
    A setting not given takes the game's default (`PIMC` dict of its heuristics module), else
    the general default. Bad values raise ConfigError.
    """

    name = "pimc"
    searches = True

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, width: int | None = None,
                 circles: int | None = None, score_weight: float | None = None,
                 belief: bool | None = None, events: bool | None = None,
                 trust: float | None = None, learned: bool | None = None,
                 anchor: float | None = None, share: dict | None = None,
                 compiled: bool | None = None):
        super().__init__(seed)
        iterations = search_budget(iterations, seconds, DEFAULT_ITERATIONS)
        if width is not None and not whole(width, 1):
            raise ConfigError(f"width must be a positive integer, not {width!r}")
        if circles is not None and not whole(circles, 1):
            raise ConfigError(f"circles must be a positive integer, not {circles!r}")
        if score_weight is not None and not number(score_weight, 0, 1):
            raise ConfigError(f"score_weight must be in [0, 1], not {score_weight!r}")
        if anchor is not None and not number(anchor, 0):
            raise ConfigError(f"anchor must be a number >= 0, not {anchor!r}")
        if share is not None and not (isinstance(share, dict) and all(
                isinstance(g, str) and number(x, 0, 1, open_low=True)
                for g, x in share.items())):
            raise ConfigError(f"share must map game names to numbers in (0, 1], not {share!r}")
        if trust is not None and not number(trust, 0, 1, open_low=True):
            raise ConfigError(f"trust must be a number in (0, 1], not {trust!r}")
        for k, v in (("belief", belief), ("events", events), ("learned", learned),
                     ("compiled", compiled)):
            if v is not None and not isinstance(v, bool):
                raise ConfigError(f"{k} must be true or false, not {v!r}")
        self.iterations = iterations
        self.share = dict(share or {})     # game -> share of `iterations` spent in that game
        self.seconds = seconds
        self.given = {"width": width, "circles": circles, "score_weight": score_weight,
                      "belief": belief, "events": events, "trust": trust, "learned": learned,
                      "anchor": anchor, "compiled": compiled}
        self.last_stats: dict[str, dict] = {}
        self.last_samples: dict[str, dict[int, tuple[float, float]]] = {}
        self.last_iterations = 0
        self.last_seconds = 0.0

    def settings(self, game: str) -> dict:
        """The settings used for `game`: given, else the game's PIMC default, else general."""
        defaults = hook(game, "PIMC") or {}
        return {k: v if v is not None else defaults.get(k, _SETTINGS[k])
                for k, v in self.given.items()}

    def budget(self, game: str) -> int | None:
        """The rollouts of one search in `game`: `iterations` times the game's `share` (a
        game whose rollouts run long may declare one per level: GameInfo.search_share)."""
        if self.iterations is None:
            return None
        return max(1, round(self.iterations * self.share.get(game, 1.0)))

    # -- the bot protocol ---------------------------------------------------------------------
    def choose(self, state: GameState) -> Decision:
        legal = state.legal_decisions()
        if not legal:
            raise ValueError("no legal decision: the game is over")
        prior = Rng(self.rng.below(2 ** _SEED_BITS))
        if len(legal) == 1:
            return self._forced(legal, legal[0])
        cands = hook(state.game, "ranked")(state, prior)[: self.settings(state.game)["width"]]
        if len(cands) == 1:
            return self._forced(legal, cands[0])
        self.search(state, cands)
        return self.best

    def _forced(self, legal: list[Decision], d: Decision) -> Decision:
        """`d` without a search (the only legal decision or the only sensible one)."""
        self.last_stats = {m.text: {"visits": 0, "win_chance": None, "reward": None}
                           for m in legal}
        self.last_iterations, self.last_seconds = 0, 0.0
        self.best = d
        return d

    # -- the search ---------------------------------------------------------------------------
    def search(self, state: GameState, cands: list[Decision], min_iterations: int = 0,
               rounds: int | None = None, paired: bool = False) -> dict[str, dict]:
        """Compare `cands` (decisions of `state.to_move`, best first by the prior) and return
        (and keep in `last_stats`) the statistics of every legal decision; the winner is
        `self.best`. At least `min_iterations` rollouts are run whatever the budget. With
        `paired`, `last_samples` keeps each candidate's rollouts as {sample: (win, reward)}
        (the review's paired comparisons: candidates scored on the same sample saw the same
        cards and the same luck)."""
        seat = state.to_move
        if seat is None or state.over:
            raise ValueError("the game is over: nobody is to move")
        game = state.game
        cfg = self.settings(game)
        policy = hook(game, "heuristic")
        evaluate = (value_fn(game) if cfg["learned"] else None) or hook(game, "evaluate")
        turn_key = hook(game, "turn_key")
        horizon = hook(game, "horizon")
        belief = hook(game, "determinize") if cfg["belief"] else None
        if belief is not None and cfg["events"]:
            belief = functools.partial(belief, events=True) if cfg["trust"] >= 1 else \
                functools.partial(belief, events=True, trust=float(cfg["trust"]))
        stop_turns = None if cfg["circles"] is None else cfg["circles"] * state.players
        # the game's compiled rollout: told the turn cap and handed the learned evaluation's
        # networks (if stopped rollouts take it), it plays exactly this rollout or answers None
        fast = hook(game, "playout") if cfg["compiled"] else None
        nets = functools.partial(load, game) if evaluate is not hook(game, "evaluate") else None
        sw = cfg["score_weight"]
        seeds = Rng(self.rng.below(2 ** _SEED_BITS))
        k = len(cands)
        reward = [0.0] * k
        win = [0.0] * k
        visits = [0] * k
        z = cfg["anchor"]
        # sample -> score per candidate, kept only for the anchor's paired comparison
        samples: list[dict[int, float]] | None = [{} for _ in range(k)] if z > 0 else None
        kept: list[dict[int, tuple[float, float]]] = [{} for _ in range(k)]
        alive = list(range(k))
        if rounds is None:
            rounds = max(1, math.ceil(math.log2(k)))
        sample = 0
        budget = self.budget(game)
        deadline = None if self.seconds is None else perf_counter() + self.seconds
        t0 = perf_counter()
        spent = 0
        last = alive
        for r in range(rounds):
            if budget is None:                       # seconds only: sized after round 1
                per = 2 if r == 0 else max(1, int(
                    (deadline - perf_counter()) / max(1e-6, (perf_counter() - t0) / spent)
                    / (rounds - r) / len(alive)))
            else:
                left = max(budget, min_iterations) - spent
                per = max(1, left // (rounds - r) // len(alive) if r < rounds - 1 else
                          -(-left // len(alive)))            # the last round spends the rest
            last = alive
            for _ in range(per):
                s = seeds.below(2 ** _SEED_BITS)
                sample += 1
                base = belief(state, seat, s) if belief is not None else \
                    state.determinize(seat, s)
                h0 = horizon(base) if horizon is not None else None
                for i in alive:
                    d = base.copy()
                    d.apply(cands[i])
                    got = fast(d, seat, s, h0, sw, stop_turns, nets) \
                        if fast is not None else None
                    if got is not None:
                        w, v = got
                    else:
                        w, v = _roll(d, seat, s, policy, evaluate, turn_key, horizon, h0,
                                     stop_turns, sw)
                    reward[i] += v
                    win[i] += w
                    if samples is not None:
                        samples[i][sample] = v
                    if paired:
                        kept[i][sample] = (w, v)
                    visits[i] += 1
                    spent += 1
                if deadline is not None and spent >= min_iterations and \
                        perf_counter() >= deadline:
                    break
            if deadline is not None and spent >= min_iterations and perf_counter() >= deadline:
                break
            if r < rounds - 1 and len(alive) > 1:
                ranked = sorted(alive, key=lambda i: (-reward[i] / visits[i], i))
                alive = sorted(ranked[: (len(alive) + 1) // 2])
        best = min(last, key=lambda i: (-reward[i] / visits[i] if visits[i] else 1.0, i))
        if samples is not None and best != 0 and not _better(samples[best], samples[0], z):
            best = 0
        self.best = cands[best]
        self.last_iterations = spent
        self.last_seconds = perf_counter() - t0
        stats: dict[str, dict] = {}
        index = {c.text: i for i, c in enumerate(cands)}
        for m in state.legal_decisions():
            i = index.get(m.text)
            if i is None or not visits[i]:
                stats[m.text] = {"visits": 0, "win_chance": None, "reward": None}
            else:
                stats[m.text] = {"visits": visits[i], "win_chance": win[i] / visits[i],
                                 "reward": reward[i] / visits[i]}
        self.last_stats = stats
        self.last_samples = {c.text: kept[i] for i, c in enumerate(cands)} if paired else {}
        return stats
