"""Research API: both games as PettingZoo (AEC), Gymnasium and OpenSpiel environments.

    pip install 'cardtable[rl]'
    import cardtable.rl                          # registers cardtable/Abluxxen-v0, Kombio-v0
    from cardtable.rl.pettingzoo import env      # PettingZoo AEC environments
    import cardtable.rl.openspiel                # registers python_cardtable_abluxxen, _kombio

Every front end builds on the core protocol only (views, legal decisions, apply); the action
ids and the observation tensors are the same in all three (codec.py documents them). A trained
policy plays as the bot `ppo` (policy.py, numpy only; train.py trains one).
"""

from __future__ import annotations

import importlib.util

#: what to install for the research API (pyproject.toml's extra `rl`)
INSTALL = "pip install 'cardtable[rl]'"


def missing_extra(error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error of a front end imported without the rl extra: which module is missing and
    what to install (instead of a bare ModuleNotFoundError)."""
    return ModuleNotFoundError(
        f"the research API (cardtable.rl) needs {error.name!r}, which is not installed: "
        f"{INSTALL} (the rl extra: numpy, numba, gymnasium, pettingzoo, open_spiel)", name=error.name)

if importlib.util.find_spec("gymnasium") is not None:   # without the rl extra: no registration
    from cardtable.rl.gymnasium import register as _register

    _register()
