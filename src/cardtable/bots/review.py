"""The review of a finished game (docs/review.md): for each reviewed seat, every decision that
seat took is judged from that seat's view only, with the policy-rollout search of the hard
and expert levels (`bots/pimc.py`).

    from cardtable.bots.review import review
    out = review(record)                      # every human seat (the record's `seats`)
    out = review(record, seats=[1], rollouts=120, seed=3, progress=print)

For each decision of a reviewed seat with more than one legal option:

1. The state before the decision is determinized for the seat (`state.determinize(seat, s)`,
   as `bots.act` and `hint` do): what the seat did not see is drawn again, so nothing the
   seat did not know can reach the estimates. The seed `s` depends on `seed` and the
   decision's position only.
2. **Options.** The game's `ranked` hook lists the sensible options (best first by the
   game's heuristic). A decision with a single sensible option that the seat took (a Kombio
   snap window in which the seat knows no matching card: `pass`) is not reviewed, like a
   decision with one legal option. Otherwise the candidates are the first `width` sensible
   options and, always, the option the seat chose; the other legal options are listed
   without an estimate (`rollouts` 0).
3. **Selection.** Half the budget is spread evenly over the candidates, every candidate
   played out on the same determinizations with the same luck (common random numbers, the
   search's `search(rounds=1)`). The best is the one with the highest mean win chance (ties:
   mean search score, then the heuristic's order).
4. **Loss.** If the best is not the chosen option, the other half of the budget plays both
   out again on fresh samples, paired: the loss is the mean of (best - chosen) over those
   samples, with a 95% interval mean +- 1.96 * sd / sqrt(n). Fresh samples make the loss
   free of the selection's optimism (the best of several noisy means is too high).
   A decision is *marked* when the loss is at least `MARK` (5 points of win chance) and the
   interval lies above 0.

Accuracy of a seat: the mean over its reviewed decisions of
    100 * clamp(1.031668 * exp(-0.04354 * L) - 0.031669, 0, 1)
where L is the decision's loss in points of win chance (0..100, a negative loss counts as
0): the mapping of lichess.org's move accuracy, so 0 loss is 100, 5 points 80, 10 points 64,
20 points 40.

Deterministic: the same record, seats, budget and seed give the same review.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

from cardtable.bots.hooks import hook
from cardtable.bots.pimc import PIMCBot
from cardtable.core.errors import CardtableError
from cardtable.core.game import GameState
from cardtable.core.record import load_record, read_record, record_seats
from cardtable.core.registry import info
from cardtable.core.rng import Rng

#: rollouts per reviewed decision when none are given, times the game's review share
#: (GameInfo.search_share "review": Kombio judges with 2.5 times as many, 1000, whose
#: accuracies tell its levels apart): all four seats of a 4-player Abluxxen game in under a
#: minute, of Kombio in under three, on one core (`make bench-review` measures it)
DEFAULT_ROLLOUTS = 400
#: the sensible options searched at most (the chosen one always comes in addition)
WIDTH = 8
#: the least loss (win chance, 0..1) that is marked, when its interval lies above 0 as well
MARK = 0.05
#: z of the 95% interval
Z95 = 1.959964
_SEED_BITS = 62


class ReviewError(CardtableError):
    """No review possible: the game is not over, or a seat that is not in the game."""

    def __init__(self, message: str, code: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})


def accuracy_of(loss: float) -> float:
    """The 0..100 accuracy of one decision whose loss of win chance is `loss` (0..1)."""
    if loss <= 0:
        return 100.0
    pts = 100.0 * loss
    return 100.0 * min(1.0, max(0.0, 1.031668 * math.exp(-0.04354 * pts) - 0.031669))


def interval(diffs: list[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the 95% interval of the mean of `diffs` (normal approximation);
    a single sample gives an unbounded interval (low -inf, high inf)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def budget_for(game: str) -> int:
    """The default rollouts per decision in `game` (DEFAULT_ROLLOUTS times its review share)."""
    return max(2, round(DEFAULT_ROLLOUTS * dict(info(game).search_share).get("review", 1.0)))


def human_seats(rec: dict, players: int) -> list[int]:
    """The seats a person played: those of the record's `seats` without a "bot"; every seat
    when the record does not say who played or names no person (a game of bots)."""
    seats = record_seats(rec, players)
    people = [i for i, x in enumerate(seats or []) if not x.get("bot")]
    return people or list(range(players))


def _sub_seed(seed: int, index: int) -> int:
    """The seed of the decision after `index` actions: a function of the review's seed and the
    position only (never of hidden cards)."""
    return Rng(seed * 1_000_003 + index).below(2 ** _SEED_BITS)


def judge(state: GameState, chosen: str, rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0,
          width: int = WIDTH) -> dict | None:
    """The review of one decision: `state.to_move` chose `chosen` at `state`. None when there
    is nothing to judge (one legal option, or one sensible option and the seat took it)."""
    seat = state.to_move
    legal = state.legal_decisions()
    if len(legal) < 2:
        return None
    texts = [d.text for d in legal]
    if chosen not in texts:
        raise ValueError(f"{chosen!r} is not legal here")
    obs = state.determinize(seat, seed=seed)
    rng = Rng(seed)
    ranked = hook(state.game, "ranked")(obs, Rng(rng.below(2 ** _SEED_BITS)))
    if len(ranked) == 1 and ranked[0].text == chosen:
        return None
    cands = list(ranked[:width])
    if chosen not in [c.text for c in cands]:
        cands.append(next(d for d in obs.legal_decisions() if d.text == chosen))
    first = max(len(cands), rollouts // 2)
    bot = PIMCBot(rng.below(2 ** _SEED_BITS), iterations=first, width=len(cands))
    stats = bot.search(obs, cands, rounds=1)
    order = {c.text: i for i, c in enumerate(cands)}
    pool = {t: {"rollouts": s["visits"], "win": (s["win_chance"] or 0.0) * s["visits"],
                "reward": (s["reward"] or 0.0) * s["visits"]}
            for t, s in stats.items() if s["visits"]}

    def rank(t: str):
        p = pool[t]
        return (-p["win"] / p["rollouts"], -p["reward"] / p["rollouts"], order[t])

    best = min(pool, key=rank)
    loss, low, high, pairs = 0.0, 0.0, 0.0, 0
    if best != chosen:
        pair = [cands[order[best]], cands[order[chosen]]]
        second = max(2, rollouts - first)
        bot2 = PIMCBot(rng.below(2 ** _SEED_BITS), iterations=second, width=2)
        bot2.search(obs, pair, rounds=1, paired=True)
        a, b = bot2.last_samples[best], bot2.last_samples[chosen]
        diffs = [a[j][0] - b[j][0] for j in a.keys() & b.keys()]
        pairs = len(diffs)
        loss, low, high = interval(diffs)
        for t in (best, chosen):
            for w, v in bot2.last_samples[t].values():
                pool[t]["rollouts"] += 1
                pool[t]["win"] += w
                pool[t]["reward"] += v
    options = []
    for t in texts:
        p = pool.get(t)
        options.append({"decision": t, "rollouts": p["rollouts"] if p else 0,
                        "win_chance": round(p["win"] / p["rollouts"], 4) if p else None,
                        "score": round(p["reward"] / p["rollouts"], 4) if p else None})
    options.sort(key=lambda o: (o["win_chance"] is None, -(o["win_chance"] or 0),
                                -(o["score"] or 0), -o["rollouts"], o["decision"]))

    def finite(x: float) -> float | None:
        return round(x, 4) if math.isfinite(x) else None

    return {"seat": seat, "awaiting": state.awaiting, "chosen": chosen, "best": best,
            "loss": round(loss, 4), "interval": [finite(low), finite(high)], "pairs": pairs,
            "marked": loss >= MARK and low > 0, "accuracy": round(accuracy_of(loss), 1),
            "options": options}


class Plan:
    """A review cut into its decisions (`plan`): `jobs()` yields, for every decision to look
    at, its action index and the arguments of `judge` (a copy of the state before it), and
    `result(found)` makes the review out of {index: judge's answer}. `review` runs the jobs one
    after the other; the server (server/tables/coach.py) runs each in its bot pool."""

    def __init__(self, rec: dict, final: GameState, wanted: list[int], rollouts: int,
                 seed: int):
        self.rec, self.final, self.wanted = rec, final, wanted
        self.rollouts, self.seed = rollouts, seed
        self.history = list(final.history)
        self.total = 0
        probe = load_record(rec, upto=0)
        for action in self.history:         # count the decisions to look at (the progress)
            if probe.to_move in wanted and len(probe.legal_decisions()) > 1:
                self.total += 1
            probe.apply(action)

    def jobs(self):
        """(index, (state, chosen, rollouts, seed)) for every decision to judge, in order."""
        state = load_record(self.rec, upto=0)
        for i, action in enumerate(self.history):
            if state.to_move in self.wanted and len(state.legal_decisions()) > 1:
                yield i, (state.copy(), action, self.rollouts, _sub_seed(self.seed, i))
            state.apply(action)

    def result(self, found: dict[int, dict | None]) -> dict:
        """The review (docs/review.md) from each job's answer (None: nothing to judge)."""
        final, n = self.final, self.final.players
        names = record_seats(self.rec, n)
        per = {s: [] for s in self.wanted}
        for i in sorted(found):
            r = found[i]
            if r is not None:
                r = dict(r, index=i)
                per[r["seat"]].append(r)
        game = info(final.game)
        out_seats = []
        for s in self.wanted:
            rows = per[s]
            acc = (round(sum(accuracy_of(r["loss"]) for r in rows) / len(rows), 1)
                   if rows else None)
            out_seats.append({
                "seat": s, "name": names[s]["name"] if names else None,
                "bot": names[s].get("bot") if names else None,
                "accuracy": acc, "reviewed": len(rows),
                "marked": [r["index"] for r in rows if r["marked"]],
                "mean_loss": round(sum(max(0.0, r["loss"]) for r in rows) / len(rows), 4)
                if rows else None,
                "decisions": rows})
        view = final.view(None)
        return {"game": final.game, "variant": view.get("variant"), "players": n,
                "actions": len(self.history), "lower_is_better": game.lower_is_better,
                "scores": final.scores(), "winners": final.winners(),
                "budget": {"rollouts": self.rollouts, "width": WIDTH}, "seed": self.seed,
                "mark": MARK, "seats": out_seats}


def plan(source, seats: Iterable[int] | None = None, rollouts: int | None = None,
         seed: int = 0) -> Plan:
    """The review of `source` cut into its decisions (`Plan`), every argument checked as
    `review` checks it (the same errors)."""
    rec = read_record(source)
    final = load_record(rec)
    n = final.players
    if not final.over:
        raise ReviewError(f"the game is not over after {len(final.history)} actions: only "
                          "a finished game is reviewed", "review.unfinished",
                          {"n": len(final.history)})
    wanted = human_seats(rec, n) if seats is None else list(seats)
    for s in wanted:
        if not (isinstance(s, int) and 0 <= s < n):
            raise ReviewError(f"there is no seat {s} in this game (seats 0 to {n - 1})",
                              "review.seat", {"seat": s, "max": n - 1})
    wanted = sorted(set(wanted))
    if rollouts is None:
        rollouts = budget_for(final.game)
    if not (isinstance(rollouts, int) and rollouts >= 2):
        raise ValueError(f"the budget is 2 or more rollouts a decision, not {rollouts!r}")
    return Plan(rec, final, wanted, rollouts, seed)


def review(source, seats: Iterable[int] | None = None, rollouts: int | None = None,
           seed: int = 0, progress: Callable[[int, int], None] | None = None) -> dict:
    """The review of the finished game in `source` (a record: dict, JSON text or path) for
    `seats` (default: the human seats, `human_seats`). `progress(done, total)` is called after
    every decision looked at. Returns the JSON-ready dict docs/review.md describes.

    Raises RecordError/ReplayError for a bad record, ReviewError for an unfinished game or a
    seat that is not in it, ValueError for a budget under 2."""
    p = plan(source, seats, rollouts, seed)
    found: dict[int, dict | None] = {}
    for i, args in p.jobs():
        found[i] = judge(*args)
        if progress is not None:
            progress(len(found), p.total)
    return p.result(found)
