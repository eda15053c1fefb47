"""The batched Abluxxen simulator of the research API (cardtable.rl.batch): `env.py` the
simulator class the declaration names (`GameInfo.batch`), `rules.py` the rules compiled with
numba, `kernels.py` the loops over many games. Its modules need the
rl extra (numpy, numba): without it, importing this package says what to install."""

import cardtable.rl.batch  # noqa: F401  (the shared parts; refuses clearly without the extra)
