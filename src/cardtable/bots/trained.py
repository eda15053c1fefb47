"""Which game and player count a trained policy file plays, read from the file's `meta` alone,
so the lobby can list a game's trained bots without importing the research API (`cardtable.rl`,
where the player itself lives: rl/policy.py). A game names these checks in its declaration
(`GameInfo.bot_checks`); the files are the ones rl/policy.py plays by default.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

#: where the shipped policy files are (rl/models; a data folder, not an import)
MODELS = Path(__file__).resolve().parent.parent / "rl" / "models"
#: the policy the bot `ppo` plays: the one ppo-*.npz file in rl/models
DEFAULT_MODEL = next(iter(sorted(MODELS.glob("ppo-*.npz"))), MODELS / "ppo.npz")
#: the policy the bot `learned` plays (imitation of the heuristic bot, rl/imitate.py)
LEARNED_MODEL = next(iter(sorted(MODELS.glob("learned-*.npz"))), MODELS / "learned.npz")


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


def file_plays(path: str | Path, game: str, players: int | None = None) -> bool:
    """Does the policy file at `path` play `game` (at `players` seats)?"""
    m = meta(str(Path(path).resolve()))
    return m is not None and m.get("game") == game and players in (None, m.get("players"))


def ppo_plays(game: str, players: int | None = None) -> bool:
    """The bot `ppo`'s check (its default policy file)."""
    return file_plays(DEFAULT_MODEL, game, players)


def learned_plays(game: str, players: int | None = None) -> bool:
    """The bot `learned`'s check (its default policy file)."""
    return file_plays(LEARNED_MODEL, game, players)
