"""The trained policies the bots `ppo` and `learned` play: where their files are and which game
and player count a file plays, read from the file's `meta` alone, so the lobby can list a game's
trained bots without importing the research API (`cardtable.rl`, where the player itself lives:
rl/policy.py). A game keeps its policy files in its own package (`GameInfo.policies`, a file
`<bot>-*.npz` a bot) and names these checks in its declaration (`GameInfo.bot_checks`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

from cardtable.core import registry


def policy_file(bot: str, game: str | None = None) -> Path | None:
    """The shipped policy file of the bot `bot` ("ppo", "learned"): the one `<bot>-*.npz` in
    the `policies` package of `game` (None: of the first registered game that has one); None
    if there is none."""
    for info in registry.games():
        if info.policies is None or game not in (None, info.name):
            continue
        folder = resources.files(info.policies)
        found = sorted(p.name for p in folder.iterdir() if p.name.startswith(f"{bot}-")
                       and p.name.endswith(".npz"))
        if found:
            return Path(str(folder.joinpath(found[0])))
    return None


@cache
def meta(path: str) -> dict | None:
    """The `meta` of a policy file (JSON: game, variant, players, ...), None if the file is
    missing or unreadable (or numpy is not installed)."""
    try:
        import numpy as np

        with np.load(path, allow_pickle=False) as data:
            return json.loads(str(data["meta"]))
    except (ImportError, OSError, ValueError, KeyError):
        return None


def file_plays(path: str | Path | None, game: str, players: int | None = None) -> bool:
    """Does the policy file at `path` play `game` (at `players` seats)? (No file: no.)"""
    m = None if path is None else meta(str(Path(path).resolve()))
    return m is not None and m.get("game") == game and players in (None, m.get("players"))


def ppo_plays(game: str, players: int | None = None) -> bool:
    """The bot `ppo`'s check (the game's policy file of it)."""
    return file_plays(policy_file("ppo", game), game, players)


def learned_plays(game: str, players: int | None = None) -> bool:
    """The bot `learned`'s check (the game's policy file of it)."""
    return file_plays(policy_file("learned", game), game, players)
