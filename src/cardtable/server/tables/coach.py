"""The coach at bot tables and the review of finished games, on the server
(http/coach.py has the HTTP routes, docs/protocol.md "Coach and review" the contract).

- **Coach.** For the seat to move at a table where nobody else is a person (and that is not
  rated: `coach_allowed`), the expert level's estimate of every option (`bots.hint.hint`, from
  the seat's view only: the state is determinized for the seat first), with its rollouts.
- **Review.** For a human seat of a finished game, `bots.review` cut into its decisions
  (`review.plan`): each decision is one job, so progress is known while it runs and the pool
  serves the tables where people play first between any two of them.

Both compute in the server's bot pool (botpool.py, `BotPool.run`): never on the event loop,
at the workers' lowest CPU priority, ranked like a table's decisions (a coach request like a
table where a person plays, a review's decision like a table only watched: after every table
where a person plays), one waiting request per table or review. Without a pool
(`--bot-workers 0`) they run in threads, at most `THREADS` at once.

Limits (docs/deploy.md "Coach and review"): the coach computes one answer per table at a
time (the same decision asked again joins it; an answer is cached until the game moves on);
at most `REVIEWS_RUNNING` reviews run at once in this process and at most
`REVIEWS_PER_ADDRESS` for one address (an IPv6 client: its /64); a finished review is kept
in memory (`REVIEW_CACHE` of them, the least recently asked go first); a review nobody has
asked about for `REVIEW_ABANDON` seconds is dropped unfinished.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict

from cardtable.bots.base import make_bot
from cardtable.bots.hint import HINT_LEVEL, hint
from cardtable.bots.review import budget_for, judge, plan
from cardtable.core.record import load_record
from cardtable.i18n import LANGS
from cardtable.narration import option_words, plain_names
from cardtable.server.tables.botpool import Withdrawn

log = logging.getLogger("cardtable.server.coach")

#: reviews computed at once in a process, and per address (IPv6: per /64)
REVIEWS_RUNNING = 2
REVIEWS_PER_ADDRESS = 1
#: finished reviews kept in memory; a running review nobody polled for this long is dropped
REVIEW_CACHE = 256
REVIEW_ABANDON = 120.0
#: coach answers kept (one per table and decision)
COACH_CACHE = 1024
#: without a bot pool: jobs in threads at once
THREADS = 1
#: the pool's ranks (driver.py: 0 a table where a person plays, 1 a table only watched)
RANK_COACH = 0
RANK_REVIEW = 1


class CoachRefused(Exception):
    """A refused coach or review request: HTTP `status`, error code `error` (catalog key
    err.api.<error>) and its params."""

    def __init__(self, status: int, detail: str, error: str, **params):
        super().__init__(detail)
        self.status, self.detail, self.error, self.params = status, detail, error, params


def coach_allowed(table, seat: int) -> str | None:
    """None if the coach may advise `seat` at `table` (a TableRuntime, or anything with
    `seats` and `settings`), else why not, as an error code:
    `coach_humans`: another seat is a person's (the coach would help one person against
    another); `coach_rated`: a rated table (docs/ratings.md: the table row's `rated`; also a
    `rated` attribute or table setting, whichever a table has)."""
    if getattr(table, "rated", False) or any(
            bool((getattr(table, part, None) or {}).get("rated")) for part in ("row", "settings")):
        return "coach_rated"
    for s in table.seats:
        if s["seat"] != seat and s["kind"] != "bot":
            return "coach_humans"
    return None


def coach_budget() -> int:
    """The coach's default (and largest) rollouts: the expert level's own budget."""
    return make_bot(HINT_LEVEL).iterations


class Coaching:
    """The process's coach answers and reviews (one per app). `pool_of()`: the bot pool (None:
    threads); the budgets when a request names none (Settings.coach_budget, review_budget)."""

    def __init__(self, pool_of, coach_budget: int = 0, review_budget: int = 0):
        self._pool_of = pool_of               # () -> BotPool | None (made in the lifespan)
        self.coach_budget, self.review_budget = coach_budget, review_budget   # 0: the most
        self._threads = asyncio.Semaphore(THREADS)
        self._coach: OrderedDict = OrderedDict()          # (table, n, seat, budget) -> answer
        self._asking: dict = {}                           # table id -> (key, Future)
        self._reviews: OrderedDict = OrderedDict()        # (table, seat, budget) -> Review
        self.stats = {"coach": 0, "coach_cached": 0, "reviews": 0, "reviews_cached": 0}

    async def _run(self, key, fn, args, rank):
        pool = self._pool_of()
        if pool is not None:
            return await pool.run(key, fn, args, rank)
        async with self._threads:
            if callable(rank) and rank() is None:
                raise Withdrawn("nobody wants it any more")
            return await asyncio.to_thread(fn, *args)

    # -- the coach -------------------------------------------------------------------------------
    async def advise(self, rt, seat: int, budget: int | None) -> dict:
        """The options of `seat`'s decision at the table `rt` (held by the caller), each with
        its estimate. Raises CoachRefused."""
        why = coach_allowed(rt, seat)
        if why == "coach_rated":
            raise CoachRefused(403, "the coach is off at rated tables", why)
        if why is not None:
            raise CoachRefused(403, "the coach helps only at tables where nobody else is a "
                                    "person", why)
        most = coach_budget()
        if budget is None:
            budget = min(self.coach_budget, most) if self.coach_budget else most
        if not 2 <= budget <= most:
            raise CoachRefused(422, f"the coach's budget is 2 to {most} rollouts", "coach_budget",
                               most=most)
        state = rt.state
        if rt.status != "playing" or state.over or state.to_move != seat or rt.round_break():
            raise CoachRefused(409, "it is not this seat's decision now", "coach_not_your_turn")
        key = (rt.id, rt.n, seat, budget)
        if key in self._coach:
            self._coach.move_to_end(key)
            self.stats["coach_cached"] += 1
            return self._coach[key]
        asking = self._asking.get(rt.id)
        if asking is not None:
            if asking[0] == key:
                return await asyncio.shield(asking[1])
            raise CoachRefused(429, "the coach is still thinking about another decision of "
                                    "this table", "coach_busy")
        fut = asyncio.get_running_loop().create_future()
        self._asking[rt.id] = (key, fut)
        try:
            # the expert's own budget: None, so that a level's share per game would apply
            # (GameInfo.search_share, docs/bots.md); a smaller one as asked
            options = await self._run(("coach", rt.id), hint,
                                      (state.copy(), seat, None if budget == most else budget,
                                       None, secrets.randbelow(2 ** 62)), RANK_COACH)
            decisions = {d: state.decision_json(d, seat) for d in (o["decision"]
                                                                   for o in options)}
            view = state.view(seat)
            words = {d: {lang: option_words(state.game, view, d, seat, rt.names[lang], lang)
                         for lang in LANGS} for d in decisions}
            out = {"table": rt.code, "seat": seat, "index": key[1],
                   "awaiting": state.awaiting, "level": HINT_LEVEL,
                   "budget": {"rollouts": budget},
                   "options": [{"decision": o["decision"], "move": decisions[o["decision"]],
                                "text": words[o["decision"]],
                                "rollouts": o["visits"], "win_chance": round(o["win_chance"], 4),
                                "level_choice": o["level_choice"]} for o in options]}
            self._coach[key] = out
            while len(self._coach) > COACH_CACHE:
                self._coach.popitem(last=False)
            self.stats["coach"] += 1
            fut.set_result(out)
            return out
        except BaseException as e:
            if not fut.done():
                fut.set_exception(e)
                fut.exception()                 # retrieved: nobody else may be waiting
            raise
        finally:
            self._asking.pop(rt.id, None)

    # -- reviews ---------------------------------------------------------------------------------
    def review(self, table_id: int, record: dict, seat: int, budget: int | None,
               addr: str, names: dict | None = None) -> dict:
        """The review of `seat` of the finished game `record` (table `table_id`): the finished
        review ({"status": "done", "review": ...}), or its progress ({"status": "running",
        "done", "total"}) while it runs (started by the first ask). `names`: the seats' names
        by language, for the decisions in words. Raises CoachRefused."""
        most = budget_for(record["game"])
        if budget is None:
            budget = min(self.review_budget, most) if self.review_budget else most
        if not 2 <= budget <= most:
            raise CoachRefused(422, f"the review's budget is 2 to {most} rollouts a decision",
                               "review_budget", most=most)
        key = (table_id, seat, budget)
        job = self._reviews.get(key)
        if job is not None:
            self._reviews.move_to_end(key)
            job.asked = time.monotonic()
            if job.error is not None:
                raise CoachRefused(500, "the review failed", "review_failed")
            if job.result is not None:
                self.stats["reviews_cached"] += 1
            return job.answer()
        running = [j for j in self._reviews.values() if j.result is None and j.error is None]
        if len(running) >= REVIEWS_RUNNING:
            raise CoachRefused(429, f"the server reviews {REVIEWS_RUNNING} games already: try "
                                    "again in a minute", "review_busy", most=REVIEWS_RUNNING)
        if sum(j.addr == addr for j in running) >= REVIEWS_PER_ADDRESS:
            raise CoachRefused(429, "a review asked from your address is still running: wait "
                                    "for it", "review_limited", most=REVIEWS_PER_ADDRESS)
        job = Review(addr)
        self._reviews[key] = job
        job.task = asyncio.ensure_future(self._review(key, job, record, seat, budget, names))
        while len(self._reviews) > REVIEW_CACHE:
            old = next(iter(self._reviews))
            if old == key:
                break
            self._reviews.pop(old)
        return job.answer()

    async def _review(self, key, job: "Review", record: dict, seat: int, budget: int,
                      names: dict | None = None) -> None:
        def rank():
            return None if time.monotonic() - job.asked > REVIEW_ABANDON else RANK_REVIEW
        try:
            # the game replayed and its decisions counted in a thread (a long game: a while)
            job.plan = await asyncio.to_thread(plan, record, [seat], budget)
            job.total = job.plan.total
            found = {}
            for i, args in job.plan.jobs():
                found[i] = await self._run(("review",) + key, judge, args, rank)
                job.done = len(found)
            job.result = await asyncio.to_thread(review_words, job.plan.result(found), record,
                                                 seat, names)
            self.stats["reviews"] += 1
        except Withdrawn:
            self._reviews.pop(key, None)          # nobody waits for it any more
        except asyncio.CancelledError:
            self._reviews.pop(key, None)
            raise
        except Exception as e:  # noqa: BLE001 -- logged; the asker gets review_failed
            log.exception("review of table %s seat %s failed", key[0], key[1])
            job.error = e

    async def close(self) -> None:
        for job in list(self._reviews.values()):
            if job.task is not None and not job.task.done():
                job.task.cancel()


def review_words(result: dict, record: dict, seat: int, names: dict | None) -> dict:
    """`result` (a review of `seat`) with each decision's choice and the better option in the
    table's words in every language (`chosen_text`, `best_text`: {"en", "de"}), worded from
    the seat's own view before it (narration `option_words`)."""
    decisions = {d["index"]: d for d in result["seats"][0]["decisions"]}
    if not decisions:
        return result
    state = load_record(record, upto=0)
    if names is None:
        names = {lang: plain_names([], state.players, lang) for lang in LANGS}
    for i, action in enumerate(record.get("actions", [])):
        d = decisions.get(i)
        if d is not None:
            view = state.view(seat)
            for part in ("chosen", "best"):
                d[part + "_text"] = {lang: option_words(state.game, view, d[part], seat,
                                                        names[lang], lang) for lang in LANGS}
        if i >= max(decisions):
            break
        state.apply(action)
    return result


class Review:
    """One review being made (or made): its plan, progress and result."""

    def __init__(self, addr: str):
        self.plan, self.addr = None, addr
        self.done, self.total = 0, 0            # total: known once the plan is made
        self.result: dict | None = None
        self.error: BaseException | None = None
        self.asked = time.monotonic()
        self.task: asyncio.Future | None = None

    def answer(self) -> dict:
        if self.result is not None:
            return {"status": "done", "done": self.total, "total": self.total,
                    "review": self.result}
        return {"status": "running", "done": self.done, "total": self.total}
