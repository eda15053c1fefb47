"""The batched Abluxxen simulator of the research API (cardtable.rl.batch): `env.py` the
simulator class the declaration names (`GameInfo.batch`), `rules.py` the rules compiled with
numba, `kernels.py` the loops over many games, `policies.py` the bots' policies, `rollout.py`
the policy-rollout search's rollouts. Its modules need the rl extra (numpy, numba): without it,
importing this package says what to install. `COMPILED()` is the policy-rollout search's
compiled rollout (`rollout.py` `playout`) once it is ready in this process, else None
(rl/batch/warm.py: it never waits for the compiler)."""

import cardtable.rl.batch  # noqa: F401  (the shared parts; refuses clearly without the extra)
from cardtable.rl.batch.warm import Compiled

#: the compiled rollout's readiness (abluxxen/heuristics.py `compiled_playout`)
COMPILED = Compiled("cardtable.abluxxen.batch.rollout")
