"""Configurations of the research API tests (issue 16): every Abluxxen rule set and player
count (the duel with DU-4's shadow_partial off and on, and DU-6's former reading
shadow_blocks_draw) and Kombio for 2-6 players."""

from __future__ import annotations

ABLUXXEN = [("basic", n) for n in (3, 4, 5)] + [("advanced", n) for n in (3, 4, 5)] + \
    [("expert", n) for n in (3, 4, 5)] + [("classic", n) for n in (2, 3, 4, 5)]
DUEL = [{"shadow_partial": False}, {"shadow_partial": True},
        {"shadow_partial": True, "shadow_blocks_draw": True}]

#: keyword arguments of rl.common.make_config, one per configuration
CONFIGS = [dict(game="abluxxen", variant=v, players=n) for v, n in ABLUXXEN] + \
    [dict(game="abluxxen", variant="duel", players=2, options=o) for o in DUEL] + \
    [dict(game="kombio", players=n, target=60) for n in range(2, 7)]


def config_id(kw: dict) -> str:
    if kw["game"] == "kombio":
        return f"kombio-{kw['players']}p"
    opts = "".join(f"{'+' if v else '-'}{k}" for k, v in (kw.get("options") or {}).items())
    return f"{kw['variant']}{opts}-{kw['players']}p"

