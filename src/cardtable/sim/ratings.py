"""OpenSkill (Plackett-Luce) ratings of bots, kept in a JSON file across tournaments.

Ratings are kept per ladder — a game and its variant ("abluxxen/basic", "abluxxen/duel",
"kombio") — and per bot key (its name and settings: "greedy", "ismcts(iterations=200)").
Every game of a tournament is one multiplayer match, in game-index order (so the file is the
same whatever ran the games): each seat is one team, ranked winners first (rank 1, shared),
then the others by score (Kombio: lower is better), equal scores sharing a rank. When one bot
sits in several seats of a game (greedy against greedy), each seat is rated from the bot's
rating before the game and the bot's new mu and sigma are the means over its seats.

Every bot has one name in the file (`cardtable.bots.base.bot_key`): a level's name where the
bot and its settings are a level's ("heuristic" is "medium"), else the bot with its settings.
A file written before that, with such a bot under another name, is read under the one name; if
both names were there, the entry with more games is kept.

The file (default: `ratings.json` in the platform's user data folder, from platformdirs:
~/.local/share/cardtable on Linux, ~/Library/Application Support/cardtable on macOS,
%LOCALAPPDATA%\\cardtable on Windows; `CARDTABLE_DATA` overrides the folder):

    {"format": "cardtable-ratings", "version": 1, "model": "PlackettLuce",
     "ladders": {"abluxxen/basic": {"greedy": {"mu": 27.1, "sigma": 1.2, "games": 812}}}}

The ladder is sorted by the ordinal mu - 3 sigma (a conservative skill estimate).
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path
from typing import Any, Iterable

from cardtable.core.errors import ConfigError

FORMAT = "cardtable-ratings"
VERSION = 1


#: where versions before 2026-11-26 kept the ratings
LEGACY_PATH = Path(os.path.expanduser("~")) / ".cardtable" / "ratings.json"


def default_path() -> Path:
    """Where ratings go unless told (`--ratings FILE`): the user data folder."""
    folder = os.environ.get("CARDTABLE_DATA")
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_path("cardtable", appauthor=False)
    return Path(folder) / "ratings.json"


def canonical(key: str) -> str:
    """The one name of a bot key as written by any version ("heuristic" -> "medium",
    "pimc(iterations=80,width=4)" -> "hard"); a key it cannot read stays as it is."""
    from cardtable.bots.base import bot_key

    m = re.fullmatch(r"([a-z]+)(?:\((.*)\))?", key)
    if not m:
        return key
    params: dict[str, Any] = {}
    if m.group(2):
        for part in re.split(r",(?=[a-z_]+=)", m.group(2)):
            name, eq, value = part.partition("=")
            if not eq:
                return key
            try:
                params[name] = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                return key
    try:
        return bot_key(m.group(1), params)
    except ConfigError:
        return key


def _one_name_per_bot(ladder: dict[str, dict]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for key, entry in ladder.items():
        name = canonical(key)
        if name not in out or entry["games"] > out[name]["games"]:
            out[name] = entry
    return out


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
    """The ratings in `path` (empty ratings if the file does not exist). The default file
    not yet written falls back to the one of older versions (~/.cardtable/ratings.json): the
    next save writes it to the new place."""
    p = Path(path)
    if not p.exists() and p == default_path() and LEGACY_PATH.exists():
        p = LEGACY_PATH
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
    data["ladders"] = {name: _one_name_per_bot(players)
                       for name, players in data["ladders"].items()}
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
