"""Research API: both games as PettingZoo (AEC), Gymnasium and OpenSpiel environments.

    pip install 'cardtable[rl]'
    import cardtable.rl                          # registers cardtable/Abluxxen-v0, Kombio-v0
    from cardtable.rl.pettingzoo import env      # PettingZoo AEC environments
    import cardtable.rl.openspiel                # registers python_cardtable_abluxxen, _kombio

Every front end builds on the core protocol only (views, legal decisions, apply); the action
ids and the observation tensors are the same in all three (codec.py documents them).
"""

from __future__ import annotations

try:
    from cardtable.rl.gymnasium import register as _register
except ImportError as e:                            # pragma: no cover - depends on the extra
    raise ImportError(f"cardtable.rl needs the rl extra: pip install 'cardtable[rl]' ({e})") from e

_register()
