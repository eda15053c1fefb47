"""OpenSkill (Plackett-Luce) ratings of bots, kept in a JSON file across tournaments.

Ratings are kept per ladder — a game and its variant ("abluxxen/basic", "abluxxen/duel",
"kombio") — and per bot key (its name and settings: "greedy", "ismcts(iterations=200)").
Every game of a tournament is one multiplayer match, in game-index order (so the file is the
same whatever ran the games): each seat is one team, ranked winners first (rank 1, shared),
then the others by score (Kombio: lower is better), equal scores sharing a rank. When one bot
sits in several seats of a game (greedy against greedy), each seat is rated from the bot's
rating before the game and the bot's new mu and sigma are the means over its seats.

The file (default ~/.cardtable/ratings.json):

    {"format": "cardtable-ratings", "version": 1, "model": "PlackettLuce",
     "ladders": {"abluxxen/basic": {"greedy": {"mu": 27.1, "sigma": 1.2, "games": 812}}}}

The ladder is sorted by the ordinal mu - 3 sigma (a conservative skill estimate).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from cardtable.core.errors import ConfigError

FORMAT = "cardtable-ratings"
VERSION = 1


def default_path() -> Path:
    return Path(os.path.expanduser("~")) / ".cardtable" / "ratings.json"


def _model():
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConfigError("ratings need the openskill package: pip install openskill") \
            from None
    return PlackettLuce()


def empty() -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "model": "PlackettLuce", "ladders": {}}


def load(path: str | Path) -> dict[str, Any]:
    """The ratings in `path` (empty ratings if the file does not exist)."""
    p = Path(path)
    if not p.exists():
        return empty()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read the ratings file {str(p)!r}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("ladders"), dict):
        raise ConfigError(f"{str(p)!r} is not a cardtable ratings file")
    for ladder, players in data["ladders"].items():
        if not isinstance(players, dict) or not all(
                isinstance(v, dict) and {"mu", "sigma", "games"} <= set(v)
                for v in players.values()):
            raise ConfigError(f"{str(p)!r}: ladder {ladder!r} is malformed")
    return data


def save(data: dict[str, Any], path: str | Path) -> None:
    """Write atomically (a temporary file renamed over the old one)."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, p)
    except OSError as e:
        raise ConfigError(f"cannot write the ratings file {str(p)!r}: {e.strerror}") from None


def ranks(scores: list[int], winners: Iterable[int], lower_is_better: bool) -> list[int]:
    """Rank per seat (1 = best): winners share rank 1, the others follow by score."""
    win = set(winners)
    sign = 1 if lower_is_better else -1
    others = sorted({sign * s for i, s in enumerate(scores) if i not in win})
    out = []
    for i, s in enumerate(scores):
        out.append(1 if i in win else 2 + others.index(sign * s))
    return out


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def update(data: dict[str, Any], ladder: str,
           games: Iterable[tuple[list[str], list[int], list[int]]],
           lower_is_better: bool) -> dict[str, Any]:
    """Rate `games` — (bot key per seat, scores, winners) in order — into `ladder` of `data`
    (changed in place and returned)."""
    model = _model()
    table = data["ladders"].setdefault(ladder, {})
    for keys, scores, winners in games:
        teams = []
        for k in keys:
            cur = table.get(k)
            if cur is None:
                teams.append([model.rating(name=k)])
            else:
                teams.append([model.rating(mu=cur["mu"], sigma=cur["sigma"], name=k)])
        rated = model.rate(teams, ranks=ranks(scores, winners, lower_is_better))
        new: dict[str, list] = {}
        for k, team in zip(keys, rated):
            new.setdefault(k, []).append(team[0])
        for k, rs in new.items():
            old = table.get(k, {"games": 0})
            table[k] = {"mu": sum(r.mu for r in rs) / len(rs),
                        "sigma": sum(r.sigma for r in rs) / len(rs),
                        "games": old["games"] + 1}
    return data


def update_from_result(data: dict[str, Any], result) -> dict[str, Any]:
    """Rate every game of a TournamentResult, in game-index order."""
    plan = result.plan
    games = (([plan.entries[e].key for e in g.entries], g.scores, g.winners)
             for g in result.games)
    return update(data, plan.ladder, games, plan.lower_is_better)


def ladder_rows(data: dict[str, Any], ladder: str) -> list[dict[str, Any]]:
    """The bots of one ladder, best ordinal first."""
    rows = [{"bot": k, "ordinal": ordinal(v["mu"], v["sigma"]), "mu": v["mu"],
             "sigma": v["sigma"], "games": v["games"]}
            for k, v in data["ladders"].get(ladder, {}).items()]
    rows.sort(key=lambda r: (-r["ordinal"], r["bot"]))
    return rows
