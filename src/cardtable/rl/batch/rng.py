"""Random numbers of the batched simulators, compiled with numba.

`mt_seed` and `mt_below` are Python's own generator (`random.Random(seed)`: MT19937 seeded by
`init_by_array` from the seed's 32-bit words, `getrandbits(k)` = the next output's top k bits)
as `cardtable.core.rng.Rng` uses it, so a batched game dealt from seed s is the engine's game
of seed s, card for card (tests/rl/test_batch_abluxxen.py checks it against `random.Random`).
The random players (opponents, playouts) draw from a cheaper per-game generator, SplitMix64
(Steele, Lea and Flood 2014), whose state is one uint64 per game.
"""

from __future__ import annotations

import numpy as np
from cardtable.rl.batch.jit import njit

_M32 = np.uint64(0xFFFFFFFF)
N = 624
#: the scratch state of one Mersenne Twister: 624 words and the position (index 624)
MT_WORDS = N + 1


@njit
def _init_genrand(mt, s):
    mt[0] = s & _M32
    for i in range(1, N):
        prev = mt[i - 1]
        mt[i] = (np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i)) & _M32
    mt[N] = N


@njit
def mt_seed(mt, seed):
    """random.seed(seed) for 0 <= seed < 2**64: init_by_array with the seed's 32-bit words
    (one word for a seed below 2**32, zero included)."""
    key0 = seed & _M32
    key1 = seed >> np.uint64(32)
    klen = 2 if key1 != 0 else 1
    _init_genrand(mt, np.uint64(19650218))
    i = 1
    j = 0
    for _ in range(max(N, klen)):
        prev = mt[i - 1]
        key = key0 if j == 0 else key1
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)))
                 + key + np.uint64(j)) & _M32
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)))
                 - np.uint64(i)) & _M32
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = np.uint64(0x80000000)
    mt[N] = N


@njit
def _genrand(mt):
    if mt[N] >= N:
        upper = np.uint64(0x80000000)
        lower = np.uint64(0x7FFFFFFF)
        matrix = np.uint64(0x9908B0DF)
        for kk in range(N):
            y = (mt[kk] & upper) | (mt[(kk + 1) % N] & lower)
            v = mt[(kk + 397) % N] ^ (y >> np.uint64(1))
            if y & np.uint64(1):
                v ^= matrix
            mt[kk] = v
        mt[N] = 0
    y = mt[mt[N]]
    mt[N] += np.uint64(1)
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & _M32


@njit
def mt_below(mt, n):
    """Rng.below(n) (core/rng.py): getrandbits(n.bit_length()) until it is below n."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    while True:
        r = np.int64(_genrand(mt) >> np.uint64(32 - k))
        if r < n:
            return r


@njit
def mt_below_2_62(mt):
    """Rng.below(2**62) (the seed `bots.act` draws for each determinization):
    getrandbits(63) is two outputs, the first the low 32 bits, the second's top 31 bits the
    high ones, drawn again until the value is below 2**62."""
    while True:
        lo = _genrand(mt)
        hi = _genrand(mt) >> np.uint64(1)
        if hi < np.uint64(1 << 30):
            return (hi << np.uint64(32)) | lo


@njit
def mt_shuffle(mt, items, length):
    """Rng.shuffle (core/rng.py) of items[:length]: Fisher-Yates from the top down."""
    for i in range(length - 1, 0, -1):
        j = mt_below(mt, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@njit
def split_next(state, i):
    """The next 64-bit output of game i's SplitMix64 generator (state: uint64 array)."""
    z = state[i] + np.uint64(0x9E3779B97F4A7C15)
    state[i] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def split_below(state, i, n):
    """A uniform integer in [0, n) from game i's generator (Lemire's multiply-shift on the
    top 32 bits; the bias is below n / 2**32)."""
    return np.int64(((split_next(state, i) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
