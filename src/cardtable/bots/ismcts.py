"""Information-set Monte Carlo tree search (single-observer ISMCTS; Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), on the core protocol
only (`GameState`: to_move, legal_decisions, apply, determinize, over, winners, scores) — no
game internals, so it plays every game of the package.

One search per decision:

- The root is the information set of the seat to move (`seat`). The state the bot is given is
  already a determinization for that seat (`bots.act`); each iteration draws a fresh one,
  `d = state.determinize(seat, seed)`, i.e. another full state consistent with everything
  `seat` has seen. (The search reads nothing of the given state but what `determinize` keeps:
  where `determinize` is a function of the seat's view and the seed, as in Abluxxen, two states
  that look the same from `seat` give the same search and decision for the same bot seed.)
- Selection descends the one tree, restricted to the decisions legal in `d`. Nodes are keyed by
  decision text. Each node keeps its visit count `n`, its availability count (how often it was
  legal when its parent was selected through) and a reward vector (sum per seat). The child
  chosen maximises UCB1 with availability counts (ISMCTS, Algorithm 3 of the paper)
      w[mover] / n + exploration * sqrt(ln(avail) / n)
  where `mover` is the seat that decides at the parent in `d`, so every seat (opponents too)
  is modelled as maximising its own reward.
- Expansion adds one child: a decision legal in `d` not yet tried at that node, at random.
- Rollout: uniform random legal decisions (or the game's rollout policy) until the game ends
  (or the horizon), or — with `rollout_depth` —
  for at most that many decisions, after which the state is evaluated (below). A safety cap
  (`ROLLOUT_CAP` decisions) evaluates any rollout that has not ended by then.
- Reward (backed up along the path, every node adds the whole vector):
    terminal: win share 1/len(winners) for each winner, 0 for the others, blended with a score
      term: (1 - score_weight) * win + score_weight * norm, where `norm` maps the final scores
      linearly onto [0, 1] (1 = the winners' end of the scale; higher scores are better when the
      winners hold the top score — Abluxxen — and lower ones when they hold the lowest —
      Kombio, KO-16). `score_weight` (default 0.1) makes the margin count a little, so a seat
      that cannot win still plays for a good result; 0 gives pure win/loss rewards.
    cut-off: `cardtable.<game>.heuristics.evaluate(state)` (per-seat value in [0, 1]) when the
      game's heuristics provide it, else the neutral share 1/players for every seat.
- The decision is the most-visited root child (ties: higher mean reward, then the game's
  order of legal decisions).

Game hooks (optional, in `cardtable.<game>.heuristics`; a game without them gets the plain
search above; Kombio has them all, see docs/bots.md for why):
    evaluate(state)                 per-seat value in [0, 1] of a cut-off state (above)
    candidates(state)               the decisions worth searching (a subset of the legal ones):
                                    with `prune`, selection and expansion use them; at the root
                                    every legal decision is still tried once (candidates first),
                                    and a single candidate is returned without a search
    rollout(state, random_)         the rollout decision (with `rollout="policy"`), random_()
                                    being the search's float generator
    horizon(state)                  a key (Kombio: the round); with `horizon`, selection and
                                    rollouts stop once it differs from the root's, and the state
                                    is evaluated
    determinize(state, seat, seed)  the determinization (with `belief`): a sampler that may be
                                    biased by a model of the other players, as long as it is a
                                    function of the seat's view and the seed
    ISMCTS                          dict of the game's default settings (`ISMCTSBot` docstring)
`tree_depth` keeps the tree at most that many decisions deep (1: flat Monte Carlo on the root
decisions, which avoids strategy fusion when a later decision of the bot depends on a card it
has not seen yet, as a drawn card in Kombio).

Budget per decision: `iterations` and/or `seconds` (wall clock, `time.perf_counter`), the search
stops at whichever comes first; neither given: `DEFAULT_ITERATIONS`. With an iteration budget the
result never depends on time: same seed and same view -> same decision. A decision with a
single legal option is returned without searching.

After `choose`, `last_stats` maps every root decision text (legal order) to
    {"visits": n, "win_chance": mean win share of the deciding seat, "reward": mean reward}
(`None` for decisions never visited), `last_iterations` and `last_seconds` describe the search.
"""

from __future__ import annotations

import random
from math import log, sqrt
from time import perf_counter
from typing import Callable

from cardtable.bots.base import Bot, number, search_budget, whole
from cardtable.bots.hooks import hook
from cardtable.core.errors import ConfigError
from cardtable.core.game import Decision, GameState

DEFAULT_ITERATIONS = 1000
#: a rollout that has not ended after this many decisions is evaluated instead (random games
#: take ~160 decisions in Abluxxen 4p, up to a few hundred in Kombio; a Kombio round can last
#: for ever when nobody calls)
ROLLOUT_CAP = 2000
_SEED_BITS = 62

_HOOKS = ("evaluate", "candidates", "rollout", "horizon", "determinize", "ISMCTS")
_hooks: dict[str, dict] = {}


def game_hooks(game: str) -> dict:
    """The optional search hooks of `cardtable.<game>.heuristics` (cached): `evaluate`,
    `candidates`, `rollout`, `horizon` and the settings dict `ISMCTS` (missing ones: None)."""
    h = _hooks.get(game)
    if h is None:
        h = _hooks[game] = {k: hook(game, k) for k in _HOOKS}
    return h


def game_evaluator(game: str) -> Callable | None:
    """`cardtable.<game>.heuristics.evaluate` if the game provides it, else None (cached)."""
    return game_hooks(game)["evaluate"]


def outcome(state: GameState, score_weight: float = 0.0) -> tuple[list[float], list[float]]:
    """(win shares, rewards) of a finished game, per seat (see the module docstring)."""
    n = state.players
    winners = state.winners() or []
    win = [0.0] * n
    if winners:
        share = 1.0 / len(winners)
        for s in winners:
            win[s] = share
    if not score_weight or not winners:
        return win, win
    scores = state.scores()
    if not scores:
        return win, win
    lo, hi = min(scores), max(scores)
    top = scores[winners[0]]
    if hi == lo or (top != hi and top != lo):
        return win, win
    span = float(hi - lo)
    if top == hi:
        norm = [(s - lo) / span for s in scores]
    else:
        norm = [(hi - s) / span for s in scores]
    keep = 1.0 - score_weight
    return win, [keep * w + score_weight * v for w, v in zip(win, norm)]


class _Node:
    """A tree node: the decision (by text) that led here from its parent."""

    __slots__ = ("n", "avail", "w", "kids")

    def __init__(self, players: int):
        self.n = 0                   # visits
        self.avail = 1               # times it was available when its parent was selected
        self.w = [0.0] * players     # reward sums per seat
        self.kids: dict[str, _Node] | None = None


_SETTINGS = {"exploration": 0.7, "rollout_depth": None, "score_weight": 0.1,
             "rollout": "random", "prune": False, "horizon": False, "tree_depth": None,
             "belief": False}


class ISMCTSBot(Bot):
    """Single-observer ISMCTS (module docstring). Parameters:

    iterations     iterations per decision (default 1000 if `seconds` is not given either)
    seconds        wall-clock budget per decision (perf_counter); with `iterations` too, the
                   search stops at whichever limit comes first
    exploration    UCB1 constant (rewards are in [0, 1])
    rollout_depth  cut rollouts after this many decisions and evaluate (None: play to the end)
    score_weight   weight of the normalized final-score term in the terminal reward (0..1)
    rollout        "random" (uniform random decisions) or "policy" (the game's `rollout` hook)
    prune          search only the game's `candidates` (hook) instead of every legal decision
    horizon        end selection and rollouts when the game's `horizon` key changes (hook)
    belief         draw determinizations with the game's `determinize` hook
    tree_depth     decisions the tree keeps along a path (None: unlimited; 1: flat Monte Carlo)
    A setting not given takes the game's default (`ISMCTS` dict of its heuristics module), else
    the general default (`_SETTINGS`). Bad values raise ConfigError.
    """

    name = "ismcts"
    searches = True

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, exploration: float | None = None,
                 rollout_depth: int | None = None, score_weight: float | None = None,
                 rollout: str | None = None, prune: bool | None = None,
                 horizon: bool | None = None, tree_depth: int | None = None,
                 belief: bool | None = None):
        super().__init__(seed)
        iterations = search_budget(iterations, seconds, DEFAULT_ITERATIONS)
        self.iterations = None if iterations is None else int(iterations)
        self.seconds = seconds
        given = {"exploration": exploration, "rollout_depth": rollout_depth,
                 "score_weight": score_weight, "rollout": rollout, "prune": prune,
                 "horizon": horizon, "tree_depth": tree_depth, "belief": belief}
        _check(given)
        #: the settings given (None: the game's default, see `settings`)
        self.given = given
        self.last_stats: dict[str, dict] = {}
        self.last_iterations = 0
        self.last_seconds = 0.0

    def settings(self, game: str) -> dict:
        """The settings used for `game`: given, else the game's ISMCTS default, else general."""
        defaults = game_hooks(game)["ISMCTS"] or {}
        out = {}
        for k, v in self.given.items():
            out[k] = v if v is not None else defaults.get(k, _SETTINGS[k])
        return out

    # -- the bot protocol ---------------------------------------------------------------------
    def choose(self, state: GameState) -> Decision:
        legal = state.legal_decisions()
        if not legal:
            raise ValueError("no legal decision: the game is over")
        if len(legal) == 1:
            return self._forced(legal, legal[0])
        hooks = game_hooks(state.game)
        if hooks["candidates"] is not None and self.settings(state.game)["prune"]:
            cands = hooks["candidates"](state)
            if len(cands) == 1:
                return self._forced(legal, cands[0])
        stats = self.search(state)
        return legal[best_index(legal, stats)]

    def _forced(self, legal: list[Decision], d: Decision) -> Decision:
        """`d` without a search (the only legal or only candidate decision)."""
        self.last_stats = {m.text: {"visits": 0, "win_chance": None, "reward": None}
                           for m in legal}
        self.last_iterations, self.last_seconds = 0, 0.0
        return d

    # -- the search ---------------------------------------------------------------------------
    def search(self, state: GameState, min_iterations: int = 0) -> dict[str, dict]:
        """Search the decision of `state.to_move` (also when it is forced) and return (and keep
        in `last_stats`) the root statistics. At least `min_iterations` iterations are run,
        whatever the budget."""
        seat = state.to_move
        if seat is None or state.over:
            raise ValueError("the game is over: nobody is to move")
        legal = state.legal_decisions()
        players = state.players
        game = state.game
        cfg = self.settings(game)
        hooks = game_hooks(game)
        rnd = random.Random(self.rng.below(2 ** _SEED_BITS))
        random_ = rnd.random
        seedbits = rnd.getrandbits
        belief = hooks["determinize"] if cfg["belief"] else None
        if belief is not None:
            def determinize(seat, seed, _b=belief, _s=state):
                return _b(_s, seat, seed)
        else:
            determinize = state.determinize
        C = cfg["exploration"]
        rd = cfg["rollout_depth"]
        depth = ROLLOUT_CAP if rd is None else min(rd, ROLLOUT_CAP)
        score_weight = cfg["score_weight"]
        evaluate = game_evaluator(game)
        policy = hooks["rollout"] if cfg["rollout"] == "policy" else None
        cands = hooks["candidates"] if cfg["prune"] else None
        horizon = hooks["horizon"] if cfg["horizon"] else None
        if cfg["rollout"] == "policy" and policy is None:
            raise ConfigError(f"{game} has no rollout policy (heuristics.rollout)")
        h0 = horizon(state) if horizon is not None else None
        root_moves = legal if cands is None else cands(state)
        td = cfg["tree_depth"]
        tree_depth = 1 << 30 if td is None else td
        neutral = [1.0 / players] * players
        seat_range = range(players)

        root = _Node(players)
        root.kids = {}
        root_kids = root.kids
        root_wins: dict[str, float] = {}

        limit = self.iterations
        deadline = None if self.seconds is None else perf_counter() + self.seconds
        if limit is not None:
            limit = max(limit, min_iterations)
        t0 = perf_counter()
        it = 0
        while True:
            if it >= min_iterations:
                if limit is not None and it >= limit:
                    break
                if deadline is not None and perf_counter() >= deadline:
                    break
            it += 1
            d = determinize(seat, seed=seedbits(_SEED_BITS))
            node = root
            path = [root]
            first = None                     # the root decision taken in this iteration
            stop = False                     # past the horizon
            # -- selection and expansion
            while not d.over:
                if len(path) > tree_depth:
                    break
                if horizon is not None and horizon(d) != h0:
                    stop = True
                    break
                kids = node.kids
                if node is root:
                    # every legal decision is tried once (candidates first), then only the
                    # candidates are searched
                    moves = root_moves
                    untried = ([m for m in moves if m.text not in kids]
                               or [m for m in legal if m.text not in kids])
                else:
                    moves = d.legal_decisions() if cands is None else cands(d)
                    if kids is None:
                        kids = node.kids = {}
                        untried = moves
                    else:
                        untried = [m for m in moves if m.text not in kids]
                if untried:
                    m = untried[int(random_() * len(untried))]
                    if node is root:
                        first = m.text
                    d.apply(m)
                    child = _Node(players)
                    kids[m.text] = child
                    path.append(child)
                    break
                if len(moves) == 1:
                    m = moves[0]
                    best = kids[m.text]
                    best.avail += 1
                else:
                    mover = d.to_move
                    best = None
                    best_v = -1.0
                    m = None
                    for mv in moves:
                        c = kids[mv.text]
                        a = c.avail + 1
                        c.avail = a
                        cn = c.n
                        v = c.w[mover] / cn + C * sqrt(log(a) / cn)
                        if v > best_v:
                            best_v, best, m = v, c, mv
                if node is root:
                    first = m.text
                d.apply(m)
                node = best
                path.append(node)
            # -- rollout
            if not stop:
                legal_of = d.legal_decisions
                apply = d.apply
                if policy is None and horizon is None:
                    for _ in range(depth):
                        moves = legal_of()             # empty once the game is over
                        if not moves:
                            break
                        apply(moves[int(random_() * len(moves))])
                else:
                    for _ in range(depth):
                        if d.over or (horizon is not None and horizon(d) != h0):
                            break
                        if policy is None:
                            moves = legal_of()
                            apply(moves[int(random_() * len(moves))])
                        else:
                            apply(policy(d, random_))
            if d.over:
                win, reward = outcome(d, score_weight)
            else:
                win = reward = ([min(1.0, max(0.0, v)) for v in evaluate(d)]
                                if evaluate is not None else neutral)
            # -- backpropagation
            for nd in path:
                nd.n += 1
                w = nd.w
                for i in seat_range:
                    w[i] += reward[i]
            if first is not None:
                root_wins[first] = root_wins.get(first, 0.0) + win[seat]
        self.last_iterations = it
        self.last_seconds = perf_counter() - t0
        stats: dict[str, dict] = {}
        for m in legal:
            c = root_kids.get(m.text)
            if c is None or not c.n:
                stats[m.text] = {"visits": 0, "win_chance": None, "reward": None}
            else:
                stats[m.text] = {"visits": c.n, "win_chance": root_wins.get(m.text, 0.0) / c.n,
                                 "reward": c.w[seat] / c.n}
        self.last_stats = stats
        return stats


def _check(given: dict) -> None:
    """ConfigError for a bad setting (None: not given)."""
    rd = given["rollout_depth"]
    if rd is not None and not whole(rd, 0):
        raise ConfigError(f"rollout_depth must be an integer >= 0, not {rd!r}")
    sw = given["score_weight"]
    if sw is not None and not number(sw, 0, 1):
        raise ConfigError(f"score_weight must be in [0, 1], not {sw!r}")
    ex = given["exploration"]
    if ex is not None and not number(ex, 0):
        raise ConfigError(f"exploration must be a number >= 0, not {ex!r}")
    ro = given["rollout"]
    if ro is not None and ro not in ("random", "policy"):
        raise ConfigError(f"rollout must be 'random' or 'policy', not {ro!r}")
    td = given["tree_depth"]
    if td is not None and not whole(td, 1):
        raise ConfigError(f"tree_depth must be an integer >= 1, not {td!r}")
    for k in ("prune", "horizon", "belief"):
        if given[k] is not None and not isinstance(given[k], bool):
            raise ConfigError(f"{k} must be true or false, not {given[k]!r}")


def best_index(legal: list[Decision], stats: dict[str, dict]) -> int:
    """Index in `legal` of the most-visited decision (ties: higher mean reward, then first)."""
    best, key = 0, None
    for i, m in enumerate(legal):
        s = stats.get(m.text)
        if s is None:
            continue
        k = (s["visits"], s["reward"] if s["reward"] is not None else -1.0)
        if key is None or k > key:
            best, key = i, k
    return best
